"""Pydantic models for the files in ``content/``.

A question file needs only ``id``, ``title``, ``topic``, ``prompt`` and ``checkpoints``
(each with ``id`` and ``text``); every other field is optional and only makes grading or
feedback richer. Unknown keys are rejected so that a typo (``checkpionts``) is reported
instead of silently ignored.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

# Ids appear in URLs, JSONL output and the database: keep them to a safe slug alphabet.
SLUG = r"^[a-z0-9][a-z0-9._-]{0,119}$"

Difficulty = Literal["warm-up", "core", "deep-dive"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Checkpoint(_Strict):
    """One point a good answer makes."""

    id: str = Field(pattern=SLUG, description="Stable id, unique within the question.")
    text: str = Field(min_length=3, description="The point, stated in plain language.")
    weight: float = Field(default=1.0, gt=0, le=10, description="Relative importance in the score.")
    aliases: tuple[str, ...] = Field(
        default=(), description="Short phrases or terms that name this point's key idea."
    )
    examples: tuple[str, ...] = Field(
        default=(), description="Example sentences from answers that cover the point."
    )
    why: str | None = Field(default=None, description="Why an interviewer wants to hear this.")
    tip: str | None = Field(default=None, description="What to say next time when it is missed.")


class Misconception(_Strict):
    """A wrong claim worth flagging when an answer makes it."""

    id: str = Field(pattern=SLUG)
    text: str = Field(min_length=3, description="The wrong claim, stated as a claim.")
    correction: str | None = Field(default=None, description="What is actually true.")
    examples: tuple[str, ...] = Field(default=(), description="Sentences that make the claim.")


class FollowUp(_Strict):
    """A question an interviewer pushes with next."""

    text: str = Field(min_length=3)
    question_id: str | None = Field(default=None, pattern=SLUG, description="A bank question that drills it.")
    checkpoint_id: str | None = Field(
        default=None, pattern=SLUG, description="The checkpoint it probes; picked when that one is weak."
    )


class Question(_Strict):
    """One interview question with its rubric."""

    id: str = Field(pattern=SLUG)
    title: str = Field(min_length=3, max_length=200)
    topic: str = Field(pattern=SLUG)
    prompt: str = Field(min_length=3)
    checkpoints: tuple[Checkpoint, ...] = Field(min_length=1)
    misconceptions: tuple[Misconception, ...] = ()
    difficulty: Difficulty = "core"
    tags: tuple[str, ...] = ()
    time_limit_seconds: int | None = Field(
        default=None, ge=15, le=3600, description="Suggested answer time for the countdown."
    )
    model_answer: str | None = None
    follow_ups: tuple[FollowUp, ...] = ()

    @field_validator("follow_ups", mode="before")
    @classmethod
    def _plain_follow_ups(cls, value: object) -> object:
        # Authors may write follow-ups as plain strings.
        if isinstance(value, list):
            return [{"text": v} if isinstance(v, str) else v for v in value]
        return value

    @model_validator(mode="after")
    def _unique_ids(self) -> "Question":
        for kind, items in (("checkpoints", self.checkpoints), ("misconceptions", self.misconceptions)):
            seen: set[str] = set()
            for item in items:
                if item.id in seen:
                    raise ValueError(f"duplicate {kind} id {item.id!r}")
                seen.add(item.id)
        ids = {c.id for c in self.checkpoints}
        for f in self.follow_ups:
            if f.checkpoint_id and f.checkpoint_id not in ids:
                raise ValueError(f"follow-up names unknown checkpoint {f.checkpoint_id!r}")
        return self


class GlossaryTerm(_Strict):
    """A domain term and the ways people say, abbreviate or mis-transcribe it."""

    term: str = Field(min_length=1, description="Canonical spelling used in grading and display.")
    variants: tuple[str, ...] = Field(default=(), description="Other spellings, expansions, ASR errors.")
    short_forms: tuple[str, ...] = Field(
        default=(),
        description="A word that, on its own, names the term as the subject of a claim ('pipeline' for pipeline "
        "parallelism). Used to tell what a claim is about, never to credit the term.",
    )
    meaning: str | None = None


class Glossary(_Strict):
    terms: tuple[GlossaryTerm, ...] = ()
