"""HTML pages. Each handler parses input, calls one service, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import RedirectResponse
from starlette.concurrency import run_in_threadpool

from app.deps import BankDep, CurrentUser, QueueDep, SessionDep, SettingsDep
from app.errors import AnswerRejected
from app.feedback import build_feedback
from app.grading.service import (
    create_attempt,
    get_attempt,
    list_attempts,
    mark_for_regrade,
    question_or_404,
)
from app.models import AttemptCreate, AttemptStatus
from app.questions import filter_questions, question_stats
from app.web import is_htmx, render

router = APIRouter(include_in_schema=False)


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
    return render(request, "pages/practice.html", {"question": question, "recent": recent, "answer": "", "error": None})


@router.post("/questions/{question_id}/attempts", name="submit_answer")
async def submit_answer(
    request: Request,
    question_id: str,
    bank: BankDep,
    session: SessionDep,
    settings: SettingsDep,
    queue: QueueDep,
    user: CurrentUser,
    answer: Annotated[str, Form()] = "",
    duration_seconds: Annotated[float | None, Form(ge=0, le=86_400)] = None,
):
    question = question_or_404(bank, question_id)
    data = AttemptCreate(question_id=question_id, answer=answer, duration_seconds=duration_seconds)
    try:
        attempt = create_attempt(session, bank=bank, user=user, data=data, grader=settings.grader, max_chars=settings.max_answer_chars)
    except AnswerRejected as err:
        # Give the text back: the form is re-rendered with it (and htmx leaves the textarea alone).
        ctx = {"question": question, "recent": [], "answer": answer, "error": err.message, "title": err.title}
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
    attempt = mark_for_regrade(session, get_attempt(session, attempt_id, user=user), grader=settings.grader)
    await run_in_threadpool(queue.submit_and_wait, attempt.id, settings.grading_wait_seconds)
    if not is_htmx(request):
        return RedirectResponse(request.url_for("attempt", attempt_id=attempt.id), status_code=303)
    return _feedback_fragment(request, session, bank, attempt)


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


def _feedback_fragment(request, session, bank, attempt, *, page: str = "pages/attempt.html", headers=None):
    session.refresh(attempt)
    question = bank.get(attempt.question_id)
    feedback = build_feedback(attempt, question) if question else None
    working = attempt.status in (AttemptStatus.pending, AttemptStatus.grading)
    ctx = {"attempt": attempt, "question": question, "feedback": feedback, "working": working}
    return render(request, page, ctx, partial="partials/_feedback.html", headers=headers)
