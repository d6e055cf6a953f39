"""The question bank: shipped content, contract-1 minimal form, and clear errors for broken files."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from app.bank.loader import load_bank
from app.cli import app as cli
from tests.factories import MINIMAL_QUESTION, write_question

SEED = {
    "train-vs-infer-optimization": (
        {"goals-contrast", "quantization", "pruning", "distillation", "kernel-fusion", "memory-throughput",
         "tensor-cores-mixed-precision", "structured-sparsity", "nvidia-tools", "combine-and-order",
         "validate-and-profile", "balanced-tradeoffs"},
        {"fusion-reduces-flops", "unstructured-pruning-speeds-up", "int8-no-accuracy-cost", "distillation-shrinks-teacher"},
    ),
    "tensor-vs-pipeline-parallelism": (
        {"tp-definition", "pp-definition", "tp-collectives", "pp-point-to-point", "microbatches", "pipeline-bubble",
         "comm-tradeoff", "interconnect-placement", "mitigations", "transformer-example", "hybrid-frameworks"},
        {"pp-uses-allreduce", "tp-across-nodes", "pp-no-idle", "tp-splits-layers-into-stages"},
    ),
    "allreduce-deep-dive": (
        {"allreduce-semantics", "ring-algorithm", "bandwidth-cost", "where-in-tp", "nccl-interconnect", "overlap-and-alternatives"},
        {"allreduce-is-reduce-to-root", "naive-traffic"},
    ),
}


def test_shipped_bank_loads_without_issues(bank):
    assert not bank.issues
    assert len(bank.entries) >= 18


def test_seed_questions_have_exact_rubric_ids(bank):
    for qid, (checkpoints, misconceptions) in SEED.items():
        q = bank.get(qid)
        assert q is not None, qid
        assert {c.id for c in q.checkpoints} == checkpoints
        assert {m.id for m in q.misconceptions} == misconceptions


def test_seed_questions_carry_model_answer_and_feedback(bank):
    for qid in SEED:
        q = bank.get(qid)
        assert q.model_answer and len(q.model_answer.split()) > 100
        assert q.follow_ups
        for c in q.checkpoints:
            assert c.why and c.tip, (qid, c.id)
        for m in q.misconceptions:
            assert m.correction, (qid, m.id)


def test_drill_questions_cover_the_notes(bank):
    drills = [q for q in bank.questions if q.id not in SEED]
    assert len(drills) >= 15
    text = " ".join((q.title + " " + q.prompt).lower() for q in drills)
    for topic in ("quantiz", "prun", "2:4", "distill", "fusion", "layout", "batch", "tensor core", "tensorrt",
                  "cudnn", "dali", "nsight", "all-reduce", "bubble", "nvlink", "megatron", "deepspeed"):
        assert topic in text, topic


def test_glossary_maps_speech_variants(bank):
    variants = {v.lower() for t in bank.glossary for v in t.variants}
    for heard in ("all produce", "envy link", "infinity band", "mega tron"):
        assert heard in variants


def test_minimal_question_form_loads(tmp_path: Path):
    write_question(tmp_path)
    bank = load_bank(tmp_path)
    assert not bank.issues
    q = bank.get(MINIMAL_QUESTION["id"])
    assert q.checkpoints[0].weight == 1.0 and q.difficulty == "core"
    assert bank.glossary, "the shipped glossary applies to any folder"


def test_markdown_question_with_front_matter(tmp_path: Path):
    (tmp_path / "q.md").write_text(
        "---\nid: md-q\ntitle: A markdown question\ntopic: misc\nprompt: Why?\n"
        "checkpoints:\n  - id: because\n    text: Because it is so.\n---\nThe model answer in Markdown.\n"
    )
    bank = load_bank(tmp_path)
    assert not bank.issues
    assert bank.get("md-q").model_answer == "The model answer in Markdown."


def test_broken_files_name_file_field_and_problem(tmp_path: Path):
    bad = dict(MINIMAL_QUESTION, id="bad-one", checkpoints=[{"id": "x", "txt": "typo"}])
    write_question(tmp_path, bad, "bad-one.yaml")
    write_question(tmp_path, dict(MINIMAL_QUESTION, id="Not A Slug"), "bad-id.yaml")
    (tmp_path / "broken.yaml").write_text("id: [unclosed\n")
    write_question(tmp_path)
    bank = load_bank(tmp_path)
    assert MINIMAL_QUESTION["id"] in bank.entries, "good files still load"
    messages = [str(i) for i in bank.issues]
    assert any(m.startswith("bad-one.yaml: checkpoints[0].text: Field required") for m in messages), messages
    assert any(m.startswith("bad-one.yaml: checkpoints[0].txt: Extra inputs") for m in messages), messages
    assert any(m.startswith("bad-id.yaml: id: String should match pattern") for m in messages), messages
    assert any(m.startswith("broken.yaml: invalid YAML at line") for m in messages), messages


def test_duplicate_ids_and_empty_rubric_are_reported(tmp_path: Path):
    write_question(tmp_path, name="a.yaml")
    write_question(tmp_path, name="b.yaml")
    write_question(tmp_path, dict(MINIMAL_QUESTION, id="no-points", checkpoints=[]), "c.yaml")
    messages = [str(i) for i in load_bank(tmp_path).issues]
    assert any("duplicate question id" in m and m.startswith("b.yaml") for m in messages)
    assert any(m.startswith("c.yaml: checkpoints:") for m in messages)


def test_coach_validate_exit_codes(tmp_path: Path, bank):
    runner = CliRunner()
    ok = runner.invoke(cli, ["validate", str(bank.root)])
    assert ok.exit_code == 0 and "0 problems" in ok.output
    write_question(tmp_path, dict(MINIMAL_QUESTION, prompt=""), "q.yaml")
    bad = runner.invoke(cli, ["validate", str(tmp_path)])
    assert bad.exit_code == 1
    assert "q.yaml: prompt: String should have at least 3 characters" in bad.output
