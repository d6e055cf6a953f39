"""Question listing: search, topic filter and per-question practice stats."""

from __future__ import annotations

from sqlmodel import Session, func, select

from app.bank.loader import Bank
from app.bank.schema import Question
from app.models import Attempt, AttemptStatus, User
from app.scoring.text import normalize


def filter_questions(bank: Bank, *, q: str = "", topic: str = "") -> dict[str, list[Question]]:
    """Questions grouped by topic whose title, prompt, tags or topic contain every search word."""
    words = normalize(q).split()
    out: dict[str, list[Question]] = {}
    for name, questions in bank.topics().items():
        if topic and name != topic:
            continue
        for question in questions:
            hay = normalize(" ".join((question.title, question.prompt, question.topic, question.id, *question.tags)))
            if all(w in hay for w in words):
                out.setdefault(name, []).append(question)
    return out


def question_stats(session: Session, *, user: User) -> dict[str, dict]:
    """Per question: number of attempts and best and last score."""
    rows = session.exec(
        select(Attempt.question_id, func.count(), func.max(Attempt.score))
        .where(Attempt.user_id == user.id)
        .group_by(Attempt.question_id)
    ).all()
    stats = {qid: {"attempts": n, "best": best} for qid, n, best in rows}
    last = session.exec(
        select(Attempt.question_id, Attempt.score, Attempt.created_at)
        .where(Attempt.user_id == user.id, Attempt.status == AttemptStatus.graded)
        .order_by(Attempt.created_at)
    ).all()
    for qid, score, _ in last:
        stats.setdefault(qid, {"attempts": 0, "best": None})["last"] = score
    return stats
