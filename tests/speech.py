"""Known speech for the voice tests: espeak-ng reads a text into a WAV, optionally with a silence
between two parts, and PyAV re-encodes it into the containers browsers record.

espeak-ng is a Debian package (.ci/run installs it). Without it the tests that need speech are
skipped locally; with COACH_REQUIRE_BROWSER=1 (set by .ci/run) a missing espeak-ng is a failure.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

ESPEAK = shutil.which("espeak-ng")
WORDS_PER_MINUTE = 150  # espeak-ng's -s option


def require_espeak() -> str:
    if ESPEAK:
        return ESPEAK
    if os.environ.get("COACH_REQUIRE_BROWSER"):
        raise RuntimeError("COACH_REQUIRE_BROWSER is set but espeak-ng is not installed (apt-get install espeak-ng)")
    pytest.skip("espeak-ng is not installed")


def speak(text: str, *, rate: int = WORDS_PER_MINUTE) -> tuple[bytes, int]:
    """16-bit mono PCM frames of ``text`` read by espeak-ng, and their sample rate."""
    out = subprocess.run([require_espeak(), "-v", "en-us", "-s", str(rate), "--stdout", text], check=True, capture_output=True).stdout
    with wave.open(io.BytesIO(out)) as w:
        return w.readframes(w.getnframes()), w.getframerate()


def speech_wav(path: Path, *parts: str, gap_seconds: float = 0.0, lead_seconds: float = 0.0) -> Path:
    """A WAV of the parts read in turn, with ``gap_seconds`` of silence between them."""
    frames, rate = b"", 22050
    for i, text in enumerate(parts):
        pcm, rate = speak(text)
        if i:
            frames += b"\x00\x00" * int(gap_seconds * rate)
        frames += pcm
    frames = b"\x00\x00" * int(lead_seconds * rate) + frames
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
    return path


def wav_seconds(path: Path) -> float:
    with wave.open(str(path)) as w:
        return w.getnframes() / w.getframerate()


def reencode(wav: Path, container: str) -> bytes:
    """The WAV re-encoded as a browser would record it: webm/ogg (Opus) or mp4 (AAC), at 48 kHz."""
    import av

    codec = {"webm": "libopus", "ogg": "libopus", "mp4": "aac"}[container]
    out = io.BytesIO()
    with av.open(str(wav)) as src, av.open(out, mode="w", format=container) as dst:
        stream = dst.add_stream(codec, rate=48000, layout="mono")
        resampler = av.AudioResampler(format=stream.format.name, layout="mono", rate=48000)
        for frame in src.decode(audio=0):
            for f in resampler.resample(frame):
                for packet in stream.encode(f):
                    dst.mux(packet)
        for f in resampler.resample(None):
            for packet in stream.encode(f):
                dst.mux(packet)
        for packet in stream.encode(None):
            dst.mux(packet)
    return out.getvalue()
