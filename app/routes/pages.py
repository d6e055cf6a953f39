"""HTML pages. Each handler parses input, calls one service, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, ValidationError
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool

from app.deps import BankDep, CurrentUser, QueueDep, SessionDep, SettingsDep
from app.errors import AnswerRejected
from app.feedback import build_feedback
from app.grading.service import (
    create_attempt,
    get_attempt,
    grading_stalled,
    list_attempts,
    mark_for_regrade,
    question_or_404,
)
from app.models import AttemptCreate, AttemptStatus, seconds_since
from app.questions import filter_questions, question_stats
from app.thread import answer_turn, list_thread
from app.voice.service import recording_of_attempt, recording_view
from app.web import is_htmx, render

router = APIRouter(include_in_schema=False)

# Forms may carry far more than the answer limit, so an over-long answer reaches the route and
# gets its own clear message (with the text given back) instead of a bare 400 from the parser.
MAX_FORM_BYTES = 8 * 1024 * 1024


class AnswerForm(BaseModel):
    answer: str = ""
    duration_seconds: float | None = Field(default=None, ge=0, le=86_400)
    recording_id: str = Field(default="", max_length=32)


async def read_answer_form(request: Request) -> AnswerForm:
    form = await request.form(max_part_size=MAX_FORM_BYTES, max_fields=8, max_files=0)
    values = {k: v for k, v in form.items() if isinstance(v, str) and (v or k == "answer")}
    try:
        return AnswerForm.model_validate(values)
    except ValidationError as err:
        raise RequestValidationError(err.errors()) from err


@router.get("/", name="home")
def home(request: Request, bank: BankDep, session: SessionDep, user: CurrentUser, q: str = "", topic: str = ""):
    groups = filter_questions(bank, q=q, topic=topic)
    stats = question_stats(session, user=user)
    ctx = {"groups": groups, "q": q, "topic": topic, "topics": sorted(bank.topics()), "stats": stats}
    return render(request, "pages/home.html", ctx, partial="partials/_question_list.html")


@router.get("/questions/{question_id}", name="practice")
def practice(request: Request, question_id: str, bank: BankDep, session: SessionDep, user: CurrentUser):
    question = question_or_404(bank, question_id)
    recent, _ = list_attempts(session, user=user, question_id=question_id, limit=5)
    ctx = {"question": question, "recent": recent, "answer": "", "error": None, "voice": request.app.state.voice}
    return render(request, "pages/practice.html", ctx)


@router.post("/questions/{question_id}/attempts", name="submit_answer")
async def submit_answer(
    request: Request,
    question_id: str,
    bank: BankDep,
    session: SessionDep,
    settings: SettingsDep,
    queue: QueueDep,
    user: CurrentUser,
    form: Annotated[AnswerForm, Depends(read_answer_form)],
):
    question = question_or_404(bank, question_id)
    answer = form.answer
    data = AttemptCreate(question_id=question_id, answer=answer, duration_seconds=form.duration_seconds, recording_id=form.recording_id or None)
    try:
        attempt = create_attempt(session, bank=bank, user=user, data=data, grader=settings.grader, max_chars=settings.max_answer_chars)
    except AnswerRejected as err:
        # Give the text back: the form is re-rendered with it (and htmx leaves the textarea alone).
        ctx = {"question": question, "recent": [], "answer": answer, "error": err.message, "title": err.title, "voice": request.app.state.voice}
        return render(request, "pages/practice.html", ctx, partial="partials/_error.html", status_code=err.status, headers={"HX-Reswap": "innerHTML"})
    await run_in_threadpool(queue.submit_and_wait, attempt.id, settings.grading_wait_seconds)
    if not is_htmx(request):
        return RedirectResponse(request.url_for("attempt", attempt_id=attempt.id), status_code=303)
    return _feedback_fragment(request, session, bank, attempt, headers={"HX-Trigger": "attempt-saved"})


@router.get("/attempts/{attempt_id}", name="attempt")
def attempt_page(request: Request, attempt_id: str, bank: BankDep, session: SessionDep, user: CurrentUser):
    attempt = get_attempt(session, attempt_id, user=user)
    return _feedback_fragment(request, session, bank, attempt, page="pages/attempt.html")


@router.post("/attempts/{attempt_id}/regrade", name="regrade")
async def regrade(request: Request, attempt_id: str, bank: BankDep, session: SessionDep, settings: SettingsDep, queue: QueueDep, user: CurrentUser):
    attempt = mark_for_regrade(session, get_attempt(session, attempt_id, user=user), grader=settings.grader,
                               stale_seconds=settings.stale_grading_seconds)
    await run_in_threadpool(queue.submit_and_wait, attempt.id, settings.grading_wait_seconds)
    if not is_htmx(request):
        return RedirectResponse(request.url_for("attempt", attempt_id=attempt.id), status_code=303)
    return _feedback_fragment(request, session, bank, attempt)


@router.get("/attempts/{attempt_id}/thread", name="thread")
def thread_page(request: Request, attempt_id: str, bank: BankDep, session: SessionDep, user: CurrentUser):
    attempt = get_attempt(session, attempt_id, user=user)
    return _feedback_fragment(request, session, bank, attempt, partial="partials/_thread.html")


@router.post("/attempts/{attempt_id}/thread/{position}", name="answer_follow_up")
async def answer_follow_up(
    request: Request, attempt_id: str, position: Annotated[int, Path(ge=0, le=100)], bank: BankDep, session: SessionDep, settings: SettingsDep,
    queue: QueueDep, user: CurrentUser, form: Annotated[AnswerForm, Depends(read_answer_form)],
):
    attempt = get_attempt(session, attempt_id, user=user)
    answer = form.answer
    try:
        answer_turn(session, attempt, position, answer, max_chars=settings.max_answer_chars)
    except AnswerRejected as err:
        return _feedback_fragment(request, session, bank, attempt, partial="partials/_thread.html", status_code=err.status,
                                  thread_error=err.message, thread_answer=answer)
    await run_in_threadpool(queue.submit_reply, attempt.id, position, wait=settings.grading_wait_seconds)
    if not is_htmx(request):
        return RedirectResponse(str(request.url_for("attempt", attempt_id=attempt.id)) + "#thread", status_code=303)
    return _feedback_fragment(request, session, bank, attempt, partial="partials/_thread.html")


@router.get("/history", name="history")
def history(request: Request, bank: BankDep, session: SessionDep, user: CurrentUser, question: str = "", page: Annotated[int, Query(ge=1, le=10_000)] = 1):
    per_page = 25
    attempts, total = list_attempts(session, user=user, question_id=question or None, limit=per_page, offset=(page - 1) * per_page)
    ctx = {"attempts": attempts, "total": total, "page": page, "pages": max(1, -(-total // per_page)), "question_filter": question, "bank": bank}
    return render(request, "pages/history.html", ctx, partial="partials/_history_rows.html")


@router.get("/healthz", name="health")
def health(session: SessionDep, bank: BankDep):
    session.connection()
    return {"status": "ok", "questions": len(bank.entries), "content_issues": len(bank.issues)}


def _feedback_fragment(request, session, bank, attempt, *, page: str = "pages/attempt.html", headers=None,
                       partial: str = "partials/_feedback.html", status_code: int = 200, **extra):
    session.refresh(attempt)
    question = bank.get(attempt.question_id)
    feedback = build_feedback(attempt, question) if question else None
    working = attempt.status in (AttemptStatus.pending, AttemptStatus.grading)
    ctx = {"attempt": attempt, "question": question, "feedback": feedback, "working": working}
    ctx["recording"] = recording_view(recording_of_attempt(session, attempt))
    ctx["thread"] = list_thread(session, attempt.id)
    ctx["grading_for"] = max(0, int(seconds_since(attempt.claimed_at))) if working and attempt.claimed_at else 0
    ctx["stalled"] = grading_stalled(attempt, request.app.state.settings.stale_grading_seconds)
    return render(request, page, {**ctx, **extra}, partial=partial, headers=headers, status_code=status_code)

