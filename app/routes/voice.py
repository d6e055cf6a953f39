"""Spoken answers: upload a recording to be transcribed, replay it, delete its audio."""

from __future__ import annotations

import re

from typing import Annotated, Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from app.deps import BankDep, CurrentUser, SessionDep
from app.grading.service import question_or_404
from app.voice.service import (
    Voice,
    delete_audio,
    read_audio,
    recording_view,
    save_recording,
    transcribe_upload,
    transcription_json,
)
from app.voice.transcribe import build_prompt
from app.web import is_htmx, path_for, render

router = APIRouter(tags=["voice"])


def _voice(request: Request) -> Voice:
    return request.app.state.voice


@router.post("/api/transcriptions", status_code=201)
async def api_transcribe(
    request: Request,
    bank: BankDep,
    session: SessionDep,
    user: CurrentUser,
    audio: Annotated[UploadFile, File(description="The recording: WebM/Opus, Ogg, WAV, MP3 or MP4/AAC.")],
    question_id: Annotated[str, Form(max_length=120)],
) -> dict[str, Any]:
    """Transcribe a recorded answer. Returns the transcript (to edit before submitting), word timing,
    delivery figures and a ``recording_id`` to send with the answer."""
    voice = _voice(request)
    question = question_or_404(bank, question_id)
    pool = voice.require_pool()
    data = await audio.read(voice.max_bytes + 1)  # one byte more than allowed is enough to refuse
    prompt = build_prompt(question, bank.glossary)
    transcript, kept = await pool.run(
        transcribe_upload, data, transcriber=pool.transcriber, filename=audio.filename or "answer", prompt=prompt, max_bytes=voice.max_bytes, keep=voice.keep_recordings
    )
    recording = await run_in_threadpool(  # writing megabytes of audio is blocking work too
        save_recording, session, user=user, question_id=question.id, transcript=transcript, transcriber=pool.transcriber.name, audio=kept, mime=audio.content_type or ""
    )
    # The kept copy carries its duration (a browser's raw recording does not), so players can seek.
    audio_url = path_for(request, "recording_audio", recording_id=recording.id) if recording.audio_size else None
    return {**transcription_json(recording), "audio_url": audio_url}


_RANGE = re.compile(r"bytes=(\d*)-(\d*)", re.I)


def byte_range(header: str | None, size: int) -> tuple[int, int] | None | bool:
    """The one range ``(first, last)`` a Range header asks for; None for the whole body (no
    header, several ranges, another unit); False when it cannot be satisfied.

    >>> byte_range("bytes=100-199", 1000), byte_range("bytes=-100", 1000), byte_range("bytes=900-", 1000)
    ((100, 199), (900, 999), (900, 999))
    >>> byte_range("bytes=1000-", 1000), byte_range(None, 1000), byte_range("bytes=0-1,5-9", 1000), byte_range("bytes=5-2", 1000)
    (False, None, None, None)
    """
    m = _RANGE.fullmatch((header or "").strip())
    if m is None or (not m.group(1) and not m.group(2)):
        return None
    if not m.group(1):  # the last N bytes
        n = int(m.group(2))
        return (max(0, size - n), size - 1) if n and size else False
    first = int(m.group(1))
    if m.group(2) and int(m.group(2)) < first:
        return None  # not a valid range at all: ignored, the whole body is sent
    last = min(int(m.group(2)), size - 1) if m.group(2) else size - 1
    return (first, last) if first < size else False


@router.get("/recordings/{recording_id}/audio", name="recording_audio", include_in_schema=False)
def recording_audio(request: Request, recording_id: str, session: SessionDep, user: CurrentUser) -> Response:
    data, mime = read_audio(session, recording_id, user=user)
    # Only ever serve audio types: the stored type came from the browser, and must not make the
    # upload render as a page on this origin.
    safe = mime if re.fullmatch(r"audio/[a-z0-9.+-]+(;[ a-z0-9=.\-]*)?", (mime or "").lower()) else "application/octet-stream"
    headers = {"Cache-Control": "private, max-age=3600", "X-Content-Type-Options": "nosniff", "Content-Disposition": "inline",
               "Accept-Ranges": "bytes"}
    # Browsers seek in <audio> with Range requests; without 206 answers the player cannot seek.
    wanted = byte_range(request.headers.get("range"), len(data))
    if wanted is False:
        return Response(status_code=416, headers={**headers, "Content-Range": f"bytes */{len(data)}"})
    if wanted is not None:
        first, last = wanted
        return Response(data[first : last + 1], status_code=206, media_type=safe,
                        headers={**headers, "Content-Range": f"bytes {first}-{last}/{len(data)}"})
    return Response(data, media_type=safe, headers=headers)


@router.post("/recordings/{recording_id}/delete", name="delete_recording", include_in_schema=False)
def delete_recording(request: Request, recording_id: str, session: SessionDep, user: CurrentUser):
    recording = delete_audio(session, recording_id, user=user)
    if not is_htmx(request):
        target = (
            request.url_for("attempt", attempt_id=recording.attempt_id)
            if recording.attempt_id
            else request.url_for("practice", question_id=recording.question_id)
        )
        return RedirectResponse(target, status_code=303)
    ctx = {"recording": recording_view(recording)}
    return render(request, "partials/_recording.html", ctx, partial="partials/_recording.html")


@router.delete("/api/recordings/{recording_id}/audio", status_code=204)
def api_delete_recording_audio(recording_id: str, session: SessionDep, user: CurrentUser) -> Response:
    """Delete a recording's audio; its transcript and delivery figures stay with the attempt."""
    delete_audio(session, recording_id, user=user)
    return Response(status_code=204)
