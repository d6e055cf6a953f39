"""SQLModel tables and their API shapes, layered Base -> Create -> table -> Public.

Questions are not stored: they live in ``content/``. An attempt stores the question's id and
content version, so editing the bank needs no migration.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from enum import Enum
from typing import Any

from pydantic import field_validator
from sqlalchemy import JSON, Column, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

LOCAL_USERNAME = "local"


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def seconds_since(moment: datetime) -> float:
    """Seconds from ``moment`` to now; SQLite hands datetimes back naive, in UTC."""
    return (utcnow() - (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc))).total_seconds()


def new_id() -> str:
    return uuid.uuid4().hex


class AttemptStatus(str, Enum):
    pending = "pending"
    grading = "grading"
    graded = "graded"
    failed = "failed"


class User(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    username: str = Field(index=True, unique=True, max_length=64)
    display_name: str = Field(default="", max_length=120)
    created_at: datetime = Field(default_factory=utcnow)


class AttemptBase(SQLModel):
    question_id: str = Field(index=True, max_length=120)
    answer: str = Field(sa_column=Column(Text, nullable=False))
    duration_seconds: float | None = Field(default=None, ge=0, le=86_400)
    source: str = Field(default="typed", max_length=16)


class AttemptCreate(AttemptBase):
    """What a client sends to create an attempt."""

    recording_id: str | None = Field(default=None, max_length=32, description="A transcribed recording this answer came from.")

    @field_validator("source")
    @classmethod
    def _known_source(cls, value: str) -> str:
        if value not in ("typed", "spoken"):
            raise ValueError("source must be 'typed' or 'spoken'")
        return value


class Attempt(AttemptBase, table=True):
    id: str = Field(default_factory=new_id, primary_key=True, max_length=32)
    user_id: int = Field(foreign_key="user.id", index=True)
    question_version: str = Field(default="", max_length=64)
    status: AttemptStatus = Field(default=AttemptStatus.pending, index=True)
    grader: str = Field(default="offline", max_length=32)
    score: int | None = Field(default=None)
    result: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON))
    error: str | None = Field(default=None, sa_column=Column(Text))
    grade_runs: int = Field(default=0)
    created_at: datetime = Field(default_factory=utcnow, index=True)
    claimed_at: datetime | None = None
    graded_at: datetime | None = None


class AttemptPublic(AttemptBase):
    id: str
    status: AttemptStatus
    grader: str
    score: int | None
    result: dict[str, Any] | None
    error: str | None
    question_version: str
    created_at: datetime
    graded_at: datetime | None


class FollowUpTurn(SQLModel, table=True):
    """One question of the interviewer's follow-up thread on an attempt, and the user's answer.

    status: asked (waiting for the answer) -> answered (the interviewer is writing its reply)
    -> replied (reply_text set, and the next turn added unless the thread is over).
    """

    __table_args__ = (UniqueConstraint("attempt_id", "position", name="uq_followupturn_attempt_position"),)

    id: int | None = Field(default=None, primary_key=True)
    attempt_id: str = Field(foreign_key="attempt.id", index=True, max_length=32, ondelete="CASCADE")
    position: int = Field(default=0)
    question_text: str = Field(sa_column=Column(Text, nullable=False))
    checkpoint_id: str | None = Field(default=None, max_length=120)
    source: str = Field(default="authored", max_length=16)  # authored (question bank) or llm
    answer_text: str | None = Field(default=None, sa_column=Column(Text))
    reply_text: str | None = Field(default=None, sa_column=Column(Text))
    status: str = Field(default="asked", max_length=16)
    created_at: datetime = Field(default_factory=utcnow)
    answered_at: datetime | None = None


class FollowUpTurnPublic(SQLModel):
    position: int
    question_text: str
    checkpoint_id: str | None
    source: str
    answer_text: str | None
    reply_text: str | None
    status: str
    created_at: datetime
    answered_at: datetime | None


class Recording(SQLModel, table=True):
    """A spoken answer: the recognizer's transcript and word timing, and the audio unless it was
    deleted or ``keep_recordings`` is off. Linked to its attempt once the answer is submitted."""

    id: str = Field(default_factory=new_id, primary_key=True, max_length=32)
    user_id: int = Field(foreign_key="user.id", index=True)
    attempt_id: str | None = Field(default=None, foreign_key="attempt.id", index=True, max_length=32)
    question_id: str = Field(max_length=120)
    mime: str = Field(default="", max_length=100)
    audio: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    audio_size: int = Field(default=0)  # bytes of audio kept; 0 once deleted (so pages need not load the blob)
    transcript: str = Field(default="", sa_column=Column(Text, nullable=False))
    words: list[Any] | None = Field(default=None, sa_column=Column(JSON))  # [[word, start, end], ...] in seconds
    duration_seconds: float = Field(default=0.0)
    language: str | None = Field(default=None, max_length=16)
    transcriber: str = Field(default="", max_length=64)
    created_at: datetime = Field(default_factory=utcnow, index=True)
