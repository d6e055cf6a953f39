"""Show how the offline grader reads one labelled answer: clauses, flags, per-checkpoint strength vs gold."""
import json, sys
from app.bank.loader import load_bank
from app.grading.offline import OfflineGrader
from app.scoring.reading import read_answer

path, ids = sys.argv[1], sys.argv[2:]
content = "eval/content" if "minimal" in path else "content"
bank = load_bank(content)
g = OfflineGrader(bank.glossary)
for line in open(path):
    r = json.loads(line)
    if r["id"] not in ids:
        continue
    q = bank.get(r["question_id"])
    print("=" * 100, "\n", r["id"], r["kind"], "rating", r["rating"], "\n", r["answer"])
    for c in read_answer(r["answer"]):
        flags = "".join(f for f, on in (("N", c.negated), ("I", c.ignorance), ("R", c.retracted), ("X", c.instruction)) if on)
        print(f"   [{flags:3s}] {c.text}")
    res = g.grade(q, r["answer"])
    for c in res.checkpoints:
        gold = r["checkpoints"][c.id]
        mark = "  " if gold == c.state else "!!"
        ev = c.evidence[0].text[:90] if c.evidence else ""
        print(f" {mark} {c.id:28s} gold={gold:8s} got={c.state:8s} s={c.strength:.2f}  {ev}")
    print("   misconceptions gold", r["misconceptions"], "got", [m.id for m in res.misconceptions], "score", res.score)
