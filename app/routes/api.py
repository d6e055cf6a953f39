"""The JSON API beside the pages (OpenAPI docs at /docs)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from app.bank.schema import Question
from app.deps import BankDep, CurrentUser, QueueDep, SessionDep, SettingsDep
from app.grading.service import create_attempt, get_attempt, list_attempts, mark_for_regrade, question_or_404
from app.models import AttemptCreate, AttemptPublic, FollowUpTurnPublic
from app.thread import answer_turn, list_thread

router = APIRouter(prefix="/api", tags=["api"])


class QuestionSummary(BaseModel):
    id: str
    title: str
    topic: str
    difficulty: str
    tags: tuple[str, ...]
    checkpoints: int


class AttemptPage(BaseModel):
    items: list[AttemptPublic]
    total: int


class AttemptIn(AttemptCreate):
    wait: bool = True  # wait briefly for the grade before answering (201 either way)


@router.get("/questions", response_model=list[QuestionSummary])
def api_questions(bank: BankDep, topic: str | None = None) -> Any:
    return [
        QuestionSummary(id=q.id, title=q.title, topic=q.topic, difficulty=q.difficulty, tags=q.tags, checkpoints=len(q.checkpoints))
        for q in bank.questions
        if not topic or topic == q.topic  # '?topic=' is no filter, as on the home page
    ]


@router.get("/questions/{question_id}", response_model=Question)
def api_question(question_id: str, bank: BankDep) -> Any:
    return question_or_404(bank, question_id)


@router.post("/attempts", response_model=AttemptPublic, status_code=201)
async def api_create_attempt(body: AttemptIn, bank: BankDep, session: SessionDep, settings: SettingsDep, queue: QueueDep, user: CurrentUser) -> Any:
    attempt = create_attempt(session, bank=bank, user=user, data=body, grader=settings.grader, max_chars=settings.max_answer_chars)
    if body.wait:
        await run_in_threadpool(queue.submit_and_wait, attempt.id, settings.grading_wait_seconds)
    else:
        queue.submit(attempt.id)
    session.refresh(attempt)
    return attempt


@router.get("/attempts", response_model=AttemptPage)
def api_attempts(
    session: SessionDep,
    user: CurrentUser,
    question_id: str | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> Any:
    items, total = list_attempts(session, user=user, question_id=question_id, limit=limit, offset=offset)
    return AttemptPage(items=items, total=total)


@router.get("/attempts/{attempt_id}", response_model=AttemptPublic)
def api_attempt(attempt_id: str, session: SessionDep, user: CurrentUser) -> Any:
    return get_attempt(session, attempt_id, user=user)


@router.post("/attempts/{attempt_id}/regrade", response_model=AttemptPublic)
async def api_regrade(attempt_id: str, session: SessionDep, settings: SettingsDep, queue: QueueDep, user: CurrentUser) -> Any:
    attempt = mark_for_regrade(session, get_attempt(session, attempt_id, user=user), grader=settings.grader,
                               stale_seconds=settings.stale_grading_seconds)
    await run_in_threadpool(queue.submit_and_wait, attempt.id, settings.grading_wait_seconds)
    session.refresh(attempt)
    return attempt


class FollowUpAnswerIn(BaseModel):
    answer: str
    wait: bool = True  # wait briefly for the interviewer's reply before answering


@router.get("/attempts/{attempt_id}/thread", response_model=list[FollowUpTurnPublic])
def api_thread(attempt_id: str, session: SessionDep, user: CurrentUser) -> Any:
    """The follow-up thread: the interviewer's questions, your answers and its replies."""
    return list_thread(session, get_attempt(session, attempt_id, user=user).id)


@router.post("/attempts/{attempt_id}/thread/{position}", response_model=list[FollowUpTurnPublic])
async def api_answer_follow_up(attempt_id: str, position: Annotated[int, Path(ge=0, le=100)], body: FollowUpAnswerIn, session: SessionDep, settings: SettingsDep,
                               queue: QueueDep, user: CurrentUser) -> Any:
    attempt = get_attempt(session, attempt_id, user=user)
    answer_turn(session, attempt, position, body.answer, max_chars=settings.max_answer_chars)
    await run_in_threadpool(queue.submit_reply, attempt.id, position, wait=settings.grading_wait_seconds if body.wait else 0.0)
    return list_thread(session, attempt.id)
