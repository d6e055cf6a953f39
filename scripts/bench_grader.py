"""Benchmark the default offline grader on this machine: start-up, memory, throughput and
latency for 100- and 500-word answers against a 12-checkpoint question, and the slowest of a
set of 20,000-character answers (the longest the app accepts) written to be hard to read.

    python scripts/bench_grader.py [--runs N]

Answers are built from the question's own model answer plus unrelated filler sentences, every
sentence unique (so no cache can help), then graded warm (after --warm unmeasured answers of the same size), one at a time.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FILLER = (
    "In my last project we measured {n} different configurations before deciding. "
    "The team reviewed result number {n} on a whiteboard and argued about it. "
    "We kept notes of experiment {n} in a shared document for later. "
    "Our cluster had a maintenance window on day {n} which delayed the runs. "
)


def make_answer(model_answer: str, words: int, n: int, rng: random.Random) -> str:
    sentences = [s.strip() + "." for s in model_answer.replace("\n", " ").split(". ") if s.strip()]
    rng.shuffle(sentences)
    out: list[str] = []
    i = 0
    while len(" ".join(out).split()) < words:
        if i % 2 == 0 and sentences:
            # A unique opener, so no sentence is ever in a cache: every answer is graded cold.
            sentence = sentences[i // 2 % len(sentences)]
            out.append(f"In setup {n * 1000 + i} {sentence[0].lower()}{sentence[1:]}")
        else:
            out.append(rng.choice(FILLER.split(". ")).format(n=n * 1000 + i).strip().rstrip(".") + ".")
        i += 1
    return " ".join(" ".join(out).split()[:words])


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--warm", type=int, default=10, help="unmeasured answers graded first at each size")
    args = ap.parse_args()
    t0 = time.perf_counter()
    from app.bank.loader import load_bank
    from app.grading.offline import OfflineGrader

    bank = load_bank(ROOT / "content")
    grader = OfflineGrader(bank.glossary)
    q = bank.get("train-vs-infer-optimization")
    grader.grade(q, "warm-up answer about quantization and pruning.")  # encodes the rubric once
    startup = time.perf_counter() - t0
    print(f"start-up (imports, bank, model load, first grade): {startup:.2f} s; peak RSS {rss_mb():.0f} MB")
    print(f"question: {q.id}, {len(q.checkpoints)} checkpoints, {len(q.misconceptions)} misconceptions")
    rng = random.Random(7)
    # Time spent in the MiniLM forward pass, to split each grade into encoding and reading.
    from app.grading.embedder import MiniLMEmbedder

    forward = MiniLMEmbedder._forward
    in_pass: list[float] = []

    def timed_forward(self, texts):
        t = time.perf_counter()
        try:
            return forward(self, texts)
        finally:
            in_pass.append(time.perf_counter() - t)

    MiniLMEmbedder._forward = timed_forward
    for words in (100, 500):
        for n in range(args.warm):  # warm: caches, allocator and CPU clocks settle (answers not reused)
            grader.grade(q, make_answer(q.model_answer, words, 100_000 + n + words, rng))
        times, encoding = [], []
        for n in range(args.runs):
            answer = make_answer(q.model_answer, words, n + words, rng)
            in_pass.clear()
            t = time.perf_counter()
            grader.grade(q, answer)
            times.append(time.perf_counter() - t)
            encoding.append(sum(in_pass))
        reading = sorted(t - e for t, e in zip(times, encoding))
        times.sort()
        p50 = statistics.median(times) * 1000
        p95 = times[max(0, int(round(0.95 * len(times))) - 1)] * 1000
        print(f"{words}-word answers: {len(times) / sum(times):.1f} answers/s, p50 {p50:.0f} ms, p95 {p95:.0f} ms ({args.runs} runs); "
              f"median MiniLM pass {statistics.median(encoding) * 1000:.0f} ms, reading {statistics.median(reading) * 1000:.0f} ms")
    MiniLMEmbedder._forward = forward
    # Throughput when several grading threads share the machine (the app's queue runs 2 by default).
    from concurrent.futures import ThreadPoolExecutor

    for threads in (2, 4):
        answers = [make_answer(q.model_answer, 100, 200_000 + threads * 1000 + n, rng) for n in range(args.runs * 2)]
        t = time.perf_counter()
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(lambda a: grader.grade(q, a), answers))
        elapsed = time.perf_counter() - t
        print(f"{threads} grading threads, 100-word answers: {len(answers) / elapsed:.1f} answers/s")
    print(f"peak RSS after the 100- and 500-word answers {rss_mb():.0f} MB")
    # The longest answer the app accepts (20,000 characters), written to be hard to read: one
    # real answer, then runs of negations, fillers, repairs and clause openers, and a negation
    # followed by one endless word (a pattern that may start inside a word is quadratic on it).
    worst = 0.0
    units = (q.model_answer + " ", "doesn't ", "can't ", "no ", "without ", "um ", "and not ", "that weren't ", "no wait ", "because ", "people say ")
    for answer in [(unit * (20_000 // len(unit) + 1))[:20_000] for unit in units] + [("Tensor parallelism does not " + "a" * 20_000)[:20_000]]:
        t = time.perf_counter()
        grader.grade(q, answer)
        worst = max(worst, time.perf_counter() - t)
    print(f"20,000-character answers (the model answer repeated; runs of negations, fillers, repairs; one endless word): slowest {worst:.2f} s, "
          f"peak RSS {rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
