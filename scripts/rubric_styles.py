"""Grade the minimal-form labelled answers against the same questions written in other styles.

    python scripts/rubric_styles.py

A study group writes its questions its own way. The meaning of a checkpoint does not change when it
is written "Explains that ...", numbered, marked up in Markdown, followed by a mark scheme's
"(2 points)", or in capitals, nor when the question is labelled "Question 3:"; a wrong claim does not change when it is labelled "Myth:" or written
"Thinking that ...". Each style below rewrites every point of the eleven evaluation questions
(eval/content) that way and grades the minimal-form test, dev and dev2 answers against them; the
figures should be those of the questions as written ("plain"). Nothing here is fitted: the labels
are the same, only the questions' wording changes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bank.loader import load_bank  # noqa: E402
from app.bank.schema import Question  # noqa: E402
from app.grading.evaluation import evaluate_file, parse_gold_row  # noqa: E402
from app.grading.offline import OfflineGrader  # noqa: E402

FILES = ("minimal-test", "minimal-dev", "minimal-dev2")
SEED = ("train-vs-infer-optimization", "tensor-vs-pipeline-parallelism", "allreduce-deep-dive")  # rubric-spec.md's questions
LEAD_INS = ("Explains that ", "Mentions that ", "The answer states that ", "The candidate notes that ", "Should explain that ")
CLAIMS = ("Claims that ", "Believes that ", "Thinking that ", "Assumes that ", "The answer says that ")
LABELS = ("Myth: ", "Wrong: ", "Misconception: ", "Common mistake: ", "Wrong belief: ")
MARKS = (" (2 points)", " [1 pt]", " (1 mark)", " [required]", " (must have)")
LIST = ("1. ", "(a) ", "- ", "2) ", "b) ")
PROMPT_LABELS = ("Q: ", "Question 3: ", "Interview question: ", "Q1. ", "**Question:** ")
PROMPT_NOTES = (" (5 min)", " [deep dive]", "", " (2-3 minutes)", " (hard)")


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text  # not 'KV' -> 'kV'


def _mark_up(text: str, names: list[str], n: int) -> str:
    """The first glossary name in the text, as a whole word, in bold or as code."""
    for name in names:
        m = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
        if m:
            return text[: m.start()] + (f"`{name}`" if n % 2 else f"**{name}**") + text[m.end():]
    return text


# style -> (rewrite of checkpoint i, rewrite of wrong claim i[, rewrite of the prompt of question i]);
# each gets the text and its index.
Style = tuple[Callable[[str, int], str], ...]


def styles(names: list[str]) -> dict[str, Style]:
    same: Callable[[str, int], str] = lambda t, i: t  # noqa: E731
    return {
        "plain": (same, same),
        "lead-ins ('Explains that ...', 'Claims that ...')": (lambda t, i: LEAD_INS[i % 5] + _lower_first(t), lambda t, i: CLAIMS[i % 5] + _lower_first(t)),
        "labels on wrong claims ('Myth: ...')": (same, lambda t, i: LABELS[i % 5] + t),
        "numbered ('1. ', '(a) ', '- ')": (lambda t, i: LIST[i % 5] + t, lambda t, i: LIST[(i + 2) % 5] + t),
        "mark scheme ('... (2 points)')": (lambda t, i: t + MARKS[i % 5], same),
        "Markdown names (**KV cache**, `ZeRO`)": (lambda t, i: _mark_up(t, names, i), lambda t, i: _mark_up(t, names, i + 1)),
        "capitals (ALL CAPS)": (lambda t, i: t.upper(), lambda t, i: t.upper()),
        "labelled prompts ('Question 3: ... (5 min)')": (same, same, lambda t, i: PROMPT_LABELS[i % 5] + t.strip() + PROMPT_NOTES[i % 5]),
    }


def restyle(q: Question, style: Style, n: int = 0) -> Question:
    on_point, on_claim, *on_prompt = style
    return q.model_copy(update={
        "prompt": on_prompt[0](q.prompt, n) if on_prompt else q.prompt,
        "checkpoints": tuple(c.model_copy(update={"text": on_point(c.text.strip(), i)}) for i, c in enumerate(q.checkpoints)),
        "misconceptions": tuple(m.model_copy(update={"text": on_claim(m.text.strip(), i)}) for i, m in enumerate(q.misconceptions)),
    })


class _Restyled:
    """The evaluation bank with each question restyled (``evaluate_file`` only asks ``get``)."""

    def __init__(self, questions: dict[str, Question]):
        self._questions = questions

    def get(self, question_id: str) -> Question | None:
        return self._questions.get(question_id)


def main() -> None:
    bank, shipped = load_bank(ROOT / "eval" / "content"), load_bank(ROOT / "content")
    glossary = shipped.glossary
    grader = OfflineGrader(glossary)
    names = sorted({t.term for t in glossary}, key=len, reverse=True)  # the names a group would mark up
    rows = {f: [parse_gold_row(line) for line in (ROOT / "eval" / "gold" / f"{f}.jsonl").read_text().splitlines() if line.strip()] for f in FILES}
    print(f"{'style':52s} " + " | ".join(f"{f:>24s}" for f in FILES))
    print(f"{'':52s} " + " | ".join(f"{'accuracy  cov-F1  mis-F1':>24s}" for _ in FILES))
    runs = [(name, _Restyled({q.id: restyle(q, style, n) for n, q in enumerate(bank.questions)}), grader) for name, style in styles(names).items()]
    # Not a style but the same question: a group's new topic whose own names the glossary lacks.
    # The glossary less the entries these questions use and the three seed questions do not.
    seed = " ".join(_texts(q) for q in shipped.questions if q.id in SEED)
    theirs = " ".join(_texts(q) for q in bank.questions)
    lacking = [t for t in glossary if any(_names(f, theirs) for f in (t.term, *t.variants, *t.short_forms))
               and not any(_names(f, seed) for f in (t.term, *t.variants, *t.short_forms))]
    runs.append((f"plain, glossary without their {len(lacking)} own names", _Restyled({q.id: q for q in bank.questions}),
                 OfflineGrader([t for t in glossary if t not in lacking])))
    for name, restyled, by in runs:
        cells = []
        for f in FILES:
            fig = evaluate_file(rows[f], bank=restyled, grader=by).figures()  # type: ignore[arg-type]
            cells.append(f"{fig['accuracy']:8.3f} {fig['covered_f1']:7.3f} {fig['misconception_f1']:7.3f}")
        print(f"{name:52s} " + " | ".join(f"{c:>24s}" for c in cells))
    print(f"(names left out: {', '.join(t.term for t in lacking)})")


def _texts(q: Question) -> str:
    return " ".join([q.prompt, *(c.text for c in q.checkpoints), *(m.text for m in q.misconceptions)]).lower()


def _names(form: str, text: str) -> bool:
    return re.search(r"(?<![a-z0-9])" + re.escape(form.lower()) + r"(?![a-z0-9])", text) is not None


if __name__ == "__main__":
    main()
