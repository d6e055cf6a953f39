"""Validate eval/gold/*.jsonl against the question definitions and print counts.

Checks: JSON per line, required keys, unique line ids (across all files), known question ids,
every checkpoint id of the question present and nothing else, states in
{covered, partial, missed}, misconception ids known, rating int 1..5, kind known,
seed files only answer seed questions and minimal files only eval/content questions,
dev and test share the same mix of kinds and questions (the *-dev2 files are extra fitting data), no answer text shared between files.
Run: /work/main/.venv/bin/python eval/tools/validate.py
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from questions import EVAL, minimal_questions, seed_questions  # noqa: E402

KINDS = {"strong", "partial", "paraphrase", "speech", "keywords", "negation", "misconception",
         "rejection", "retraction", "injection", "copy", "offtopic", "short"}
STATES = {"covered", "partial", "missed"}
KEYS = {"id", "question_id", "answer", "checkpoints", "misconceptions", "rating", "kind"}
FILES = ["seed-dev", "seed-test", "minimal-dev", "minimal-test", "seed-dev2", "minimal-dev2"]


def main():
    seed, mini = seed_questions(), minimal_questions()
    errors, ids, texts = [], {}, {}
    data = {}
    for name in FILES:
        qs = seed if name.startswith("seed") else mini
        recs = []
        for n, line in enumerate((EVAL / "gold" / f"{name}.jsonl").read_text().splitlines(), 1):
            where = f"{name}:{n}"
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                errors.append(f"{where}: bad JSON {e}")
                continue
            if set(r) != KEYS:
                errors.append(f"{where}: keys {sorted(r)}")
                continue
            if r["id"] in ids:
                errors.append(f"{where}: duplicate id {r['id']} (also {ids[r['id']]})")
            ids[r["id"]] = where
            q = qs.get(r["question_id"])
            if q is None:
                errors.append(f"{where}: question {r['question_id']} not allowed in {name}")
                continue
            if list(r["checkpoints"]) != q["checkpoints"]:
                if set(r["checkpoints"]) != set(q["checkpoints"]):
                    errors.append(f"{where}: checkpoint ids {sorted(r['checkpoints'])}")
            for c, s in r["checkpoints"].items():
                if s not in STATES:
                    errors.append(f"{where}: state {c}={s}")
            if not isinstance(r["misconceptions"], list) or len(set(r["misconceptions"])) != len(r["misconceptions"]):
                errors.append(f"{where}: misconceptions must be a list without duplicates")
            for m in r["misconceptions"]:
                if m not in q["misconceptions"]:
                    errors.append(f"{where}: unknown misconception {m}")
            if not (isinstance(r["rating"], int) and 1 <= r["rating"] <= 5):
                errors.append(f"{where}: rating {r['rating']}")
            if r["kind"] not in KINDS:
                errors.append(f"{where}: kind {r['kind']}")
            if r["kind"] == "copy" and (r["rating"] != 1 or set(r["checkpoints"].values()) != {"missed"}):
                errors.append(f"{where}: copy must be all missed, rating 1")
            if r["kind"] == "misconception" and not r["misconceptions"]:
                errors.append(f"{where}: misconception kind without misconceptions")
            if r["kind"] in {"rejection", "retraction", "negation", "keywords", "copy"} and r["misconceptions"]:
                errors.append(f"{where}: {r['kind']} should not assert misconceptions")
            if not r["answer"].strip():
                errors.append(f"{where}: empty answer")
            t = re.sub(r"\s+", " ", r["answer"].strip().lower())
            if t in texts:
                errors.append(f"{where}: same answer text as {texts[t]}")
            texts[t] = where
            recs.append(r)
        data[name] = recs
    for a, b in (("seed-dev", "seed-test"), ("minimal-dev", "minimal-test")):
        ka, kb = Counter(r["kind"] for r in data[a]), Counter(r["kind"] for r in data[b])
        if ka != kb:
            errors.append(f"kind mix differs between {a} and {b}: {ka} vs {kb}")
    # every question is answered somewhere in its family, and a dev/test pair answers the same questions
    for family, qs in (("seed", seed), ("minimal", mini)):
        got = Counter(r["question_id"] for n in FILES if n.startswith(family) for r in data[n])
        for qid in qs:
            if not got[qid]:
                errors.append(f"{family}: no answers for {qid}")
    for a, b in (("seed-dev", "seed-test"), ("minimal-dev", "minimal-test")):
        qa, qb = {r["question_id"] for r in data[a]}, {r["question_id"] for r in data[b]}
        if qa != qb:
            errors.append(f"{a} and {b} answer different questions: {sorted(qa ^ qb)}")

    # ---- report
    allk = sorted(KINDS)
    print(f"{'kind':<14}" + "".join(f"{n:>14}" for n in FILES) + f"{'total':>8}")
    for k in allk:
        row = [sum(r["kind"] == k for r in data[n]) for n in FILES]
        print(f"{k:<14}" + "".join(f"{c:>14}" for c in row) + f"{sum(row):>8}")
    tot = [len(data[n]) for n in FILES]
    print(f"{'TOTAL':<14}" + "".join(f"{c:>14}" for c in tot) + f"{sum(tot):>8}")
    print()
    for n in FILES:
        print(n, dict(Counter(r["question_id"] for r in data[n])))
    print()
    st = Counter(s for n in FILES for r in data[n] for s in r["checkpoints"].values())
    print("checkpoint states:", dict(st))
    print("ratings:", dict(sorted(Counter(r["rating"] for n in FILES for r in data[n]).items())))
    print("lines asserting misconceptions:", sum(bool(r["misconceptions"]) for n in FILES for r in data[n]))
    words = [len(r["answer"].split()) for n in FILES for r in data[n]]
    print(f"answer length in words: min {min(words)}, max {max(words)}, mean {sum(words)/len(words):.0f}")
    if errors:
        print("\nERRORS:")
        for e in errors:
            print(" ", e)
        sys.exit(1)
    print("\nOK: all checks passed")


if __name__ == "__main__":
    main()
