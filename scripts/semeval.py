"""Zero-shot check of the offline grader on SemEval-2013 Task 7 (2-way) training splits.

Each question is read as a one-checkpoint rubric whose text is the first reference answer
(the dataset README's instruction); `covered` means "correct", partial and missed mean
"incorrect". Nothing is fitted to these files.

    python scripts/semeval.py [--data DIR] [--limit N] [--all-references]

--all-references also passes the other reference answers as example phrasings (the
optional `examples` field of a checkpoint), to show what richer rubrics buy.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bank.loader import load_bank  # noqa: E402
from app.bank.schema import Checkpoint, Question  # noqa: E402
from app.grading.offline import OfflineGrader  # noqa: E402


def macro_f1(gold: list[bool], pred: list[bool]) -> float:
    f1s = []
    for positive in (True, False):
        tp = sum(g == positive and p == positive for g, p in zip(gold, pred))
        fp = sum(g != positive and p == positive for g, p in zip(gold, pred))
        fn = sum(g == positive and p != positive for g, p in zip(gold, pred))
        prec = tp / (tp + fp) if tp + fp else 0.0
        rec = tp / (tp + fn) if tp + fn else 0.0
        f1s.append(2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    return sum(f1s) / 2


def to_question(row: dict, all_refs: bool) -> Question:
    refs = [r for r in row["reference_answers"] if r.strip()]
    return Question(
        id="q-" + "".join(ch if ch.isalnum() else "-" for ch in row["question_id"].lower())[:100],
        title=row["question"][:200] or "question",
        topic="semeval",
        prompt=row["question"],
        checkpoints=(Checkpoint(id="answer", text=refs[0], examples=tuple(refs[1:]) if all_refs else ()),),
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data" / "semeval2013")
    ap.add_argument("--limit", type=int, default=0, help="grade only the first N answers of each split")
    ap.add_argument("--all-references", action="store_true")
    args = ap.parse_args()
    files = sorted(args.data.glob("*.jsonl"))
    if not files:
        sys.exit(f"no SemEval files in {args.data}")
    grader = OfflineGrader(load_bank(ROOT / "content").glossary)
    for path in files:
        rows = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
        if args.limit:
            rows = rows[: args.limit]
        questions: dict[str, Question] = {}
        gold, pred = [], []
        t0 = time.time()
        for row in rows:
            q = questions.setdefault(row["question_id"], to_question(row, args.all_references))
            result = grader.grade(q, row["answer"])
            gold.append(row["label"] == "correct")
            pred.append(result.checkpoints[0].state == "covered")
        acc = sum(g == p for g, p in zip(gold, pred)) / len(gold)
        print(f"{path.stem}: {len(rows)} answers, {len(questions)} questions, macro-F1 {macro_f1(gold, pred):.3f}, accuracy {acc:.3f} ({time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
