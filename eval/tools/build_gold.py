"""Write eval/gold/*.jsonl from the hand-labelled answer tables in this folder.

Labels are written by hand in answers_*.py: for each answer, the covered and partial
checkpoints are listed explicitly and every other checkpoint of the question is "missed".
Run: /work/main/.venv/bin/python eval/tools/build_gold.py
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import answers_minimal  # noqa: E402
import answers_minimal2  # noqa: E402
import answers_seed_ar  # noqa: E402
import answers_seed_dev2  # noqa: E402
import answers_seed_tvi  # noqa: E402
import answers_seed_tvp  # noqa: E402
from questions import EVAL, minimal_questions, seed_questions  # noqa: E402


def rows():
    for mod in (answers_seed_tvi, answers_seed_tvp, answers_seed_ar):
        for f, aid, kind, rating, cov, par, mis, text in mod.ANSWERS:
            yield f, aid, mod.Q, kind, rating, cov, par, mis, text
    yield from answers_minimal.ANSWERS
    yield from answers_seed_dev2.ANSWERS
    yield from answers_minimal2.ANSWERS


def main():
    qs = {**seed_questions(), **minimal_questions()}
    files = {}
    for f, aid, qid, kind, rating, cov, par, mis, text in rows():
        q = qs[qid]
        cov, par, mis = cov.split(), par.split(), mis.split()
        for c in cov + par:
            assert c in q["checkpoints"], f"{aid}: unknown checkpoint {c}"
        assert not set(cov) & set(par), f"{aid}: covered and partial overlap"
        assert len(set(cov)) == len(cov) and len(set(par)) == len(par), f"{aid}: duplicate"
        for m in mis:
            assert m in q["misconceptions"], f"{aid}: unknown misconception {m}"
        states = {c: "covered" if c in cov else "partial" if c in par else "missed"
                  for c in q["checkpoints"]}
        rec = {"id": aid, "question_id": qid, "answer": text.strip(), "checkpoints": states,
               "misconceptions": mis, "rating": rating, "kind": kind}
        files.setdefault(f, []).append(rec)
    out = EVAL / "gold"
    out.mkdir(exist_ok=True)
    for f, recs in files.items():
        with open(out / f"{f}.jsonl", "w") as fh:
            for r in recs:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"{f}.jsonl: {len(recs)} lines")


if __name__ == "__main__":
    main()
