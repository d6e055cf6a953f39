"""Benchmark speech recognition on this machine: real-time factor (seconds of work per second of
audio; below 1 is faster than real time), model load time and word error rate, per backend.

    python scripts/bench_voice.py [--runs N] [--seconds S] [--endpoint URL --endpoint-model NAME]

The audio is espeak-ng reading the all-reduce question's model answer (about S seconds at 150
words per minute), encoded as WebM/Opus like a browser recording. Backends:

- offline tiny.en, and base when the voice-base extra is installed (one CPU thread each);
- the endpoint backend, against a local OpenAI-compatible server that this script starts on a
  free port, backed by faster-whisper tiny.en (what running a local faster-whisper server
  gives); or against --endpoint URL.

Each figure is the median of N warm runs. Other work on the machine inflates the wall-clock
figures; the CPU-time factor (CPU seconds the whole process used per second of audio, the local
endpoint server included) is steadier.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fastapi import FastAPI, Form, UploadFile  # noqa: E402  (module level: the local server's annotations resolve here)
from rapidfuzz.distance import Levenshtein  # noqa: E402

from app.bank.loader import load_bank  # noqa: E402
from app.voice.transcribe import FasterWhisperTranscriber, OpenAITranscriber, build_prompt, offline_available  # noqa: E402
from tests.speech import ESPEAK, reencode, speech_wav, wav_seconds  # noqa: E402

QUESTION = "allreduce-deep-dive"


def words_of(text: str) -> list[str]:
    return re.sub(r"[^a-z0-9 ]", " ", text.lower().replace("-", " ")).split()


def wer(reference: str, hypothesis: str) -> float:
    ref = words_of(reference)
    return Levenshtein.distance(ref, words_of(hypothesis)) / max(1, len(ref))


def spoken_text(model_answer: str, seconds: float) -> str:
    words = model_answer.replace("\n", " ").split()
    keep = int(seconds * 150 / 60)
    text = " ".join(words[:keep])
    return text if text.endswith(".") else text.rsplit(".", 1)[0] + "."


def local_endpoint(model: str = "tiny.en"):
    """An OpenAI-compatible /v1/audio/transcriptions served from faster-whisper, on a free port."""
    import socket

    import uvicorn

    transcriber = FasterWhisperTranscriber(model)
    transcriber.load()
    app = FastAPI()

    @app.post("/v1/audio/transcriptions")
    def transcriptions(file: UploadFile, model: str = Form(), prompt: str = Form(""), response_format: str = Form("json")):
        t = transcriber.transcribe(file.file.read(), prompt=prompt)
        return {"text": t.text, "duration": t.duration, "language": "en", "words": [{"word": w, "start": s, "end": e} for w, s, e in t.words]}

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/v1"


def measure(name: str, transcriber, audio: bytes, seconds: float, reference: str, prompt: str, runs: int) -> None:
    started = time.perf_counter()
    if hasattr(transcriber, "load"):
        transcriber.load()
    load = time.perf_counter() - started
    times, cpu, text = [], [], ""
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        text = transcriber.transcribe(audio, filename="answer.webm", prompt=prompt).text
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    took, used = statistics.median(times), statistics.median(cpu)
    print(f"| {name} | {took:.2f} s | {took / seconds:.3f} | {used / seconds:.3f} | {load:.1f} s | {wer(reference, text):.0%} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0, help="about how long the spoken answer is")
    parser.add_argument("--endpoint", help="an OpenAI-compatible base URL to measure instead of the local one")
    parser.add_argument("--endpoint-model", default="whisper-1")
    args = parser.parse_args()
    if ESPEAK is None:  # it speaks the test audio; say so plainly rather than fail deep inside
        sys.exit("bench_voice: espeak-ng speaks the test audio and is not installed (apt-get install espeak-ng); speech not measured")

    bank = load_bank(ROOT / "content")
    question = bank.get(QUESTION)
    reference = spoken_text(question.model_answer, args.seconds)
    prompt = build_prompt(question, bank.glossary)
    with tempfile.TemporaryDirectory() as tmp:
        wav = speech_wav(Path(tmp) / "answer.wav", reference)
        seconds = wav_seconds(wav)
        audio = reencode(wav, "webm")
    print(f"{seconds:.1f} s of espeak-ng speech ({len(reference.split())} words), WebM/Opus {len(audio) / 1e3:.0f} kB, median of {args.runs} runs\n")
    print("| backend | time | real-time factor | CPU-time factor | model load | WER |")
    print("|---|---|---|---|---|---|")
    for model in ("tiny.en", "base"):
        if offline_available(model):
            measure(f"offline faster-whisper {model} (int8, 1 thread)", FasterWhisperTranscriber(model), audio, seconds, reference, prompt, args.runs)
        else:
            print(f"| offline {model} | not installed | | | | |")
    if args.endpoint:
        endpoint = OpenAITranscriber(base_url=args.endpoint, api_key=None, model=args.endpoint_model)
        measure(f"endpoint {args.endpoint}", endpoint, audio, seconds, reference, prompt, args.runs)
    elif offline_available("tiny.en"):
        server, url = local_endpoint("tiny.en")
        endpoint = OpenAITranscriber(base_url=url, api_key=None, model="tiny.en")
        measure("endpoint: local faster-whisper server (tiny.en)", endpoint, audio, seconds, reference, prompt, args.runs)
        server.should_exit = True


if __name__ == "__main__":
    main()
