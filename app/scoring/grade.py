"""The offline grader's core: decide, per checkpoint, covered / partial / missed with evidence,
flag asserted misconceptions, and give a 0-100 score.

Signals combined for each checkpoint and each candidate window (a clause, or two adjacent
clauses) of the answer:
- meaning: cosine similarity of sentence embeddings between the window and the checkpoint
  (its text, its facets, its example phrasings), after the glossary has mapped variants and
  recognizer mishearings to canonical terms;
- concepts: how many of the checkpoint's key concepts the window names (glossary concepts and
  content words, stemmed, fuzzy-matched for misspellings);
- substance: a window that is a bare list of terms, or names a concept in passing, earns nothing;
- stance: a negated window cannot support a positive checkpoint, and windows that admit not
  knowing, are retracted, or address the grader are ignored.

Score scale: 0..100, the weighted share of checkpoint credit (covered 1, partial 0.5, nudged by
the strength of the evidence), minus a penalty per asserted misconception. Empty answer: 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz import fuzz

from app.scoring.reading import Clause, read_answer
from app.scoring.terms import TermMatcher
from app.scoring.text import FILLERS, STOPWORDS, content_words, normalize, stem, tokenize

Encode = Callable[[Sequence[str]], np.ndarray]

COVERED, PARTIAL, MISSED = "covered", "partial", "missed"
STATE_CREDIT = {COVERED: 1.0, PARTIAL: 0.5, MISSED: 0.0}


@dataclass(frozen=True)
class Point:
    """A checkpoint or misconception as the core sees it."""

    id: str
    text: str
    weight: float = 1.0
    aliases: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    correction: str | None = None


@dataclass(frozen=True)
class Rubric:
    prompt: str
    checkpoints: tuple[Point, ...]
    misconceptions: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True)
class CheckpointGrade:
    id: str
    state: str
    strength: float  # 0..1, how strongly the best evidence supports the checkpoint
    evidence: tuple[Span, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class MisconceptionHit:
    id: str
    evidence: tuple[Span, ...]
    strength: float


@dataclass(frozen=True)
class Grade:
    score: int
    checkpoints: tuple[CheckpointGrade, ...]
    misconceptions: tuple[MisconceptionHit, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tuning:
    """Thresholds of the decision; documented defaults, no per-question fitting."""

    covered: float = 0.56
    partial: float = 0.36
    misconception: float = 0.62
    misconception_penalty: float = 8.0
    sim_floor: float = 0.22  # cosine of unrelated same-domain text
    sim_ceiling: float = 0.72  # cosine of a clear paraphrase
    min_substance_words: int = 4


@dataclass
class _Window:
    start: int
    end: int
    text: str  # canonical text given to the encoder
    words: set[str] = field(default_factory=set)
    keys: set[str] = field(default_factory=set)
    negated: bool = False
    substance: float = 1.0
    clauses: tuple[int, ...] = ()


_FILLER_RE = re.compile(r"\b(?:um+|uh+|erm|er|hmm+|mm+|ah|eh|you know|i guess|kind of|sort of|like,)\s*", re.I)
_STUTTER = re.compile(r"\b(\w+)(?:\s+\1\b)+", re.I)


def clean_for_matching(text: str, matcher: TermMatcher) -> str:
    """Drop fillers and stutters, then canonicalise glossary terms."""
    text = _FILLER_RE.sub(" ", normalize(text))
    text = _STUTTER.sub(r"\1", text)
    return matcher.canonicalize(text)


def _key_terms(text: str, matcher: TermMatcher) -> tuple[set[str], set[str]]:
    canon = clean_for_matching(text, matcher)
    return set(content_words(canon)), matcher.keys_in(canon)


def _is_list_like(text: str) -> bool:
    """'quantization, pruning, distillation and tensorrt' names things without saying anything."""
    parts = [p for p in re.split(r",|;|\band\b|\bor\b|/", text) if p.strip()]
    if len(parts) < 3:
        return False
    lengths = [len([t for t in tokenize(p) if t.text not in FILLERS]) for p in parts]
    return sum(lengths) / len(lengths) <= 2.6


def _substance(text: str, tuning: Tuning) -> float:
    """0 for a bare list of terms or a fragment, rising to 1 for a full claim."""
    if _is_list_like(text):
        return 0.0
    toks = [t.text for t in tokenize(text) if t.text not in FILLERS]
    n = len(toks)
    function = sum(1 for t in toks if t in STOPWORDS)
    if n < 3:
        return 0.0
    # A claim relates concepts: it needs some function words or enough words to carry a predicate.
    base = min(1.0, (n - 2) / (tuning.min_substance_words + 2))
    if function == 0 and n < 6:
        base *= 0.5
    return base


def _calibrate(sim: float, tuning: Tuning) -> float:
    return float(np.clip((sim - tuning.sim_floor) / (tuning.sim_ceiling - tuning.sim_floor), 0.0, 1.0))


def _overlap(ref_words: set[str], ref_keys: set[str], w: _Window) -> float:
    """Weighted recall of the reference's concepts in the window (glossary concepts count double)."""
    total = 2.0 * len(ref_keys) + len(ref_words)
    if total == 0:
        return 0.0
    hit = 2.0 * len(ref_keys & w.keys)
    for word in ref_words:
        if word in w.words:
            hit += 1
        elif len(word) >= 6 and any(len(x) >= 5 and fuzz.ratio(word, x) >= 85 for x in w.words):
            hit += 0.8  # misspelling or inflection the stemmer missed
    return hit / total


def _split_facets(text: str) -> list[str]:
    """The separate sub-claims of a checkpoint ('A; B; trade-off: C' -> [A, B, C])."""
    parts = [p.strip() for p in re.split(r";|\(|\)|:|\s-\s|, (?:and |or )?(?=[a-z]+ing\b|trade|which|so )", text) if p.strip()]
    facets = [p for p in parts if len(content_words(p)) >= 2]
    return facets if len(facets) > 1 else []


def _build_windows(answer: str, clauses: list[Clause], matcher: TermMatcher, tuning: Tuning) -> list[_Window]:
    windows: list[_Window] = []
    usable = [i for i, c in enumerate(clauses) if c.usable]
    groups = [(i,) for i in usable] + [(a, b) for a, b in zip(usable, usable[1:]) if b == a + 1]
    for group in groups:
        cs = [clauses[i] for i in group]
        raw = " ".join(c.text for c in cs)
        canon = clean_for_matching(raw, matcher)
        windows.append(
            _Window(
                start=cs[0].start,
                end=cs[-1].end,
                text=canon,
                words=set(content_words(canon)),
                keys=matcher.keys_in(canon),
                negated=any(c.negated for c in cs) if len(cs) == 1 else all(c.negated for c in cs),
                substance=max(_substance(c.text, tuning) for c in cs),
                clauses=group,
            )
        )
    return windows


def _is_copy_of_prompt(window: _Window, prompt_words: set[str]) -> bool:
    """A window that only restates the question is not an answer."""
    if not window.words or not prompt_words:
        return False
    return len(window.words & prompt_words) / len(window.words) >= 0.8 and len(window.words) >= 4


def grade(rubric: Rubric, answer: str, *, encode: Encode, matcher: TermMatcher, tuning: Tuning = Tuning()) -> Grade:
    """Grade one answer against one rubric.

    >>> import numpy as np
    >>> toy = lambda texts: np.eye(len(texts), 8)[:, :8]  # an encoder that knows nothing
    >>> r = Rubric("Q?", (Point("a", "All-reduce sums gradients on every GPU"),))
    >>> grade(r, "", encode=toy, matcher=TermMatcher.build([])).score
    0
    """
    if not normalize(answer):
        return Grade(0, tuple(CheckpointGrade(p.id, MISSED, 0.0) for p in rubric.checkpoints), (), ("empty answer",))
    clauses = read_answer(answer)
    windows = _build_windows(answer, clauses, matcher, tuning)
    prompt_words = set(content_words(clean_for_matching(rubric.prompt, matcher)))
    windows = [w for w in windows if not _is_copy_of_prompt(w, prompt_words)]
    notes = []
    if any(c.instruction for c in clauses):
        notes.append("text addressed to the grader was ignored")
    if not windows:
        return Grade(0, tuple(CheckpointGrade(p.id, MISSED, 0.0) for p in rubric.checkpoints), (), tuple(notes))

    # Encode every window and every reference text in one batch.
    refs: list[str] = []
    ref_index: dict[str, int] = {}

    def ref(text: str) -> int:
        t = clean_for_matching(text, matcher)
        if t not in ref_index:
            ref_index[t] = len(refs)
            refs.append(t)
        return ref_index[t]

    plan = []
    for p in rubric.checkpoints:
        facets = _split_facets(p.text)
        plan.append((p, [ref(p.text)] + [ref(e) for e in p.examples], [ref(f) for f in facets], facets))
    mplan = []
    for m in rubric.misconceptions:
        mplan.append((m, [ref(m.text)] + [ref(e) for e in m.examples], ref(m.correction) if m.correction else None))
    vecs = encode([w.text for w in windows] + refs)
    wv, rv = vecs[: len(windows)], vecs[len(windows) :]
    sims = wv @ rv.T  # (windows, refs)

    results = []
    for p, full_refs, facet_refs, facets in plan:
        results.append(_grade_point(p, windows, sims, full_refs, facet_refs, facets, matcher, tuning))
    hits = []
    for m, m_refs, corr_ref in mplan:
        hit = _detect_misconception(m, windows, sims, m_refs, corr_ref, matcher, tuning)
        if hit:
            hits.append(hit)
    total_w = sum(p.weight for p in rubric.checkpoints)
    credit = sum(
        p.weight * (0.85 * STATE_CREDIT[g.state] + 0.15 * g.strength) for p, g in zip(rubric.checkpoints, results)
    )
    score = 100.0 * credit / total_w - tuning.misconception_penalty * len(hits)
    return Grade(int(round(np.clip(score, 0, 100))), tuple(results), tuple(hits), tuple(notes))


def _grade_point(p, windows, sims, full_refs, facet_refs, facets, matcher, tuning) -> CheckpointGrade:
    ref_words, ref_keys = _key_terms(" ".join((p.text, *p.aliases)), matcher)
    alias_keys = [_key_terms(a, matcher) for a in p.aliases]
    best, best_w = 0.0, None
    strengths = []
    for wi, w in enumerate(windows):
        meaning = _calibrate(float(sims[wi, full_refs].max()), tuning)
        concepts = _overlap(ref_words, ref_keys, w)
        # An alias named in the window is strong evidence of the concept (not of the explanation).
        alias_hit = any((ak and ak <= w.keys) or (aw and aw <= w.words) for aw, ak in alias_keys)
        concept_score = max(concepts, 0.5 if alias_hit else 0.0)
        strength = (0.6 * meaning + 0.4 * min(1.0, concept_score / 0.45)) * w.substance
        if w.negated:
            strength *= 0.35  # 'X does not ...' rarely states the checkpoint
        strengths.append(strength)
        if strength > best:
            best, best_w = strength, w
    # Facets: a checkpoint with several sub-claims is covered when most are made somewhere.
    if facets and best_w is not None:
        made = 0
        for fr in facet_refs:
            col = sims[:, fr]
            made += any(
                _calibrate(float(col[wi]), tuning) * w.substance >= 0.5 and not w.negated
                for wi, w in enumerate(windows)
            )
        share = made / len(facets)
        best = 0.75 * best + 0.25 * share if share < 1 else best
    state = COVERED if best >= tuning.covered else PARTIAL if best >= tuning.partial else MISSED
    evidence: tuple[Span, ...] = ()
    if best_w is not None and state != MISSED:
        evidence = (Span(best_w.start, best_w.end),)
    return CheckpointGrade(p.id, state, round(float(best), 3), evidence)


def _detect_misconception(m, windows, sims, m_refs, corr_ref, matcher, tuning) -> MisconceptionHit | None:
    m_words, m_keys = _key_terms(m.text, matcher)
    m_negated = bool(re.search(r"\b(?:not|no|never|n't|without)\b", normalize(m.text)))
    best, best_w = 0.0, None
    for wi, w in enumerate(windows):
        if len(w.clauses) > 1:
            continue  # a claim is asserted within one clause
        sim = float(sims[wi, m_refs].max())
        if corr_ref is not None and float(sims[wi, corr_ref]) >= sim:
            continue  # closer to the correct statement than to the wrong one
        if w.negated != m_negated:
            continue  # 'fusion does not mainly cut FLOPs' rejects the claim
        strength = (0.65 * _calibrate(sim, tuning) + 0.35 * min(1.0, _overlap(m_words, m_keys, w) / 0.5)) * max(w.substance, 0.5)
        if strength > best:
            best, best_w = strength, w
    if best_w is None or best < tuning.misconception:
        return None
    return MisconceptionHit(m.id, (Span(best_w.start, best_w.end),), round(best, 3))
