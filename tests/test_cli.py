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
    head = res.output.split()[2].rstrip(":")
    res = _run(["db", "upgrade", "0001"], DATABASE_URL=url)  # upgrade never goes back, and says where it is
    assert res.exit_code == 0 and f"database at {head}" in res.output and "never goes back" in res.output


def test_console_script_is_installed():
    out = subprocess.run([Path(sys.executable).parent / "coach", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for cmd in ("serve", "validate", "grade", "db", "eval"):
        assert cmd in out.stdout


def test_grade_keeps_one_result_per_line_whatever_the_bytes(tmp_path: Path):
    ok = {"question_id": "allreduce-deep-dive", "answer": "Every GPU ends up with the sum of all tensors."}
    lines = [
        json.dumps({"id": 1, **ok, "answer": "the sum\u2028lands on every GPU"}, ensure_ascii=False).encode(),  # U+2028 inside JSON text
        json.dumps({"id": 2, **ok, "answer": "ring\u0085all-reduce"}, ensure_ascii=False).encode(),  # NEL inside JSON text
        b'{"id": 3, "question_id": "allreduce-deep-dive", "answer": "caf\xe9"}',  # not UTF-8
        json.dumps({"id": 4, **ok}).encode() + b"\r",  # CRLF line end
        b'{"id": "\\ud800", "question_id": "allreduce-deep-dive", "answer": "a \\ud800 b"}',  # lone surrogates
        json.dumps({"id": 6, "question_id": "nope", "answer": "x"}).encode(),
    ]
    inp = tmp_path / "in.jsonl"
    inp.write_bytes(b"\xef\xbb\xbf" + b"\n".join(lines) + b"\n")  # with a BOM, as Notepad saves
    out = tmp_path / "out.jsonl"
    res = _run(["grade", "--input", str(inp), "--output", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(l) for l in out.read_text(encoding="utf-8").split("\n") if l]
    assert [r.get("id") for r in rows] == [1, 2, None, 4, "\ud800", 6]
    assert all("score" in rows[i] for i in (0, 1, 3, 4))
    assert rows[2]["line"] == 3 and "not valid UTF-8" in rows[2]["error"]
    assert rows[5]["line"] == 6 and "unknown question_id" in rows[5]["error"]


def test_commands_are_not_refused_for_settings_they_do_not_use(tmp_path: Path):
    env = {"COACH_GRADER": "llm", "COACH_MODE": "group", "OPENAI_API_KEY": None, "COACH_OPENAI_BASE_URL": None, "COACH_SECRET_KEY": None}
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": 1, "question_id": "allreduce-deep-dive", "answer": "The sum lands on every GPU."}) + "\n")
    res = _run(["grade", "-i", str(inp), "-o", str(tmp_path / "out.jsonl"), "--grader", "offline"], **env)
    assert res.exit_code == 0, res.output
    res = _run(["validate"], **env)
    assert res.exit_code == 0 and "questions" in res.output, res.output
    res = _run(["grade", "-i", str(inp), "-o", str(tmp_path / "out.jsonl"), "--grader", "llm"], **env)
    assert res.exit_code == 2 and "need an endpoint" in res.output


def test_validate_loads_a_bank_below_dot_folders_and_refuses_an_empty_one(tmp_path: Path, monkeypatch):
    write_question(tmp_path / ".config" / "bank")
    res = _run(["validate", str(tmp_path / ".config" / "bank")])
    assert res.exit_code == 0 and res.output.startswith("1 questions"), res.output
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    res = _run(["validate", "../.config/bank"])
    assert res.exit_code == 0 and "1 questions" in res.output, res.output
    write_question(tmp_path / "bank" / ".drafts", name="draft.yaml")  # hidden inside the bank: skipped
    write_question(tmp_path / "bank")
    assert _run(["validate", str(tmp_path / "bank")]).output.startswith("1 questions")
    (tmp_path / "empty").mkdir()
    res = _run(["validate", str(tmp_path / "empty")])
    assert res.exit_code == 1 and "no question files" in res.output


def test_eval_reports_bad_input_clearly(tmp_path: Path):
    res = _run(["eval", str(tmp_path / "missing.jsonl")])
    assert res.exit_code == 2 and "cannot read" in res.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question_id": "allreduce-deep-dive", "answer": "x", "checkpoints": {}}\n{bad\n')
    res = _run(["eval", str(bad)])
    assert res.exit_code == 2 and f"{bad}:2: bad JSON" in res.output
    bad.write_text('{"question_id": "allreduce-deep-dive", "answer": "x"}\n')
    res = _run(["eval", str(bad)])
    assert res.exit_code == 2 and "'checkpoints' must map" in res.output
    bad.write_text('{"question_id": "allreduce-deep-dive", "answer": "x", "checkpoints": {}, "rating": 9}\n')
    assert "'rating' must be" in _run(["eval", str(bad)]).output
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"question_id": "nope", "answer": "x", "checkpoints": {}}\n')
    res = _run(["eval", str(unknown)])
    assert res.exit_code == 1 and "no answer could be graded" in res.output
