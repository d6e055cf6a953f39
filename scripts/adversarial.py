"""Grade the adversarial sets in eval/adversarial/ and print how often the grader is fooled.

    python scripts/adversarial.py [-v]

- misconceptions.jsonl: answers written to tempt false flags (correct statements close to a
  wrong claim, rejected or retracted claims) and plain assertions in the writer's own words,
  each labelled with the misconception ids it asserts. Counted per (answer, misconception of its
  question): false flags (FP) and missed claims (FN), for the 'main' set, the follow-up
  'probe' set and the bank's own texts ('bank').
- credit.jsonl: answers written to earn credit they should not (negation, swapped roles, wrong
  direction, another concept, hedges) and paraphrases without the rubric's terms, labelled with
  the checkpoints they cover or partially cover (the rest missed). Counted per checkpoint:
  false credit (gold missed graded covered or partial, gold partial graded covered) and missed
  credit (gold covered graded missed).

Both were written and labelled by reviewers who did not read the grader's code or the labelled
evaluation set; nothing is fitted to them.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bank.loader import load_bank  # noqa: E402
from app.grading.offline import OfflineGrader  # noqa: E402

RANK = {"missed": 0, "partial": 1, "covered": 2}


def main() -> None:
    verbose = "-v" in sys.argv
    bank = load_bank(ROOT / "content")
    grader = OfflineGrader(bank.glossary)
    folder = ROOT / "eval" / "adversarial"

    counts: dict[str, Counter] = {}
    for line in (folder / "misconceptions.jsonl").read_text().splitlines():
        row = json.loads(line)
        q = bank.get(row["question_id"])
        flagged = {m.id for m in grader.grade_core(q, row["answer"]).misconceptions}
        gold = set(row["misconceptions"])
        c = counts.setdefault(row["set"], Counter())
        for m in q.misconceptions:
            kind = {(True, True): "TP", (True, False): "FP", (False, True): "FN", (False, False): "TN"}[(m.id in flagged, m.id in gold)]
            c[kind] += 1
            if verbose and kind in ("FP", "FN"):
                print(f"  {kind} {row['id']} {m.id}: {row['answer'][:150]}")
    for name, c in counts.items():
        print(f"misconceptions, {name}: false flags {c['FP']}, missed {c['FN']}, caught {c['TP']}, rightly silent {c['TN']}")

    false_credit, missed_credit, judgements, by_pattern = Counter(), 0, 0, Counter()
    gold_covered = 0
    for line in (folder / "credit.jsonl").read_text().splitlines():
        row = json.loads(line)
        q = bank.get(row["question_id"])
        for cp in grader.grade_core(q, row["answer"]).checkpoints:
            judgements += 1
            gold = row["checkpoints"].get(cp.id, "missed")
            gold_covered += gold == "covered"
            if RANK[cp.state] > RANK[gold]:
                false_credit[f"{gold}->{cp.state}"] += 1
                by_pattern[row["pattern"]] += 1
                if verbose:
                    print(f"  false credit {row['id']} {cp.id} {gold}->{cp.state}: {row['answer'][:150]}")
            elif gold == "covered" and cp.state == "missed":
                missed_credit += 1
    print(f"checkpoint credit: {judgements} judgements, false credit {sum(false_credit.values())} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(false_credit.items()))}), "
          f"missed credit {missed_credit} of {gold_covered} gold-covered")
    print("false credit by trap:", ", ".join(f"{k} {v}" for k, v in by_pattern.most_common()))


if __name__ == "__main__":
    main()
