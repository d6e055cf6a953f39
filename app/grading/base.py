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


class Disagreement(BaseModel):
    """Where the hybrid grader's two graders differ, and what it decided (see app/grading/hybrid.py)."""

    kind: Literal["checkpoint", "misconception"] = "checkpoint"
    id: str
    offline: str
    llm: str
    decided: str
    reason: str


class FollowUpSuggestion(BaseModel):
    """The interviewer's next question, aimed at the weakest checkpoint."""

    text: str
    checkpoint_id: str | None = None
    source: Literal["authored", "llm"] = "authored"


class GradeResult(BaseModel):
    grader: str
    score: int = Field(ge=0, le=100)
    checkpoints: list[CheckpointResult]
    misconceptions: list[MisconceptionResult] = []
    notes: list[str] = []
    # Set when an LLM grade was asked for and the offline grade stands in (grader "offline-fallback").
    fallback_reason: str | None = None
    disagreements: list[Disagreement] = []
    follow_up: FollowUpSuggestion | None = None

    def states(self) -> dict[str, str]:
        return {c.id: c.state for c in self.checkpoints}


class GradingUnavailable(RuntimeError):
    """The grader cannot grade right now (endpoint down, model missing); the attempt is kept."""


class Grader(Protocol):
    name: str

    def grade(self, question: Question, answer: str) -> GradeResult: ...
