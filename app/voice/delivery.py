"""Delivery figures from a transcript and its word timing: pure functions, no I/O.

These describe *how* an answer was said (pace, fillers, pauses). They are shown beside the
content score and never change it.

>>> words = [("So,", 0.0, 0.3), ("um,", 0.5, 0.7), ("all-reduce", 0.9, 1.5), ("sums", 4.0, 4.4), ("tensors.", 4.5, 5.0)]
>>> d = measure_delivery("So, um, all-reduce sums tensors.", words, duration=6.0)
>>> d.words, round(d.speaking_seconds, 1), [f.text for f in d.fillers], [round(p.seconds, 1) for p in d.pauses]
(5, 2.5, ['So', 'um'], [2.5])
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# Many speaking coaches aim for 100-165 words per minute in an interview: slower sounds
# hesitant, faster is hard to follow on technical content.
WPM_BAND = (100, 165)
# A gap of two seconds or more between words is one a listener notices; shorter ones read as
# ordinary breathing and phrasing.
LONG_PAUSE_SECONDS = 2.0
# Below this much speech a words-per-minute figure means nothing.
MIN_SPEAKING_SECONDS = 3.0

WordTiming = tuple[str, float, float]

_WORD = re.compile(r"[A-Za-z0-9][\w'’\-]*")
# Sounds and phrases that are fillers wherever they occur.
_ALWAYS = re.compile(
    r"(?<![\w'’-])(?:u+m+|u+h+m*|e+r+m+|e+r+|h+m+|m{2,}|a+h+|you know|i mean|basically|literally)(?![\w'’-])",
    re.IGNORECASE,
)
# "like" set off by commas or opening a sentence ("it's, like, fast"), not "looks like a ring".
_LIKE = re.compile(r"(?:^|[.!?]\s+)(like)(?![\w'’-])|(?<![\w'’-])(like)(?=\s*,)", re.IGNORECASE)
# "so" opening the answer, or opening a sentence with a comma after it ("So, the ring...").
_SO = re.compile(r"^\s*(so)(?![\w'’-])|[.!?]\s+(so)(?=\s*,)", re.IGNORECASE)


@dataclass(frozen=True)
class Filler:
    start: int  # character offsets into the transcript, for highlighting
    end: int
    text: str


@dataclass(frozen=True)
class Pause:
    start: float  # seconds from the start of the recording
    end: float
    after: str  # the word before the pause

    @property
    def seconds(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Delivery:
    duration: float  # length of the recording, seconds
    speaking_seconds: float  # first word to last word, less long pauses
    words: int
    wpm: float | None  # None when there is too little speech to say
    pace: str  # "slow", "in band", "fast" or "unknown"
    fillers: tuple[Filler, ...]
    pauses: tuple[Pause, ...]
    start_delay: float | None  # silence before the first word
    timed: bool  # False when the recognizer gave no word timing (pauses unknown)

    @property
    def fillers_per_minute(self) -> float | None:
        return len(self.fillers) / (self.speaking_seconds / 60) if self.speaking_seconds >= MIN_SPEAKING_SECONDS else None

    def as_dict(self) -> dict:
        return {
            "duration": round(self.duration, 2),
            "speaking_seconds": round(self.speaking_seconds, 2),
            "words": self.words,
            "wpm": round(self.wpm, 1) if self.wpm is not None else None,
            "wpm_band": list(WPM_BAND),
            "pace": self.pace,
            "filler_count": len(self.fillers),
            "fillers_per_minute": round(self.fillers_per_minute, 1) if self.fillers_per_minute is not None else None,
            "fillers": [{"start": f.start, "end": f.end, "text": f.text} for f in self.fillers],
            "long_pause_seconds": LONG_PAUSE_SECONDS,
            "pauses": [{"start": round(p.start, 2), "end": round(p.end, 2), "after": p.after} for p in self.pauses],
            "start_delay": round(self.start_delay, 2) if self.start_delay is not None else None,
            "timed": self.timed,
        }


def count_words(text: str) -> int:
    """
    >>> count_words("All-reduce, um, sums 2 tensors.")
    5
    """
    return len(_WORD.findall(text))


def find_fillers(text: str) -> list[Filler]:
    """Filler words and phrases with their character offsets, in order.

    >>> [f.text for f in find_fillers("So, um, it's, like, you know, fast. Things like NCCL.")]
    ['So', 'um', 'like', 'you know']
    """
    found: dict[int, Filler] = {}
    for m in _ALWAYS.finditer(text):
        found[m.start()] = Filler(m.start(), m.end(), m.group())
    for pattern in (_LIKE, _SO):
        for m in pattern.finditer(text):
            group = next(i for i in range(1, (m.lastindex or 0) + 1) if m.group(i) is not None)
            found.setdefault(m.start(group), Filler(m.start(group), m.end(group), m.group(group)))
    return [found[k] for k in sorted(found)]


def find_pauses(words: Sequence[WordTiming], *, min_seconds: float = LONG_PAUSE_SECONDS) -> list[Pause]:
    """Gaps of at least ``min_seconds`` between consecutive words."""
    out = []
    for (word, _, end), (_, start, _) in zip(words, words[1:]):
        if start - end >= min_seconds:
            out.append(Pause(end, start, word.strip()))
    return out


def speaking_time(words: Sequence[WordTiming], *, min_pause: float = LONG_PAUSE_SECONDS) -> float:
    """First word's start to last word's end, less the long pauses in between."""
    if not words:
        return 0.0
    span = max(0.0, words[-1][2] - words[0][1])
    return max(0.0, span - sum(p.seconds for p in find_pauses(words, min_seconds=min_pause)))


def words_per_minute(words: int, seconds: float) -> float | None:
    """
    >>> words_per_minute(150, 60.0), words_per_minute(3, 1.0)
    (150.0, None)
    """
    return words * 60.0 / seconds if seconds >= MIN_SPEAKING_SECONDS else None


def pace_of(wpm: float | None, *, band: tuple[int, int] = WPM_BAND) -> str:
    if wpm is None:
        return "unknown"
    return "slow" if wpm < band[0] else "fast" if wpm > band[1] else "in band"


def measure_delivery(text: str, words: Sequence[WordTiming], *, duration: float) -> Delivery:
    """All delivery figures for one transcript. Without word timing, the whole recording counts as
    speech; with no words at all, none of it does (a silent recording has no pace).

    >>> d = measure_delivery("", [], duration=10.0)
    >>> d.speaking_seconds, d.wpm, d.pace
    (0.0, None, 'unknown')
    """
    timed = bool(words)
    n = count_words(text)
    spoken = speaking_time(words) if timed else duration if n else 0.0
    wpm = words_per_minute(n, spoken)
    return Delivery(
        duration=duration,
        speaking_seconds=spoken,
        words=n,
        wpm=wpm,
        pace=pace_of(wpm),
        fillers=tuple(find_fillers(text)),
        pauses=tuple(find_pauses(words)) if timed else (),
        start_delay=words[0][1] if timed else None,
        timed=timed,
    )


def mark_fillers(text: str, fillers: Sequence[Filler]) -> list[tuple[str, bool]]:
    """The transcript cut into (piece, is_filler) for highlighting.

    >>> mark_fillers("so, um, yes", find_fillers("so, um, yes"))
    [('so', True), (', ', False), ('um', True), (', yes', False)]
    """
    out, pos = [], 0
    for f in fillers:
        if f.start < pos:
            continue
        if f.start > pos:
            out.append((text[pos:f.start], False))
        out.append((text[f.start:f.end], True))
        pos = f.end
    if pos < len(text):
        out.append((text[pos:], False))
    return out
