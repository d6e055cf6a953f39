"""The `coach` command line: batch grading as contract 2 says, and database upgrade."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, inspect
from typer.testing import CliRunner

from app.cli import app as cli
from tests.factories import write_question


def _run(args, **env):
    return CliRunner().invoke(cli, args, env=env or None)


def test_grade_contract(tmp_path: Path, bank):
    lines = [
        {"id": "a1", "question_id": "allreduce-deep-dive", "answer": "Every GPU contributes a tensor and the sum lands on every GPU.", "extra": 1},
        {"id": "a2", "question_id": "no-such-question", "answer": "x"},
        "this is not json",
        {"id": "a4", "question_id": "tensor-vs-pipeline-parallelism", "answer": ""},
        {"id": "a5", "question_id": "allreduce-deep-dive"},
    ]
    inp = tmp_path / "in.jsonl"
    inp.write_text("\n".join(l if isinstance(l, str) else json.dumps(l) for l in lines) + "\n\n")
    out = tmp_path / "out.jsonl"
    res = _run(["grade", "--input", str(inp), "--output", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(l) for l in out.read_text().splitlines()]
    assert [r.get("id") for r in rows] == ["a1", "a2", None, "a4", "a5"]
    first = rows[0]
    assert set(first["checkpoints"]) == {c.id for c in bank.get("allreduce-deep-dive").checkpoints}
    assert first["checkpoints"]["allreduce-semantics"] in ("covered", "partial")
    assert 0 <= first["score"] <= 100 and isinstance(first["misconceptions"], list)
    assert "unknown question_id" in rows[1]["error"]
    assert "bad JSON" in rows[2]["error"]
    assert rows[3]["score"] == 0 and set(rows[3]["checkpoints"].values()) == {"missed"}
    assert "answer" in rows[4]["error"]


def test_grade_with_content_folder(tmp_path: Path):
    write_question(tmp_path / "bank")
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": 1, "question_id": "data-parallel-gradient-sync",
                               "answer": "After the backward pass every replica all-reduces its gradients and averages them, so all replicas apply the same update."}) + "\n")
    out = tmp_path / "out.jsonl"
    res = _run(["grade", "--input", str(inp), "--output", str(out), "--content", str(tmp_path / "bank")])
    assert res.exit_code == 0, res.output
    row = json.loads(out.read_text())
    assert row["checkpoints"] == {"gradient-allreduce": "covered"} and row["misconceptions"] == []


def test_grade_fails_only_when_run_cannot_proceed(tmp_path: Path):
    res = _run(["grade", "--input", str(tmp_path / "missing.jsonl"), "--output", str(tmp_path / "o.jsonl")])
    assert res.exit_code == 2 and "cannot read" in res.output
    res = _run(["grade", "--input", "x", "--output", "y", "--content", str(tmp_path / "empty")])
    assert res.exit_code == 2 and "no questions" in res.output


def test_db_upgrade_creates_schema(tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'c.db'}"
    res = _run(["db", "upgrade"], DATABASE_URL=url)
    assert res.exit_code == 0, res.output
    assert {"attempt", "user", "alembic_version"} <= set(inspect(create_engine(url)).get_table_names())


def test_console_script_is_installed():
    out = subprocess.run([Path(sys.executable).parent / "coach", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for cmd in ("serve", "validate", "grade", "db", "eval"):
        assert cmd in out.stdout
