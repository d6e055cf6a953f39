"""Decode what a browser records (WebM/Opus, Ogg, WAV, MP4/AAC, ...) to 16 kHz mono float32.

PyAV's wheels carry their own FFmpeg libraries, so no system ffmpeg is needed. PyAV comes with
the ``voice`` extra; without it, nothing here can run and callers say so.
"""

from __future__ import annotations

import importlib.util
import io

import numpy as np

from app.errors import AudioRejected, TranscriptionUnavailable

SAMPLE_RATE = 16_000  # what Whisper models expect


def decoder_available() -> bool:
    return importlib.util.find_spec("av") is not None


def check_size(data: bytes, *, max_bytes: int) -> None:
    if not data:
        raise AudioRejected("The recording is empty: nothing was captured. Check the microphone and record again.")
    if len(data) > max_bytes:
        raise AudioRejected(too_large_message(max_bytes), status=413)


def too_large_message(max_bytes: int) -> str:
    return f"The recording is larger than the {max_bytes / 1e6:.3g} MB limit. Record a shorter answer."


def too_long(seconds: float, max_seconds: float) -> AudioRejected:
    return AudioRejected(
        f"The recording is longer than {_mmss(max_seconds)} (the limit). Record a shorter answer, or type it.",
        status=413,
    )


def decode_audio(data: bytes, *, max_seconds: float) -> np.ndarray:
    """Samples of the first audio stream, resampled to 16 kHz mono float32 in [-1, 1].

    Raises ``AudioRejected`` for empty or unreadable input, input without an audio track, and
    audio longer than ``max_seconds`` (decoding stops there, so a tiny file that claims hours
    of audio costs no more than ``max_seconds`` of work).
    """
    if not data:
        raise AudioRejected("The recording is empty: nothing was captured. Check the microphone and record again.")
    try:
        import av
    except ImportError:
        raise TranscriptionUnavailable("Audio decoding needs the voice extra: pip install '.[voice]'.") from None
    limit = int(max_seconds * SAMPLE_RATE)
    chunks: list[np.ndarray] = []
    total = 0
    try:
        with av.open(io.BytesIO(data), mode="r") as container:
            if not container.streams.audio:
                raise AudioRejected("The file has no audio track. Upload a recording (WebM, Ogg, WAV, MP3 or M4A).")
            stream = container.streams.audio[0]
            resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
            for frame in container.decode(stream):
                for out in resampler.resample(frame):
                    chunk = out.to_ndarray().reshape(-1)
                    chunks.append(chunk)
                    total += chunk.size
                if total > limit:
                    raise too_long(total / SAMPLE_RATE, max_seconds)
            for out in resampler.resample(None):
                chunks.append(out.to_ndarray().reshape(-1))
    except AudioRejected:
        raise
    except (av.FFmpegError, ValueError, EOFError, OSError, IndexError) as err:
        raise AudioRejected(
            "This file is not audio the app can read. Record again in the browser, or upload WebM, Ogg, WAV, MP3 or M4A."
        ) from err
    samples = np.concatenate(chunks).astype(np.float32, copy=False) if chunks else np.zeros(0, np.float32)
    if samples.size == 0:
        raise AudioRejected("The recording contains no sound. Check the microphone and record again.")
    if samples.size > limit:
        raise too_long(samples.size / SAMPLE_RATE, max_seconds)
    return samples


def _mmss(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def replayable(data: bytes) -> bytes:
    """The recording ready to keep for replay. MediaRecorder's WebM has no duration in its header,
    so players show 0:00 and cannot seek; copying its packets into a new WebM (no re-encoding)
    writes one. Anything else, or anything that fails here, is kept as uploaded."""
    try:
        import av

        with av.open(io.BytesIO(data), mode="r") as src:
            if "webm" not in src.format.name or src.duration is not None or not src.streams.audio:
                return data
            out = io.BytesIO()
            with av.open(out, mode="w", format="webm") as dst:
                source = src.streams.audio[0]
                target = dst.add_stream_from_template(source)
                for packet in src.demux(source):
                    if packet.dts is None:  # the flush packet at the end
                        continue
                    packet.stream = target
                    dst.mux(packet)
        return out.getvalue()
    except Exception:  # replay is a nicety; never lose the recording over it
        return data
