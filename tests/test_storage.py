"""Attempts are stored before grading; a failing grader never eats an attempt."""

from __future__ import annotations

import time

from sqlmodel import Session, select

from app.grading.service import create_attempt, get_local_user
from app.models import Attempt, AttemptCreate, AttemptStatus, utcnow
from tests.factories import wait_until
from datetime import timedelta


class ExplodingGrader:
    name = "exploding"

    def grade(self, question, answer):
        raise RuntimeError("model server unreachable")


class SlowGrader:
    name = "slow"

    def __init__(self, inner):
        self.inner = inner

    def grade(self, question, answer):
        time.sleep(0.3)
        return self.inner.grade(question, answer)


def _new_attempt(app, answer="Each GPU ends up with the sum of all tensors."):
    with Session(app.state.engine) as s:
        user = get_local_user(s)
        return create_attempt(s, bank=app.state.bank, user=user, grader="offline", max_chars=20_000,
                              data=AttemptCreate(question_id="allreduce-deep-dive", answer=answer))


def test_attempt_is_saved_pending_before_grading(client, app):
    attempt = _new_attempt(app)
    with Session(app.state.engine) as s:
        stored = s.get(Attempt, attempt.id)
        assert stored.status == AttemptStatus.pending and stored.answer.startswith("Each GPU")
        assert stored.question_version and stored.user_id


def test_failing_grader_marks_failed_and_regrade_recovers(client, app):
    attempt = _new_attempt(app)
    good = app.state.queue.grader
    app.state.queue.grader = ExplodingGrader()
    app.state.queue.run(attempt.id)
    with Session(app.state.engine) as s:
        failed = s.get(Attempt, attempt.id)
        assert failed.status == AttemptStatus.failed and "model server unreachable" in failed.error
        assert failed.answer.startswith("Each GPU")
    page = client.get(f"/attempts/{attempt.id}")
    assert "Grading failed" in page.text and "Grade again" in page.text
    app.state.queue.grader = good
    res = client.post(f"/attempts/{attempt.id}/regrade", follow_redirects=False)
    assert res.status_code == 303
    with Session(app.state.engine) as s:
        done = s.get(Attempt, attempt.id)
        assert done.status == AttemptStatus.graded and done.error is None and done.grade_runs == 2


def test_claim_is_exclusive(client, app):
    attempt = _new_attempt(app)
    queue = app.state.queue
    assert queue._claim(attempt.id) is True
    assert queue._claim(attempt.id) is False, "a second worker must not grade the same attempt"


def test_stale_grading_is_requeued(client, app):
    attempt = _new_attempt(app)
    with Session(app.state.engine) as s:
        a = s.get(Attempt, attempt.id)
        a.status = AttemptStatus.grading
        a.claimed_at = utcnow() - timedelta(hours=1)
        s.add(a)
        s.commit()
    assert app.state.queue.requeue_unfinished() == 1
    def graded():
        with Session(app.state.engine) as s:
            return s.get(Attempt, attempt.id).status == AttemptStatus.graded

    assert wait_until(graded)


def test_slow_grader_shows_progress_then_result(client, app):
    queue = app.state.queue
    queue.grader = SlowGrader(queue.grader)
    app.state.settings.grading_wait_seconds = 0
    res = client.post("/questions/allreduce-deep-dive/attempts", data={"answer": "The sum ends up on every GPU."}, headers={"HX-Request": "true"})
    assert res.status_code == 200
    assert 'data-status="pending"' in res.text or 'data-status="grading"' in res.text
    assert "hx-trigger=\"load delay:700ms\"" in res.text
    with Session(app.state.engine) as s:
        attempt_id = s.exec(select(Attempt.id)).one()
    def fragment():
        text = client.get(f"/attempts/{attempt_id}", headers={"HX-Request": "true"}).text
        return text if 'data-status="graded"' in text else None

    text = wait_until(fragment) or ""
    assert 'data-status="graded"' in text and "hx-trigger" not in text.split("<article", 1)[0]


def test_failure_while_storing_the_grade_marks_failed(client, app, monkeypatch):
    """Regression: an error when committing the grade left the attempt 'grading' forever."""
    attempt = _new_attempt(app)
    import app.grading.service as service

    def broken_thread(*args, **kwargs):
        raise RuntimeError("thread table unavailable")

    monkeypatch.setattr(service, "start_thread", broken_thread)
    app.state.queue.run(attempt.id)
    with Session(app.state.engine) as s:
        stored = s.get(Attempt, attempt.id)
        assert stored.status == AttemptStatus.failed and stored.answer.startswith("Each GPU")


def test_in_memory_sqlite_is_safe_across_threads():
    """`sqlite://` gets a private file: a reader closing its session on another thread
    never undoes a writer's uncommitted change (a shared in-memory connection would)."""
    import threading
    from pathlib import Path

    from app.db import dispose_engine, make_engine, upgrade_database
    from app.models import User

    engine = make_engine("sqlite://")
    db_file = Path(engine.url.database)
    upgrade_database(engine)
    assert db_file.exists()
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            with Session(engine) as s:
                s.exec(select(User)).all()

    threads = [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        for i in range(20):
            with Session(engine) as s:
                s.add(User(username=f"user{i}", display_name="x"))
                s.flush()
                time.sleep(0.005)  # readers open and close sessions meanwhile
                s.commit()
    finally:
        stop.set()
        for t in threads:
            t.join()
    with Session(engine) as s:
        assert len(s.exec(select(User)).all()) == 20
    dispose_engine(engine)
    assert not db_file.parent.exists(), "the temporary database is removed with its engine"


def _stall(app, attempt_id, ago=timedelta(hours=1)):
    with Session(app.state.engine) as s:
        a = s.get(Attempt, attempt_id)
        a.status, a.claimed_at = AttemptStatus.grading, utcnow() - ago
        s.add(a)
        s.commit()


def test_stalled_grading_offers_grade_again_and_regrade_recovers(client, app):
    attempt = _new_attempt(app)
    _stall(app, attempt.id, ago=timedelta(seconds=5))  # fresh claim: someone is grading it
    page = client.get(f"/attempts/{attempt.id}")
    assert "Grading…" in page.text and "Grade again" not in page.text
    assert client.post(f"/api/attempts/{attempt.id}/regrade").json()["status"] == "grading"  # left alone
    _stall(app, attempt.id)  # a claim an hour old: the process grading it is gone
    page = client.get(f"/attempts/{attempt.id}")
    assert "may have stopped" in page.text and "Grade again" in page.text
    assert '<noscript><meta http-equiv="refresh"' in page.text  # without JavaScript the page reloads itself
    done = client.post(f"/api/attempts/{attempt.id}/regrade").json()
    assert done["status"] == "graded" and done["score"] is not None


def test_sweeper_requeues_stalled_attempts_while_running(client, app):
    from app.grading.service import GradingQueue

    assert app.state.queue._sweeper is not None and app.state.queue._sweeper.is_alive()  # started with the app
    attempt = _new_attempt(app)
    _stall(app, attempt.id)
    queue = GradingQueue(app.state.engine, app.state.bank, app.state.queue.grader, workers=1, stale_seconds=10)
    queue.start_sweeper(interval=0.1)
    try:
        def graded():
            with Session(app.state.engine) as s:
                return s.get(Attempt, attempt.id).status == AttemptStatus.graded

        assert wait_until(graded, seconds=30)
    finally:
        queue.shutdown()
    assert not queue._sweeper.is_alive()


def test_lone_surrogate_in_an_answer_is_stored_not_a_500(client):
    body = b'{"question_id": "allreduce-deep-dive", "answer": "abc \\ud800 all-reduce sums on every GPU"}'  # JSON escape, as a client sends it
    res = client.post("/api/attempts", content=body, headers={"Content-Type": "application/json"})
    assert res.status_code in (200, 201, 202), res.text
    assert res.json()["answer"] == "abc \ufffd all-reduce sums on every GPU"
