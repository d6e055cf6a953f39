"""Attempts and their grading: save first, grade after, never lose an answer.

The database is the source of truth for an attempt's status (pending -> grading ->
graded | failed). Grading runs on a small thread pool; a claim is an atomic UPDATE, so
several app processes can share one database. An attempt left 'grading' by a crashed
process is re-queued once its claim is older than ``stale_grading_seconds``: at start-up, and by
a sweeper thread every little while (the page offers *Grade again* for it too).
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor, TimeoutError as FutureTimeout
from datetime import timedelta

from sqlalchemy import or_, update
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, func, select

from app.bank.loader import Bank
from app.bank.schema import Question
from app.errors import AnswerRejected, AttemptNotFound, QuestionNotFound
from app.grading.base import Grader
from app.grading.interviewer import AuthoredInterviewer, Interviewer
from app.models import LOCAL_USERNAME, Attempt, AttemptCreate, AttemptStatus, User, seconds_since, utcnow
from app.scoring.text import replace_lone_surrogates
from app.thread import answered_positions, reply_to_turn, stale_answered_turns, start_thread
from app.voice.service import claim_recording

log = logging.getLogger(__name__)


def get_local_user(session: Session) -> User:
    """The one user of personal mode; created on first use."""
    user = session.exec(select(User).where(User.username == LOCAL_USERNAME)).first()
    if user is None:
        user = User(username=LOCAL_USERNAME, display_name="You")
        session.add(user)
        try:
            session.commit()
        except Exception:  # another process created it first
            session.rollback()
            user = session.exec(select(User).where(User.username == LOCAL_USERNAME)).one()
    return user


def validate_answer(answer: str, *, max_chars: int) -> str:
    text = replace_lone_surrogates((answer or "").replace("\r\n", "\n").replace("\x00", "")).strip()
    if not text:
        raise AnswerRejected("The answer is empty. Write (or say) something first.", answer=answer or "")
    if len(text) > max_chars:
        raise AnswerRejected(
            f"The answer is {len(text):,} characters; the limit is {max_chars:,}. "
            "Shorten it (your text is still in the box) and submit again.",
            status=413,
            answer=answer,
        )
    return text


def create_attempt(session: Session, *, bank: Bank, user: User, data: AttemptCreate, grader: str, max_chars: int) -> Attempt:
    """Validate and store a new attempt with status pending."""
    if bank.get(data.question_id) is None:
        raise QuestionNotFound(f"There is no question with id {data.question_id!r}.")
    answer = validate_answer(data.answer, max_chars=max_chars)
    recording = claim_recording(session, data.recording_id, user=user, question_id=data.question_id) if data.recording_id else None
    attempt = Attempt(
        question_id=data.question_id,
        question_version=bank.version(data.question_id),
        answer=answer,
        duration_seconds=recording.duration_seconds if recording else data.duration_seconds,
        source="spoken" if recording else data.source,
        user_id=user.id,
        grader=grader,
    )
    session.add(attempt)
    if recording is not None:
        recording.attempt_id = attempt.id
        session.add(recording)
    session.commit()
    session.refresh(attempt)
    return attempt


def get_attempt(session: Session, attempt_id: str, *, user: User) -> Attempt:
    attempt = session.get(Attempt, attempt_id) if len(attempt_id) <= 32 else None
    if attempt is None or attempt.user_id != user.id:
        raise AttemptNotFound(f"No attempt {attempt_id!r}.")
    return attempt


def list_attempts(session: Session, *, user: User, question_id: str | None = None, limit: int = 50, offset: int = 0) -> tuple[list[Attempt], int]:
    query = select(Attempt).where(Attempt.user_id == user.id)
    if question_id:
        query = query.where(Attempt.question_id == question_id)
    total = session.exec(select(func.count()).select_from(query.subquery())).one()
    rows = session.exec(query.order_by(col(Attempt.created_at).desc()).offset(offset).limit(limit)).all()
    return list(rows), total


def grading_stalled(attempt: Attempt, stale_seconds: float) -> bool:
    """Whether the attempt was claimed for grading longer ago than the stale limit: the process
    grading it has most likely stopped (the sweeper re-queues it; the page offers to grade again)."""
    return attempt.status == AttemptStatus.grading and attempt.claimed_at is not None and seconds_since(attempt.claimed_at) > stale_seconds


def mark_for_regrade(session: Session, attempt: Attempt, *, grader: str, stale_seconds: float) -> Attempt:
    """Put a graded or failed attempt (or one whose grading stalled) back in the queue."""
    if attempt.status == AttemptStatus.pending:
        return attempt
    if attempt.status == AttemptStatus.grading and not grading_stalled(attempt, stale_seconds):
        return attempt  # being graded right now
    attempt.status = AttemptStatus.pending
    attempt.grader = grader
    attempt.error = None
    session.add(attempt)
    session.commit()
    session.refresh(attempt)
    return attempt


class GradingQueue:
    """Grades attempts off the request path, on a bounded thread pool."""

    def __init__(self, engine: Engine, bank: Bank, grader: Grader, *, workers: int = 2, stale_seconds: int = 300,
                 interviewer: Interviewer | None = None):
        self.engine, self.bank, self.grader = engine, bank, grader
        self.interviewer = interviewer or AuthoredInterviewer()
        self.stale = timedelta(seconds=stale_seconds)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="grader")
        self._stop = threading.Event()
        self._sweeper: threading.Thread | None = None

    def start_sweeper(self, interval: float | None = None) -> None:
        """Re-queue, every little while, attempts whose grading stalled (a process that claimed
        them was killed) and pending ones nobody took; every process may run one, claims are atomic."""
        every = interval if interval is not None else max(5.0, min(60.0, self.stale.total_seconds() / 2))

        def loop() -> None:
            while not self._stop.wait(every):
                try:
                    self.requeue_unfinished()
                except Exception:  # the database may be away for a moment; try again next round
                    log.exception("re-queueing unfinished attempts failed")

        self._sweeper = threading.Thread(target=loop, name="grading-sweeper", daemon=True)
        self._sweeper.start()

    def submit(self, attempt_id: str) -> Future:
        return self._pool.submit(self.run, attempt_id)

    def submit_and_wait(self, attempt_id: str, seconds: float) -> None:
        """Queue the attempt and wait a moment, so a fast grade is shown without polling."""
        future = self.submit(attempt_id)
        try:
            future.result(timeout=seconds)
        except FutureTimeout:
            pass

    def _claim(self, attempt_id: str) -> bool:
        now = utcnow()
        with self.engine.begin() as conn:
            res = conn.execute(
                update(Attempt)
                .where(Attempt.id == attempt_id)
                .where(
                    or_(
                        Attempt.status == AttemptStatus.pending,
                        (Attempt.status == AttemptStatus.grading) & (Attempt.claimed_at < now - self.stale),
                    )
                )
                .values(status=AttemptStatus.grading, claimed_at=now, grade_runs=Attempt.grade_runs + 1)
            )
            return res.rowcount == 1

    def run(self, attempt_id: str) -> None:
        if not self._claim(attempt_id):
            return  # graded already, or another worker has it
        with Session(self.engine, expire_on_commit=False) as session:
            attempt = session.get(Attempt, attempt_id)
            question = self.bank.get(attempt.question_id)
            try:
                if question is None:
                    raise QuestionNotFound(f"question {attempt.question_id!r} is no longer in the bank")
                result = self.grader.grade(question, attempt.answer)
            except Exception as err:  # a failing grader never eats an attempt
                log.exception("grading attempt %s failed", attempt_id)
                attempt.status = AttemptStatus.failed
                attempt.error = f"{type(err).__name__}: {err}"[:2000]
                attempt.score, attempt.result = None, None  # no stale grade next to 'failed'
                attempt.graded_at = None
            else:
                attempt.status = AttemptStatus.graded
                attempt.result = result.model_dump(mode="json")
                attempt.score = result.score
                attempt.grader = result.grader
                attempt.error = None
                attempt.graded_at = utcnow()
            session.add(attempt)
            try:
                if attempt.status == AttemptStatus.graded:
                    start_thread(session, attempt, question, result)  # the interviewer's follow-up, same transaction
                session.commit()
            except Exception as err:  # storing the grade failed: say so rather than stay 'grading'
                session.rollback()
                log.exception("storing the grade of attempt %s failed", attempt_id)
                self._mark_failed(attempt_id, f"could not store the grade: {type(err).__name__}")
                return
            waiting = answered_positions(session, attempt_id)
        # Follow-ups answered while this grade was being made wait for it; reply to them now.
        for position in waiting:
            self.submit_reply(attempt_id, position)

    def _mark_failed(self, attempt_id: str, message: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(Attempt)
                .where(Attempt.id == attempt_id)
                .values(status=AttemptStatus.failed, error=message[:2000], score=None, result=None)
            )

    def submit_reply(self, attempt_id: str, position: int, *, wait: float = 0.0) -> None:
        """Queue the interviewer's reply to an answered follow-up; wait a moment for a quick one."""
        future = self._pool.submit(reply_to_turn, self.engine, self.bank, self.interviewer, attempt_id, position)
        try:
            future.result(timeout=wait)
        except FutureTimeout:
            pass

    def requeue_unfinished(self) -> int:
        """Queue attempts left pending, or stuck grading, by a process that stopped."""
        cutoff = utcnow() - self.stale
        with Session(self.engine) as session:
            ids = session.exec(
                select(Attempt.id).where(
                    or_(
                        Attempt.status == AttemptStatus.pending,
                        (Attempt.status == AttemptStatus.grading) & (Attempt.claimed_at < cutoff),
                    )
                )
            ).all()
            turns = stale_answered_turns(session, older_than=cutoff)
        for attempt_id in ids:
            self.submit(attempt_id)
        for attempt_id, position in turns:
            self.submit_reply(attempt_id, position)
        return len(ids) + len(turns)

    def warm_up(self) -> None:
        """Prepare the grader's per-question data in the background (first grades get fast)."""
        warm = getattr(self.grader, "warm_up", None)
        if warm is not None:
            self._pool.submit(warm, self.bank.questions)

    def shutdown(self) -> None:
        self._stop.set()
        if self._sweeper is not None:
            self._sweeper.join(timeout=5)
        self._pool.shutdown(wait=True, cancel_futures=False)


def question_or_404(bank: Bank, question_id: str) -> Question:
    question = bank.get(question_id)
    if question is None:
        raise QuestionNotFound(f"There is no question with id {question_id!r}.")
    return question
