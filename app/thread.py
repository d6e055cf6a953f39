"""The follow-up thread kept with an attempt: the interviewer's questions, the user's answers
and the interviewer's replies (see app/grading/interviewer.py for who writes the questions).

A turn goes asked -> answered -> replied. Answering is an atomic UPDATE from 'asked', so a
double submit stores one answer. The reply is written off the request path, on the grading
pool; a reply job that died with its process is re-queued like an attempt. A turn answered while
its attempt is being regraded waits for the new grade.
"""

from __future__ import annotations

import logging

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from app.bank.loader import Bank
from app.bank.schema import Question
from app.errors import CoachError
from app.grading.base import GradeResult
from app.grading.interviewer import MAX_TURNS, Exchange, Interviewer, first_follow_up
from app.models import Attempt, AttemptStatus, FollowUpTurn, utcnow

log = logging.getLogger(__name__)

ASKED, ANSWERED, REPLIED = "asked", "answered", "replied"


class TurnNotOpen(CoachError):
    status = 409
    title = "Follow-up already answered"


def list_thread(session: Session, attempt_id: str) -> list[FollowUpTurn]:
    # populate_existing: the reply is written by a worker's session; show it, not our stale copy.
    query = select(FollowUpTurn).where(FollowUpTurn.attempt_id == attempt_id).order_by(col(FollowUpTurn.position))
    return list(session.exec(query.execution_options(populate_existing=True)).all())


def start_thread(session: Session, attempt: Attempt, question: Question, result: GradeResult) -> None:
    """Open the thread after a grade, in the grade's transaction (the caller commits). A regrade
    may bring a better first question, so a thread nobody has answered yet gets it; an answered
    thread is kept as it is."""
    with session.no_autoflush:  # everything is written at the caller's commit, in one go
        turns = list_thread(session, attempt.id)
    if any(t.status != ASKED for t in turns):
        return
    try:
        suggestion = first_follow_up(question, result)
    except Exception:  # never let the follow-up cost the grade it is stored with
        log.exception("choosing the follow-up for attempt %s failed", attempt.id)
        suggestion = None
    # Unanswered, the thread is its one opening question: rewrite that row rather than replace it.
    turn = turns[0] if turns else None
    if suggestion is None:
        if turn is not None:
            session.delete(turn)
        return
    turn = turn or FollowUpTurn(attempt_id=attempt.id, position=0, question_text="")
    turn.question_text, turn.checkpoint_id, turn.source, turn.created_at = suggestion.text, suggestion.checkpoint_id, suggestion.source, utcnow()
    session.add(turn)


def answer_turn(session: Session, attempt: Attempt, position: int, answer: str, *, max_chars: int) -> FollowUpTurn:
    """Store the answer to an open follow-up; the caller then queues the interviewer's reply."""
    from app.grading.service import validate_answer  # the service imports this module

    text = validate_answer(answer, max_chars=max_chars)
    result = session.exec(
        update(FollowUpTurn)
        .where(FollowUpTurn.attempt_id == attempt.id, FollowUpTurn.position == position, FollowUpTurn.status == ASKED)
        .values(answer_text=text, status=ANSWERED, answered_at=utcnow())
    )
    session.commit()
    if result.rowcount != 1:
        exists = session.exec(select(FollowUpTurn.id).where(FollowUpTurn.attempt_id == attempt.id, FollowUpTurn.position == position)).first()
        if exists is None:
            raise CoachError(f"Attempt {attempt.id} has no follow-up {position}.", status=404)
        raise TurnNotOpen("This follow-up has been answered already; your earlier answer is kept.")
    return session.exec(select(FollowUpTurn).where(FollowUpTurn.attempt_id == attempt.id, FollowUpTurn.position == position)).one()


def reply_to_turn(engine: Engine, bank: Bank, interviewer: Interviewer, attempt_id: str, position: int) -> None:
    """The interviewer's reaction to an answered turn, and the next question while the thread may go on."""
    with Session(engine, expire_on_commit=False) as session:
        turns = list_thread(session, attempt_id)
        turn = next((t for t in turns if t.position == position), None)
        attempt = session.get(Attempt, attempt_id)
        if turn is None or turn.status != ANSWERED or attempt is None:
            return
        if attempt.status in (AttemptStatus.pending, AttemptStatus.grading):
            return  # being regraded: the reply is queued again once the new grade is stored
        question = bank.get(attempt.question_id)
        push = None
        if question is not None and attempt.status == AttemptStatus.graded and attempt.result:
            thread = [Exchange(t.question_text, t.answer_text or "") for t in turns if t.position <= position]
            may_ask = position + 1 < MAX_TURNS
            try:
                push = interviewer.respond(question, answer=attempt.answer, result=GradeResult.model_validate(attempt.result),
                                           thread=thread, may_ask=may_ask)
            except Exception:  # a failing interviewer ends the thread; it never leaves it hanging
                log.exception("interviewer reply for attempt %s failed", attempt_id)
        turn.reply_text = push.reply if push else None
        turn.status = REPLIED
        session.add(turn)
        if push and push.next and position + 1 < MAX_TURNS:
            session.add(FollowUpTurn(attempt_id=attempt_id, position=position + 1, question_text=push.next.text,
                                     checkpoint_id=push.next.checkpoint_id, source=push.next.source))
        try:
            session.commit()
        except IntegrityError:  # another process replied first
            session.rollback()


def answered_positions(session: Session, attempt_id: str) -> list[int]:
    """Turns of the attempt answered and still waiting for the interviewer."""
    query = select(FollowUpTurn.position).where(FollowUpTurn.attempt_id == attempt_id, FollowUpTurn.status == ANSWERED)
    return list(session.exec(query).all())


def stale_answered_turns(session: Session, *, older_than) -> list[tuple[str, int]]:
    rows = session.exec(
        select(FollowUpTurn.attempt_id, FollowUpTurn.position).where(FollowUpTurn.status == ANSWERED, FollowUpTurn.answered_at < older_than)
    ).all()
    return [(a, p) for a, p in rows]
