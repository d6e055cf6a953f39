"""The grader interface and the result every grader returns (stored as JSON with the attempt)."""

from __future__ import annotations

from typing import Literal, Protocol

from pydantic import BaseModel, Field

from app.bank.schema import Question

State = Literal["covered", "partial", "missed"]


class EvidenceSpan(BaseModel):
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str


class CheckpointResult(BaseModel):
    id: str
    state: State
    evidence: list[EvidenceSpan] = []
    strength: float | None = None
    comment: str | None = None


class MisconceptionResult(BaseModel):
    id: str
    evidence: list[EvidenceSpan] = []
    comment: str | None = None


class GradeResult(BaseModel):
    grader: str
    score: int = Field(ge=0, le=100)
    checkpoints: list[CheckpointResult]
    misconceptions: list[MisconceptionResult] = []
    notes: list[str] = []

    def states(self) -> dict[str, str]:
        return {c.id: c.state for c in self.checkpoints}


class GradingUnavailable(RuntimeError):
    """The grader cannot grade right now (endpoint down, model missing); the attempt is kept."""


class Grader(Protocol):
    name: str

    def grade(self, question: Question, answer: str) -> GradeResult: ...
