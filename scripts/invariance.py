"""Grade every labelled answer as written and as typed differently, and count what changes.

    python scripts/invariance.py [-v]

A reader's verdict does not depend on how an answer is typed: curly quotes, a long dash for a
semicolon, double spaces, a hard wrap, Markdown (a numbered or bulleted list, bold, code), a
heading, a closing pleasantry. Each variant below changes only that; the script prints, per
variant, how many checkpoint decisions and wrong-claim flags differ from the answer as written
(ideally none). Some variants cannot be neutral for an embedding model (a contraction spelt out
changes the word pieces); they are listed to show how far that goes.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bank.loader import load_bank  # noqa: E402
from app.grading.offline import OfflineGrader  # noqa: E402

FILES = [("seed-test", "content"), ("minimal-test", "eval/content"), ("seed-dev", "content"), ("minimal-dev", "eval/content"),
         ("seed-dev2", "content"), ("minimal-dev2", "eval/content")]
# Sentence ends, not the dot of 'e.g.', 'i.e.', 'vs.' or '1.5'.
_SENTENCES = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bvs\.)(?<=[.!?])\s+(?=\S)")
_TERMS = re.compile(r"\b(tensor parallelism|pipeline parallelism|all-reduce|NVLink|InfiniBand|TensorRT|quantization|pruning|"
                    r"kernel fusion|DDP|ZeRO|KV cache|FlashAttention)\b", re.I)
_CONTRACTIONS = {"doesn't": "does not", "don't": "do not", "isn't": "is not", "aren't": "are not", "it's": "it is",
                 "It's": "It is", "there's": "there is", "can't": "cannot", "won't": "will not"}


def _sentences(answer: str) -> list[str]:
    return [s for s in _SENTENCES.split(answer.strip()) if s]


VARIANTS = {
    "curly quotes": lambda a: a.replace("'", "\u2019").replace('"', "\u201c"),
    "long dash for '; '": lambda a: a.replace("; ", " \u2014 "),
    "double spaces": lambda a: a.replace(" ", "  "),
    "non-breaking spaces": lambda a: a.replace(" is ", "\u00a0is\u00a0"),
    "hard wrap at 72": lambda a: "\n".join(textwrap.fill(line, 72) for line in a.split("\n")),
    "one paragraph per sentence": lambda a: "\n\n".join(_sentences(a)),
    "bulleted list": lambda a: "\n".join("- " + s for s in _sentences(a)),
    "numbered list": lambda a: "\n".join(f"{k}. {s}" for k, s in enumerate(_sentences(a), 1)),
    "bold terms": lambda a: _TERMS.sub(r"**\1**", a),
    "code terms": lambda a: re.sub(r"\b(all-reduce|NCCL|no_sync|cudaMemcpyAsync|TensorRT|nsys|ncu)\b", r"`\1`", a),
    "heading": lambda a: "## My answer\n\n" + a,
    "zero-width spaces": lambda a: a.replace("parallel", "paral\u200blel").replace("GPU", "G\u200bPU"),
    "lower case": lambda a: a.lower(),
    "no final full stop": lambda a: re.sub(r"[.]\s*$", "", a.strip()),
    "pleasantries around it": lambda a: "Sure, good question. " + a + " Hope that helps!",
    "fillers ('um') every 7 words": lambda a: re.sub(r"((?:\S+\s+){7})", r"\1um ", a),
    "a stutter every 9 words": lambda a: re.sub(r"((?:\S+\s+){8})([A-Za-z]+)(\s)", r"\1\2 \2\3", a),
    "fillers taken out": lambda a: re.sub(r"\b(?:um+|uh+|erm)\b,?\s*", "", a),
    "British spellings": lambda a: re.sub(r"(?<=[a-z]{3})iz(?=(?:e|es|ed|ing|ation|ations|er|ers)\b)", "is", a),
    "TP / PP for the names": lambda a: re.sub(r"\b[Tt]ensor parallelism\b", "TP", re.sub(r"\b[Pp]ipeline parallelism\b", "PP", a)),
    "fillers set off by commas": lambda a: re.sub(r",?\s+(um+|uh+|erm)\b,?\s*", r", \1, ", a),
    "said twice": lambda a: a + "\n\n" + a,
    "question restated first": lambda a, q: q.prompt.strip() + "\n\n" + a,
    "contractions spelt out": lambda a: re.sub("|".join(map(re.escape, _CONTRACTIONS)), lambda m: _CONTRACTIONS[m.group()], a),
}


def main() -> None:
    verbose = "-v" in sys.argv
    changed: Counter = Counter()
    flags: Counter = Counter()
    decisions = answers = 0
    for name, content in FILES:
        bank = load_bank(ROOT / content)
        grader = OfflineGrader(bank.glossary)
        for line in (ROOT / "eval/gold" / f"{name}.jsonl").read_text().splitlines():
            row = json.loads(line)
            q = bank.get(row["question_id"])
            base = grader.grade(q, row["answer"])
            states = {c.id: c.state for c in base.checkpoints}
            wrong = sorted(m.id for m in base.misconceptions)
            decisions += len(states)
            answers += 1
            for variant, rewrite in VARIANTS.items():
                typed = rewrite(row["answer"], q) if rewrite.__code__.co_argcount == 2 else rewrite(row["answer"])
                if typed == row["answer"]:
                    continue
                other = grader.grade(q, typed)
                diff = [(c.id, states[c.id], c.state) for c in other.checkpoints if c.state != states[c.id]]
                changed[variant] += len(diff)
                flags[variant] += sorted(m.id for m in other.misconceptions) != wrong
                if verbose and (diff or sorted(m.id for m in other.misconceptions) != wrong):
                    print(f"  {variant}: {name} {row['id']} {diff} {wrong} -> {sorted(m.id for m in other.misconceptions)}")
    print(f"{answers} labelled answers, {decisions} checkpoint decisions; changed by how the answer is typed:")
    for variant in VARIANTS:
        print(f"  {variant:28s} decisions {changed[variant]:3d}   answers with other wrong-claim flags {flags[variant]:2d}")


if __name__ == "__main__":
    main()
