"""Batch grading for `coach grade` (contract 2): one JSON object in, one out, in order."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from app.bank.loader import Bank
from app.grading.base import Grader, GradeResult


def result_line(line_id: Any, question_id: str, result: GradeResult) -> dict[str, Any]:
    return {
        "id": line_id,
        "question_id": question_id,
        "score": result.score,
        "checkpoints": {c.id: c.state for c in result.checkpoints},
        "misconceptions": [m.id for m in result.misconceptions],
        "evidence": {c.id: [[e.start, e.end] for e in c.evidence] for c in result.checkpoints if c.evidence},
        "grader": result.grader,
    }


def grade_lines(lines: Iterable[str], *, bank: Bank, grader: Grader) -> Iterator[dict[str, Any]]:
    """Yield one result (or error object) per non-blank input line."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        line_id: Any = None
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("line is not a JSON object")
            line_id = obj.get("id")
            qid, answer = obj.get("question_id"), obj.get("answer")
            if not isinstance(qid, str):
                raise ValueError("missing or non-string 'question_id'")
            if not isinstance(answer, str):
                raise ValueError("missing or non-string 'answer'")
            question = bank.get(qid)
            if question is None:
                raise ValueError(f"unknown question_id {qid!r}")
            yield result_line(line_id, qid, grader.grade(question, answer))
        except json.JSONDecodeError as err:
            yield {"id": None, "line": number, "error": f"bad JSON on line {number}: {err.msg}"}
        except Exception as err:  # one bad line never stops the run
            yield {"id": line_id, "line": number, "error": str(err) or type(err).__name__}
