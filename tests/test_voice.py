"""Spoken answers: the real offline recognizer on known speech, the endpoint recognizer against a
local server, bad uploads, the bounded pool, and recordings kept, linked, replayed and deleted."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI, Form, Request, UploadFile
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.config import Settings
from app.errors import TranscriberBusy
from app.main import create_app
from app.models import Attempt, Recording, utcnow
from app.voice.audio import decode_audio
from app.voice.transcribe import FasterWhisperTranscriber, build_prompt, offline_available, read_model_files
from tests.conftest import CONTENT, free_port
from tests.speech import reencode, speech_wav, wav_seconds

pytest.importorskip("av", reason="the voice extra is not installed (make install brings it)")

QUESTION = "allreduce-deep-dive"
PART_ONE = "So, um, an all-reduce sums a tensor from every GPU and leaves the result on each of them. A ring all-reduce does a reduce-scatter and then an all-gather."
PART_TWO = "Uh, inside a node the traffic goes over NVLink, and across nodes it uses InfiniBand, you know."
GAP = 3.0  # seconds of silence between the parts: one long pause

needs_offline = pytest.mark.skipif(not offline_available(), reason="the voice extra (faster-whisper and the tiny.en model) is not installed")


def squash(text: str) -> str:
    """Lower case, letters and digits only: 'All-Reduce' and 'all reduce' both become 'allreduce'."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@pytest.fixture(scope="module")
def answer_wav(tmp_path_factory) -> Path:
    return speech_wav(tmp_path_factory.mktemp("speech") / "answer.wav", PART_ONE, PART_TWO, gap_seconds=GAP)


@pytest.fixture(scope="module")
def short_wav(tmp_path_factory) -> Path:
    return speech_wav(tmp_path_factory.mktemp("speech") / "short.wav", "NVLink connects the GPUs inside a node.")


def make_client(tmp_path: Path, *, database_url: str | None = None, **overrides) -> TestClient:
    url = database_url or f"sqlite:///{tmp_path / 'voice.db'}"
    settings = Settings(database_url=url, content_dir=CONTENT, grading_wait_seconds=10, _env_file=None, **overrides)
    return TestClient(create_app(settings))


def upload(client: TestClient, data: bytes, *, name: str = "answer.wav", mime: str = "audio/wav", question_id: str = QUESTION):
    return client.post("/api/transcriptions", data={"question_id": question_id}, files={"audio": (name, data, mime)})


# --- the real offline recognizer ----------------------------------------------------------------


@needs_offline
def test_offline_backend_transcribes_key_terms_and_measures_delivery(answer_wav, bank):
    transcriber = FasterWhisperTranscriber("tiny.en")
    transcript = transcriber.transcribe(answer_wav.read_bytes(), filename="answer.wav", prompt=build_prompt(bank.get(QUESTION), bank.glossary))
    text = squash(transcript.text)
    for term in ("allreduce", "nvlink", "infiniband"):
        assert term in text, transcript.text
    assert "reducescatter" in text or "allgather" in text, transcript.text
    assert transcript.duration == pytest.approx(wav_seconds(answer_wav), abs=0.05)
    starts = [w[1] for w in transcript.words]
    assert starts == sorted(starts) and all(s <= e for _, s, e in transcript.words)

    from app.voice.delivery import measure_delivery

    d = measure_delivery(transcript.text, transcript.words, duration=transcript.duration)
    # espeak-ng adds its own short silence around each part, and word timing is approximate.
    assert len(d.pauses) == 1 and GAP - 0.5 <= d.pauses[0].seconds <= GAP + 1.5
    assert d.pauses[0].after.lower().endswith("gather.")
    assert transcript.duration - GAP - 2.5 <= d.speaking_seconds <= transcript.duration - GAP
    assert 110 <= d.wpm <= 200  # espeak-ng reads at 150 words per minute
    assert len(d.fillers) >= 2 and {"you know"} & {f.text.lower() for f in d.fillers}


@needs_offline
def test_browser_container_is_transcribed_through_the_api(tmp_path, short_wav):
    with make_client(tmp_path) as client:
        r = upload(client, reencode(short_wav, "webm"), name="answer.webm", mime="audio/webm;codecs=opus")
    assert r.status_code == 201, r.text
    body = r.json()
    assert "nvlink" in squash(body["transcript"]) and "gpu" in squash(body["transcript"])
    assert body["duration"] == pytest.approx(wav_seconds(short_wav), abs=0.1)
    assert body["words"] and body["audio_kept"] is True and body["transcriber"] == "faster-whisper tiny.en"
    assert body["audio_url"] == f"/recordings/{body['recording_id']}/audio"
    assert body["delivery"]["wpm_band"] == [100, 165] and body["delivery"]["timed"] is True


@pytest.mark.parametrize("container", ["webm", "ogg", "mp4"])
def test_browser_containers_decode_to_16k_mono(container, short_wav):
    pytest.importorskip("av")
    samples = decode_audio(reencode(short_wav, container), max_seconds=60)
    assert samples.dtype.name == "float32" and samples.ndim == 1
    assert len(samples) / 16_000 == pytest.approx(wav_seconds(short_wav), abs=0.06)
    assert 0.01 < float(abs(samples).max()) <= 1.0


@needs_offline
def test_model_files_match_recorded_digests():
    files = read_model_files("tiny.en")
    assert set(files) == {"config.json", "model.bin", "tokenizer.json", "vocabulary.txt"}


def test_changed_model_file_is_refused(monkeypatch, tmp_path):
    from app.voice import transcribe

    (tmp_path / "pkg" / "model").mkdir(parents=True)
    for name in ("config.json", "model.bin", "tokenizer.json", "vocabulary.txt"):
        (tmp_path / "pkg" / "model" / name).write_bytes(b"tampered")
    monkeypatch.setattr(transcribe, "_module_dir", lambda module: tmp_path / "pkg")
    with pytest.raises(transcribe.ModelUnavailable, match="sha256"):
        transcribe.read_model_files("tiny.en")


def test_prompt_names_the_questions_key_terms(bank):
    prompt = build_prompt(bank.get(QUESTION), bank.glossary)
    assert len(prompt) <= 480 and prompt.startswith("Um,")
    for term in ("all-reduce", "NVLink", "InfiniBand", "reduce-scatter", "NCCL"):
        assert term in prompt


# --- the endpoint recognizer against a local server ------------------------------------------------


class FakeEndpoint:
    """A local OpenAI-compatible /v1/audio/transcriptions; ``mode`` picks what it answers."""

    def __init__(self):
        self.mode, self.requests = "words", []
        self.gate: threading.Event | None = None  # when set: answer only once the test opens it
        app = FastAPI()

        @app.post("/v1/audio/transcriptions")
        async def transcriptions(request: Request, file: UploadFile, model: str = Form(), response_format: str = Form("json"), prompt: str = Form("")):
            form = await request.form()
            self.requests.append({"model": model, "format": response_format, "prompt": prompt, "bytes": len(await file.read()),
                                  "granularities": form.getlist("timestamp_granularities[]")})
            until = time.monotonic() + 15
            while self.gate is not None and not self.gate.is_set() and time.monotonic() < until:
                await asyncio.sleep(0.02)
            if self.mode == "fail":
                return JSONResponse({"error": {"message": "model exploded"}}, status_code=500)
            if self.mode == "plain" and response_format == "verbose_json":
                return JSONResponse({"error": {"message": "verbose_json is not supported"}}, status_code=400)
            text = "Um, all-reduce sums tensors. NVLink is fast."
            if response_format != "verbose_json":
                return {"text": text}
            body = {"text": text, "language": "english", "duration": 6.0,
                    "segments": [{"id": 0, "start": 0.5, "end": 2.5, "text": " Um, all-reduce sums tensors."}, {"id": 1, "start": 5.0, "end": 6.0, "text": " NVLink is fast."}]}
            if self.mode == "words":
                body["words"] = [{"word": w, "start": s, "end": e} for w, s, e in
                                 [("Um,", 0.5, 0.7), ("all-reduce", 0.9, 1.5), ("sums", 1.6, 2.0), ("tensors.", 2.0, 2.5), ("NVLink", 5.0, 5.4), ("is", 5.5, 5.6), ("fast.", 5.6, 6.0)]]
            return body

        self.app = app


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[FakeEndpoint, str]]:
    import uvicorn

    fake = FakeEndpoint()
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(fake.app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield fake, f"http://127.0.0.1:{port}/v1"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def fake(endpoint):
    fake, _ = endpoint
    fake.mode, fake.gate, fake.requests[:] = "words", None, []
    return fake


def endpoint_client(tmp_path, endpoint, **overrides) -> TestClient:
    return make_client(tmp_path, transcriber="openai", transcription_base_url=endpoint[1], transcription_model="whisper-large-v3", **overrides)


def test_endpoint_backend_returns_transcript_with_word_timing(tmp_path, endpoint, fake, short_wav):
    with endpoint_client(tmp_path, endpoint) as client:
        r = upload(client, short_wav.read_bytes())
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["transcript"] == "Um, all-reduce sums tensors. NVLink is fast."
    assert body["words"][1] == ["all-reduce", 0.9, 1.5]
    assert body["duration"] == pytest.approx(wav_seconds(short_wav), abs=0.05)  # measured here, not taken on trust
    assert body["delivery"]["filler_count"] == 1 and len(body["delivery"]["pauses"]) == 1
    sent = fake.requests[0]
    assert sent["model"] == "whisper-large-v3" and sent["format"] == "verbose_json" and "word" in sent["granularities"]
    assert "NVLink" in sent["prompt"] and sent["bytes"] == short_wav.stat().st_size


def test_endpoint_without_word_timing_spreads_words_over_segments(tmp_path, endpoint, fake, short_wav):
    fake.mode = "segments"
    with endpoint_client(tmp_path, endpoint) as client:
        body = upload(client, short_wav.read_bytes()).json()
    assert [w[0] for w in body["words"]][:2] == ["Um,", "all-reduce"]
    assert body["words"][0][1] == 0.5 and body["words"][-1][2] == 6.0
    assert body["delivery"]["timed"] is True


def test_endpoint_without_verbose_json_still_transcribes(tmp_path, endpoint, fake, short_wav):
    fake.mode = "plain"
    with endpoint_client(tmp_path, endpoint) as client:
        body = upload(client, short_wav.read_bytes()).json()
    assert [r["format"] for r in fake.requests] == ["verbose_json", "json"]
    assert body["transcript"].startswith("Um, all-reduce") and body["words"] == []
    assert body["delivery"]["timed"] is False and body["delivery"]["speaking_seconds"] == pytest.approx(body["duration"])


def test_endpoint_failure_is_a_clear_503(tmp_path, endpoint, fake, short_wav):
    fake.mode = "fail"
    with endpoint_client(tmp_path, endpoint) as client:
        r = upload(client, short_wav.read_bytes())
    assert r.status_code == 503
    assert "speech-to-text endpoint failed" in r.json()["detail"] and "model exploded" in r.json()["detail"]


def test_slow_transcription_does_not_stall_other_requests(tmp_path, endpoint, fake, short_wav):
    """A transcription runs on the pool, off the event loop: the server keeps answering meanwhile."""
    import uvicorn

    fake.gate = threading.Event()  # the transcriber answers only when the test lets it
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'live.db'}", content_dir=CONTENT, transcriber="openai",
                        transcription_base_url=endpoint[1], _env_file=None)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}"
    try:
        result = {}
        uploader = threading.Thread(target=lambda: result.setdefault("r", httpx.post(
            base + "/api/transcriptions", data={"question_id": QUESTION}, files={"audio": ("a.wav", short_wav.read_bytes(), "audio/wav")}, timeout=30)))
        uploader.start()
        while not fake.requests:
            time.sleep(0.02)
        # Other requests return while the transcription is still waiting for its answer.
        assert httpx.get(base + "/healthz", timeout=5).status_code == 200
        assert httpx.get(base + f"/questions/{QUESTION}", timeout=5).status_code == 200
        assert uploader.is_alive() and "r" not in result
        fake.gate.set()
        uploader.join(timeout=30)
        assert result["r"].status_code == 201
    finally:
        fake.gate.set()
        server.should_exit = True
        thread.join(timeout=10)


def test_full_pool_answers_busy_at_once():
    from app.voice.service import TranscriptionPool

    release = threading.Event()
    pool = TranscriptionPool(object(), workers=1, queue=1)

    async def scenario():
        first = asyncio.ensure_future(pool.run(release.wait, 10))
        second = asyncio.ensure_future(pool.run(release.wait, 10))
        await asyncio.sleep(0.05)
        with pytest.raises(TranscriberBusy, match="busy"):
            await pool.run(release.wait, 10)
        release.set()
        await asyncio.gather(first, second)
        assert await pool.run(lambda: "free again") == "free again"

    asyncio.run(scenario())
    pool.shutdown()


# --- bad uploads ------------------------------------------------------------------------------------


@pytest.fixture
def endpoint_app(tmp_path, endpoint, fake, database_url):
    """The app with the endpoint recognizer, small limits, and each test database (SQLite, PostgreSQL)."""
    with endpoint_client(tmp_path, endpoint, database_url=database_url, max_audio_seconds=10, max_audio_bytes=200_000) as client:
        yield client


def test_empty_upload_is_refused(endpoint_app):
    r = upload(endpoint_app, b"")
    assert r.status_code == 422 and "empty" in r.json()["detail"]


@pytest.mark.parametrize("data", [b"this is a text file, not a recording\n" * 50, b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20])
def test_upload_that_is_not_audio_is_refused(endpoint_app, fake, data):
    r = upload(endpoint_app, data, name="notes.txt", mime="text/plain")
    assert r.status_code == 422 and re.search("not audio|no audio track", r.json()["detail"])
    assert fake.requests == []  # refused before anything is sent to the endpoint


def test_too_large_upload_is_refused(endpoint_app, answer_wav):
    assert answer_wav.stat().st_size > 200_000
    r = upload(endpoint_app, answer_wav.read_bytes())
    assert r.status_code == 413 and "larger than the 0.2 MB limit" in r.json()["detail"]


def test_far_too_large_upload_is_refused_before_it_is_read(endpoint_app, fake):
    big = b"\0" * 2_000_000  # ten times the 0.2 MB limit
    r = upload(endpoint_app, big)
    assert r.status_code == 413 and "larger than the" in r.json()["detail"]

    def chunks():  # no Content-Length: counted as it arrives
        yield b"--x\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\n"
        for _ in range(40):
            yield b"\0" * 64_000

    r = endpoint_app.post("/api/transcriptions", content=chunks(), headers={"Content-Type": "multipart/form-data; boundary=x"})
    assert r.status_code == 413 and "larger than the" in r.json()["detail"]
    assert fake.requests == []
    # Other pages take small bodies only.
    r = endpoint_app.post(f"/questions/{QUESTION}/attempts", data={"answer": "x" * 3_000_000})
    assert r.status_code == 413


def test_behind_a_proxy_prefix_uploads_keep_their_limit_and_replay_url(tmp_path, endpoint, fake, short_wav, database_url):
    with endpoint_client(tmp_path, endpoint, database_url=database_url) as started:
        client = TestClient(started.app, root_path="/coach")  # as uvicorn --root-path sets it behind a reverse proxy
        rec = client.post("/coach/api/transcriptions", data={"question_id": QUESTION},
                          files={"audio": ("a.wav", short_wav.read_bytes() + b"\0" * 2_500_000, "audio/wav")})
        assert rec.status_code != 413, "the audio limit applies, not the 2 MB one for other pages"
        ok = client.post("/coach/api/transcriptions", data={"question_id": QUESTION}, files={"audio": ("a.wav", short_wav.read_bytes(), "audio/wav")})
        assert ok.status_code == 201 and ok.json()["audio_url"].startswith("/coach/recordings/")


def test_too_long_recording_is_refused(endpoint_app, tmp_path, short_wav):
    # Silence compresses well: 12 s of Opus is small, so only the duration limit can catch it.
    long_wav = speech_wav(tmp_path / "long.wav", "NVLink.", lead_seconds=12)
    data = reencode(long_wav, "ogg")
    assert len(data) < 200_000
    r = upload(endpoint_app, data, name="a.ogg", mime="audio/ogg")
    assert r.status_code == 413 and "longer than 0:10" in r.json()["detail"]


def test_unknown_question_is_404(endpoint_app, short_wav):
    assert upload(endpoint_app, short_wav.read_bytes(), question_id="no-such-question").status_code == 404


def test_no_backend_says_so_in_page_and_api(tmp_path, short_wav):
    with make_client(tmp_path, transcriber="none") as client:
        page = client.get(f"/questions/{QUESTION}")
        assert 'id="voice"' not in page.text and "Spoken answers are turned off" in page.text
        r = upload(client, short_wav.read_bytes())
    assert r.status_code == 503 and r.json()["title"] == "Speech recognition unavailable"


def test_missing_offline_backend_is_explained(tmp_path, monkeypatch):
    monkeypatch.setattr("app.voice.transcribe.offline_available", lambda *a, **k: False)
    with make_client(tmp_path) as client:
        page = client.get(f"/questions/{QUESTION}")
    assert "pip install &#39;.[voice]&#39;" in page.text or "pip install '.[voice]'" in page.text


# --- recordings with attempts -------------------------------------------------------------------------


def test_spoken_answer_keeps_recording_for_replay_and_delete(endpoint_app, short_wav):
    audio = short_wav.read_bytes()
    rec = upload(endpoint_app, audio).json()
    r = endpoint_app.post(f"/questions/{QUESTION}/attempts", data={"answer": rec["transcript"] + " Edited by hand.", "recording_id": rec["recording_id"]}, follow_redirects=False)
    assert r.status_code == 303
    attempt_url = r.headers["location"]
    attempt = endpoint_app.get("/api/attempts").json()["items"][0]
    assert attempt["source"] == "spoken" and attempt["answer"].endswith("Edited by hand.")
    assert attempt["duration_seconds"] == pytest.approx(rec["duration"])

    played = endpoint_app.get(f"/recordings/{rec['recording_id']}/audio")
    assert played.status_code == 200 and played.content == audio and played.headers["content-type"].startswith("audio/wav")
    assert played.headers["accept-ranges"] == "bytes"
    # The player seeks with Range requests: a 206 with just those bytes.
    part = endpoint_app.get(f"/recordings/{rec['recording_id']}/audio", headers={"Range": "bytes=10-19"})
    assert part.status_code == 206 and part.content == audio[10:20] and part.headers["content-range"] == f"bytes 10-19/{len(audio)}"
    tail = endpoint_app.get(f"/recordings/{rec['recording_id']}/audio", headers={"Range": "bytes=-5"})
    assert tail.status_code == 206 and tail.content == audio[-5:]
    beyond = endpoint_app.get(f"/recordings/{rec['recording_id']}/audio", headers={"Range": f"bytes={len(audio)}-"})
    assert beyond.status_code == 416 and beyond.headers["content-range"] == f"bytes */{len(audio)}"
    page = endpoint_app.get(attempt_url).text
    assert re.search(f'<audio[^>]+src="[^"]*/recordings/{rec["recording_id"]}/audio"', page)
    assert '<mark class="filler">Um</mark>' in page and 'data-figure="wpm"' in page

    fragment = endpoint_app.post(f"/recordings/{rec['recording_id']}/delete", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and 'id="recording"' in fragment.text and "<audio" not in fragment.text
    assert endpoint_app.get(f"/recordings/{rec['recording_id']}/audio").status_code == 404
    page = endpoint_app.get(attempt_url).text
    assert "audio is not kept" in page and 'data-figure="fillers">1' in page  # figures outlive the audio


def test_delete_without_javascript_redirects_to_the_attempt(endpoint_app, short_wav):
    rec = upload(endpoint_app, short_wav.read_bytes()).json()
    r = endpoint_app.post("/api/attempts", json={"question_id": QUESTION, "answer": rec["transcript"], "recording_id": rec["recording_id"]})
    assert r.status_code == 201 and r.json()["source"] == "spoken"
    attempt_id = r.json()["id"]
    r = endpoint_app.post(f"/recordings/{rec['recording_id']}/delete", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith(f"/attempts/{attempt_id}")
    assert endpoint_app.delete(f"/api/recordings/{rec['recording_id']}/audio").status_code == 204


def test_recordings_are_not_kept_when_turned_off(tmp_path, endpoint, fake, short_wav):
    with endpoint_client(tmp_path, endpoint, keep_recordings=False) as client:
        rec = upload(client, short_wav.read_bytes()).json()
        assert rec["audio_kept"] is False and rec["audio_url"] is None
        assert client.get(f"/recordings/{rec['recording_id']}/audio").status_code == 404
        client.post("/api/attempts", json={"question_id": QUESTION, "answer": rec["transcript"], "recording_id": rec["recording_id"]})
        attempt = client.get("/api/attempts").json()["items"][0]
        page = client.get(f"/attempts/{attempt['id']}").text
    assert "<audio" not in page and 'data-figure="wpm"' in page


def test_recording_is_used_by_one_attempt_only(endpoint_app, short_wav):
    rec = upload(endpoint_app, short_wav.read_bytes()).json()
    payload = {"question_id": QUESTION, "answer": rec["transcript"], "recording_id": rec["recording_id"]}
    assert endpoint_app.post("/api/attempts", json=payload).status_code == 201
    again = endpoint_app.post("/api/attempts", json=payload)
    assert again.status_code == 409 and "another attempt" in again.json()["detail"]
    other = endpoint_app.post("/api/attempts", json={**payload, "question_id": "nvlink-vs-infiniband"})
    assert other.status_code == 409
    missing = endpoint_app.post("/api/attempts", json={**payload, "recording_id": "0" * 32})
    assert missing.status_code == 404
    assert endpoint_app.get("/recordings/" + "0" * 32 + "/audio").status_code == 404


def test_unsubmitted_recordings_expire(endpoint_app, short_wav):
    first = upload(endpoint_app, short_wav.read_bytes()).json()["recording_id"]
    engine = endpoint_app.app.state.engine
    with Session(engine) as session:
        old = session.get(Recording, first)
        old.created_at = utcnow() - timedelta(days=2)
        session.add(old)
        session.commit()
    upload(endpoint_app, short_wav.read_bytes())
    with Session(engine) as session:
        ids = session.exec(select(Recording.id)).all()
        assert first not in ids and len(ids) == 1
        assert session.exec(select(Attempt)).all() == []


def test_replay_never_serves_a_page_type(endpoint_app, short_wav):
    """Regression: the stored type came from the browser; a WAV sent as text/html must not render as a page."""
    rec = upload(endpoint_app, short_wav.read_bytes() + b"<script>alert(1)</script>", mime="text/html").json()
    played = endpoint_app.get(f"/recordings/{rec['recording_id']}/audio")
    assert played.status_code == 200
    assert played.headers["content-type"] == "application/octet-stream"
    assert played.headers["x-content-type-options"] == "nosniff"


def test_cli_transcribes_a_recording_with_delivery(short_wav, tmp_path):
    from typer.testing import CliRunner

    from app.cli import app as cli

    runner = CliRunner()
    env = {"COACH_TRANSCRIBER": "offline"}
    res = runner.invoke(cli, ["transcribe", str(short_wav), "--question", "nvlink-vs-infiniband", "--json"], env=env)
    assert res.exit_code == 0, res.output
    body = json.loads(res.stdout)
    assert "nvlink" in body["text"].lower().replace(" ", "") and "node" in body["text"].lower()
    assert body["words"] and body["words"][0]["start"] <= body["words"][-1]["end"]
    assert body["delivery"]["words"] >= 5 and body["delivery"]["duration"] > 1
    plain = runner.invoke(cli, ["transcribe", str(short_wav)], env=env)
    assert plain.exit_code == 0 and "node" in plain.stdout.lower()  # without the key terms: "the link connects the DPUs"
    not_audio = tmp_path / "notes.wav"
    not_audio.write_text("these are my notes, not a recording")
    bad = runner.invoke(cli, ["transcribe", str(not_audio)], env=env)
    assert bad.exit_code == 2 and "error:" in bad.output
    missing = runner.invoke(cli, ["transcribe", str(tmp_path / "nope.wav")], env=env)
    assert missing.exit_code == 2 and "cannot read" in missing.output
    unknown = runner.invoke(cli, ["transcribe", str(short_wav), "--question", "no-such-q"], env=env)
    assert unknown.exit_code == 2 and "no-such-q" in unknown.output
    off = runner.invoke(cli, ["transcribe", str(short_wav)], env={"COACH_TRANSCRIBER": "none"})
    assert off.exit_code == 2 and "no speech recognizer" in off.output
