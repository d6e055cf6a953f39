"""Batch grading for `coach grade` (contract 2): one JSON object in, one out, in order."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from app.bank.loader import Bank
from app.grading.base import Grader, GradeResult
from app.scoring.text import replace_lone_surrogates


def result_line(line_id: Any, question_id: str, result: GradeResult) -> dict[str, Any]:
    return {
        "id": line_id,
        "question_id": question_id,
        "score": result.score,
        "checkpoints": {c.id: c.state for c in result.checkpoints},
        "misconceptions": [m.id for m in result.misconceptions],
        "evidence": {c.id: [[e.start, e.end] for e in c.evidence] for c in result.checkpoints if c.evidence},
        "grader": result.grader,
        **({"fallback_reason": result.fallback_reason} if result.fallback_reason else {}),
        **({"disagreements": [d.model_dump() for d in result.disagreements]} if result.disagreements else {}),
    }


def grade_lines(
    lines: Iterable[str | bytes], *, bank: Bank, grader: Grader, concurrency: int = 1, on_done: Callable[[], None] | None = None
) -> Iterator[dict[str, Any]]:
    """Yield one result (or error object) per non-blank input line, in input order.

    Up to ``concurrency`` lines are graded at once (an LLM grader spends its time waiting on the
    network); ``on_done`` is called as each line finishes, in whatever order, for a progress bar.
    """
    jobs = [(number, line) for number, line in enumerate(lines, start=1) if line.strip()]

    def run(job: tuple[int, str]) -> dict[str, Any]:
        try:
            return grade_line(*job, bank=bank, grader=grader)
        finally:
            if on_done is not None:
                on_done()

    if concurrency <= 1:
        yield from map(run, jobs)
        return
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="batch") as pool:
        yield from pool.map(run, jobs)  # map keeps input order


def require_answer_fields(obj: Any) -> None:
    """The contract-2 input fields of one line; ValueError saying which is wrong."""
    if not isinstance(obj, dict):
        raise ValueError("line is not a JSON object")
    for name in ("question_id", "answer"):
        if not isinstance(obj.get(name), str):
            raise ValueError(f"missing or non-string {name!r}")


def grade_line(number: int, line: str | bytes, *, bank: Bank, grader: Grader) -> dict[str, Any]:
    """Grade one input line (text, or raw bytes to decode as UTF-8); a line that cannot be
    graded gets an error object."""
    line_id: Any = None
    try:
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as err:
                return {"id": None, "line": number, "error": f"line {number} is not valid UTF-8 (byte 0x{line[err.start]:02x} at position {err.start})"}
        obj = json.loads(line)
        line_id = obj.get("id") if isinstance(obj, dict) else None
        require_answer_fields(obj)
        qid, answer = obj["question_id"], obj["answer"]
        question = bank.get(qid)
        if question is None:
            raise ValueError(f"unknown question_id {qid!r}")
        return result_line(line_id, qid, grader.grade(question, replace_lone_surrogates(answer)))
    except json.JSONDecodeError as err:
        return {"id": None, "line": number, "error": f"bad JSON on line {number}: {err.msg}"}
    except Exception as err:  # one bad line never stops the run
        return {"id": line_id, "line": number, "error": str(err) or type(err).__name__}
