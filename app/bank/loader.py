"""Load and validate the question bank from a folder of YAML / Markdown files.

Layout: any ``*.yaml``/``*.yml`` file below the folder is one question, except files named
``glossary.yaml``/``glossary.yml``, which extend the shared glossary. A ``*.md`` file is one
question written as YAML front matter (between ``---`` lines) with an optional Markdown body,
which becomes the model answer when the front matter has none. ``README.md`` files are skipped.
The shipped glossary always applies, so questions loaded from another folder still
understand the domain's terms.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import ValidationError

from app.bank.schema import Glossary, GlossaryTerm, Question
from app.config import ROOT

SHIPPED_GLOSSARY = ROOT / "content" / "glossary.yaml"
GLOSSARY_NAMES = {"glossary.yaml", "glossary.yml"}
MAX_FILE_BYTES = 512 * 1024  # a question file larger than this is a mistake, not content


@dataclass(frozen=True)
class BankIssue:
    """One problem in one file: where, which field, what is wrong."""

    file: str
    field: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.field}" if self.field else self.file
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class LoadedQuestion:
    question: Question
    path: str
    version: str


@dataclass
class Bank:
    """The questions that loaded, the glossary, and the issues of the files that did not."""

    root: Path
    entries: dict[str, LoadedQuestion] = field(default_factory=dict)
    glossary: tuple[GlossaryTerm, ...] = ()
    issues: list[BankIssue] = field(default_factory=list)

    @property
    def questions(self) -> list[Question]:
        return [e.question for e in self.entries.values()]

    def get(self, question_id: str) -> Question | None:
        entry = self.entries.get(question_id)
        return entry.question if entry else None

    def version(self, question_id: str) -> str:
        return self.entries[question_id].version

    def topics(self) -> dict[str, list[Question]]:
        out: dict[str, list[Question]] = {}
        for q in sorted(self.questions, key=lambda q: (q.topic, _difficulty_rank(q), q.title)):
            out.setdefault(q.topic, []).append(q)
        return out


def _difficulty_rank(q: Question) -> int:
    return {"warm-up": 0, "core": 1, "deep-dive": 2}[q.difficulty]


def _field_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _issues_from_validation(file: str, err: ValidationError) -> list[BankIssue]:
    return [
        BankIssue(file, _field_path(e["loc"]) or "(file)", e["msg"].removeprefix("Value error, "))
        for e in err.errors()
    ]


def _read_document(path: Path) -> tuple[object, str]:
    """Return the parsed YAML data of a file and its raw text."""
    raw = path.read_bytes()
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(f"file is larger than {MAX_FILE_BYTES // 1024} KiB")
    text = raw.decode("utf-8")
    if path.suffix == ".md":
        if not text.startswith("---"):
            raise ValueError("a Markdown question must start with YAML front matter between '---' lines")
        parts = text.split("\n---", 1)
        if len(parts) != 2:
            raise ValueError("front matter is not closed by a '---' line")
        data = yaml.safe_load(parts[0].lstrip("-").strip() or "{}")
        body = parts[1].split("\n", 1)[1].strip() if "\n" in parts[1] else ""
        if isinstance(data, dict) and body and "model_answer" not in data:
            data["model_answer"] = body
        return data, text
    return yaml.safe_load(text), text


def _load_glossary(path: Path, rel: str, issues: list[BankIssue]) -> tuple[GlossaryTerm, ...]:
    try:
        data, _ = _read_document(path)
        return Glossary.model_validate(data or {}).terms
    except ValidationError as err:
        issues.extend(_issues_from_validation(rel, err))
    except (yaml.YAMLError, ValueError, UnicodeDecodeError) as err:
        issues.append(BankIssue(rel, "", _describe(err)))
    return ()


def _describe(err: Exception) -> str:
    if isinstance(err, yaml.MarkedYAMLError) and err.problem_mark is not None:
        return f"invalid YAML at line {err.problem_mark.line + 1}: {err.problem}"
    if isinstance(err, UnicodeDecodeError):
        return "file is not UTF-8 text"
    return str(err)


def load_bank(root: Path | str) -> Bank:
    """Load every question under ``root``; problems are collected, never raised.

    >>> bank = load_bank(ROOT / "content")
    >>> bank.get("allreduce-deep-dive").id
    'allreduce-deep-dive'
    """
    root = Path(root)
    bank = Bank(root=root)
    if not root.is_dir():
        bank.issues.append(BankIssue(str(root), "", "content folder does not exist"))
        return bank
    glossary: list[GlossaryTerm] = []
    if SHIPPED_GLOSSARY.is_file():
        glossary.extend(_load_glossary(SHIPPED_GLOSSARY, "glossary.yaml", bank.issues))
    seen_paths: dict[str, str] = {}
    files = sorted(p for p in root.rglob("*") if p.suffix in (".yaml", ".yml", ".md") and p.is_file())
    for path in files:
        rel = str(path.relative_to(root))
        if path.name in GLOSSARY_NAMES:
            if path.resolve() != SHIPPED_GLOSSARY.resolve():
                glossary.extend(_load_glossary(path, rel, bank.issues))
            continue
        # Hidden files and folders inside the bank are skipped; the folders above it do not count
        # ('../bank', '~/.config/coach/bank').
        if path.name.lower() == "readme.md" or any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        try:
            data, text = _read_document(path)
            question = Question.model_validate(data)
        except ValidationError as err:
            bank.issues.extend(_issues_from_validation(rel, err))
            continue
        except (yaml.YAMLError, ValueError, UnicodeDecodeError) as err:
            bank.issues.append(BankIssue(rel, "", _describe(err)))
            continue
        if question.id in seen_paths:
            bank.issues.append(BankIssue(rel, "id", f"duplicate question id {question.id!r}, also in {seen_paths[question.id]}"))
            continue
        seen_paths[question.id] = rel
        version = hashlib.sha256(text.encode()).hexdigest()[:12]
        bank.entries[question.id] = LoadedQuestion(question, rel, version)
    for entry in bank.entries.values():
        for f in entry.question.follow_ups:
            if f.question_id and f.question_id not in bank.entries:
                bank.issues.append(BankIssue(entry.path, "follow_ups", f"names unknown question {f.question_id!r}"))
    bank.glossary = tuple(glossary)
    return bank
