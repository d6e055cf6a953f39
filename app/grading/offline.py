"""The default grader: the pure scoring core with the MiniLM encoder and the shared glossary."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from app.bank.schema import GlossaryTerm, Question
from app.grading.base import CheckpointResult, EvidenceSpan, GradeResult, MisconceptionResult
from app.grading.embedder import EmbedderUnavailable, get_embedder
from app.scoring.grade import Point, Rubric, Tuning, grade, reference_texts
from app.scoring.terms import TermMatcher
from app.scoring.spelling import english_words
from app.scoring.text import prompt_statement, replace_lone_surrogates, rubric_statement, tidy_typography

log = logging.getLogger(__name__)


def rubric_of(question: Question) -> Rubric:
    """The question as the scoring core reads it: each point is the statement it is about, without
    a lead-in about the answer ('Explains that ...', 'Claims that ...'), which study groups often
    write; and every text is read as an answer's typing is (Markdown, curly quotes, long dashes)."""
    typed = lambda texts: tuple(tidy_typography(t)[0] for t in texts)  # noqa: E731
    return Rubric(
        prompt=prompt_statement(question.prompt),
        checkpoints=tuple(
            Point(c.id, rubric_statement(c.text), c.weight, typed(c.aliases), typed(c.examples)) for c in question.checkpoints
        ),
        misconceptions=tuple(
            Point(m.id, rubric_statement(m.text, claim=True), 1.0, (), typed(m.examples), m.correction and tidy_typography(m.correction)[0])
            for m in question.misconceptions
        ),
    )


class _HashEncoder:
    """Fallback when the MiniLM weights are absent: bag-of-words hashing (clearly weaker)."""

    dim = 512

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        from app.scoring.text import content_words

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in content_words(t):
                out[i, hash(w) % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.maximum(norms, 1e-9)


class OfflineGrader:
    name = "offline"

    def __init__(self, glossary: Sequence[GlossaryTerm] = (), *, model_dir: Path | None = None, tuning: Tuning = Tuning()):
        try:
            embedder = get_embedder(model_dir)
            self._encode, self._encode_tokens = embedder.encode, embedder.encode_tokens
            self.encoder_name = "all-MiniLM-L6-v2"
        except EmbedderUnavailable as err:
            log.warning("offline grader without sentence embeddings: %s", err)
            self._encode, self._encode_tokens = _HashEncoder(), None
            self.encoder_name = "hashing"
        self.matcher = TermMatcher.build((t.term, t.variants, t.short_forms) for t in glossary)
        self.tuning = tuning
        words = english_words()
        self.known_words = words if len(words) else None  # without the list nothing is respelt
        self._rubric = lru_cache(maxsize=512)(rubric_of)

    def warm_up(self, questions: Sequence[Question]) -> None:
        """Encode every rubric's reference texts once, so first grades are as fast as later ones."""
        for question in questions:
            self._encode(reference_texts(self._rubric(question), self.matcher))

    def grade_core(self, question: Question, answer: str):
        """The pure core's full grade, with each checkpoint's signals (for fitting and diagnosis)."""
        return grade(self._rubric(question), replace_lone_surrogates(answer), encode=self._encode, matcher=self.matcher, tuning=self.tuning,
                     encode_tokens=self._encode_tokens, known_words=self.known_words)

    def grade(self, question: Question, answer: str) -> GradeResult:
        g = self.grade_core(question, answer)
        return GradeResult(
            grader=self.name,
            score=g.score,
            checkpoints=[
                CheckpointResult(
                    id=c.id,
                    state=c.state,
                    strength=c.strength,
                    evidence=[EvidenceSpan(start=s.start, end=s.end, text=answer[s.start : s.end]) for s in c.evidence],
                )
                for c in g.checkpoints
            ],
            misconceptions=[
                MisconceptionResult(
                    id=m.id,
                    evidence=[EvidenceSpan(start=s.start, end=s.end, text=answer[s.start : s.end]) for s in m.evidence],
                )
                for m in g.misconceptions
            ],
            notes=list(g.notes),
        )
