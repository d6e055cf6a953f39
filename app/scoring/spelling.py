"""Misspelt words read as the rubric word they stand for.

Typed answers and children's science answers misspell the very words the rubric turns on
('circut', 'postive', 'seperated', 'buld'); the sentence encoder then sees a different word
piece sequence and the clause drifts away from the reference. A word that is no English word
(pyspellchecker's bundled frequency list, read offline) and lies one edit (two, for long words)
from exactly one of the rubric's own words is read as that word. Real words are never changed
('heater' stays 'heater' though the rubric says 'water'), nor are British spellings of them
('optimiser'), forms of them ('sharded'), or the glossary's words, which the caller adds to
the known words ('tensorrt' is no slip of 'tensor'). Without the word list nothing is respelt.
"""

from __future__ import annotations

import gzip
import logging
import re
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Container, Iterable
from functools import lru_cache
from importlib import resources

import numpy as np
from rapidfuzz.distance import OSA

from app.scoring.text import stem

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
log = logging.getLogger(__name__)
# Fewer words than this: not the list the package ships (a changed format, a cut file).
MIN_WORDS = 100_000


class WordList:
    """A large word list held as sorted 32-bit checksums (0.6 MB for 160,000 words, instead of
    the tens of MB a set of strings takes); a misspelling that shares a checksum with a real
    word (about one in 27,000) is merely left as written."""

    def __init__(self, words: Iterable[str]):
        # A plain array of C integers: a bisection there costs a microsecond; NumPy's searchsorted
        # spends several on each call's overhead (a clause asks about each of its long words).
        if array("I").itemsize != 4:  # every platform CPython targets, but say so rather than misread
            raise RuntimeError("the word list needs 4-byte unsigned integers for its crc32 checksums")
        self._sums = array("I", np.unique(np.fromiter((zlib.crc32(w.encode()) for w in words), dtype=np.uint32)).tobytes())

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        key = zlib.crc32(word.encode())
        i = bisect_left(self._sums, key)
        return i < len(self._sums) and self._sums[i] == key

    def __len__(self) -> int:
        return len(self._sums)


@lru_cache(maxsize=1)
def english_words() -> WordList:
    """Every word of pyspellchecker's English frequency list (read once per process, offline),
    or an empty list, logged, when it cannot be read: then no word is respelt."""
    try:
        words = WordList(_json_keys(resources.files("spellchecker") / "resources" / "en.json.gz"))
    except (ImportError, OSError, EOFError, UnicodeDecodeError, zlib.error) as err:
        log.warning("no English word list, misspellings are read as written: %s", err)
        return WordList(())
    if len(words) < MIN_WORDS:
        log.warning("the English word list holds only %d words; misspellings are read as written", len(words))
        return WordList(())
    return words


def _json_keys(path) -> Iterable[str]:
    """The keys of a flat gzipped JSON object of words, read in small pieces (the whole text
    would briefly cost more memory than the list it gives)."""
    key = re.compile(r'"([^"\\]+)":')
    with path.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as f:
        tail = ""
        while chunk := f.read(1 << 16):
            text = tail + chunk
            cut = text.rfind(",") + 1
            yield from (m.group(1) for m in key.finditer(text, 0, cut))
            tail = text[cut:]
        yield from (m.group(1) for m in key.finditer(tail))


def _reach(word: str) -> int:
    """How many slips a word of this length may hold and still be read as another."""
    return 0 if len(word) < 4 else 1 if len(word) < 8 else 2


_ENDINGS = frozenset({"", "s", "es", "d", "ed", "r", "er", "ing", "e", "ly"})


def _forms_of_one_word(a: str, b: str) -> bool:
    """'profiler' and 'profile', 'synchronises' and 'synchronised': one word, two endings."""
    if stem(a) == stem(b):
        return True
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[n:] in _ENDINGS and b[n:] in _ENDINGS


# British spellings and word forms of a known word: 'optimiser', 'colour', 'sharded', 'batches'.
_BRITISH = ((re.compile(r"is(e|es|ed|ing|er|ers|ation|ations)$"), r"iz\1"), (re.compile(r"yse(s|d)?$"), r"yze\1"),
            (re.compile(r"our(s)?$"), r"or\1"), (re.compile(r"tre(s)?$"), r"ter\1"))
_FORM = re.compile(r"(?:ed|ing|es|s|er|ers)$")


def is_known(word: str, known: Container[str]) -> bool:
    """Whether ``word`` is a known word, a British spelling of one or another form of one.

    >>> is_known("optimiser", {"optimizer"}), is_known("sharded", {"shard"}), is_known("circut", {"circuit"})
    (True, True, False)
    """
    if word in known:
        return True
    if any(rx.search(word) and rx.sub(us, word) in known for rx, us in _BRITISH):
        return True
    base = _FORM.sub("", word)
    return len(base) >= 4 and base != word and (base in known or base + "e" in known)


# Long enough to be a British spelling, not another word: 'colour' but not 'four' or 'our'.
_BRITISH_MIN = 6
# Words spelt '-ise' in American English too, whose '-ize' forms are archaic ones in the list.
_ALWAYS_ISE = re.compile(r"^(?:expertise|surprise|merchandise|apprise)")


def american(word: str, known: Container[str]) -> str | None:
    """The American spelling of a British one ('optimise', 'colour', 'centre', 'analysed'), when it is
    a known word; else None.

    >>> american("optimised", {"optimized"}), american("colour", {"color"}), american("four", {"for"}), american("precise", {"the"})
    ('optimized', 'color', None, None)
    """
    if len(word) < _BRITISH_MIN or _ALWAYS_ISE.match(word):
        return None
    for rx, us in _BRITISH:
        if rx.search(word):
            spelt = rx.sub(us, word)
            if spelt in known:
                return spelt
    return None


def respell(text: str, targets: frozenset[str], known: Container[str]) -> str:
    """``text`` (lower case) with each British spelling spelt the American way, and each unknown
    word that lies within reach of exactly one ``targets`` word replaced by it.

    >>> respell("the circut is open", frozenset({"circuit", "closed"}), frozenset({"the", "is", "open", "circus"}))
    'the circuit is open'
    >>> respell("the heater is on", frozenset({"water"}), frozenset({"the", "heater", "is", "on"}))
    'the heater is on'
    >>> respell("we optimised the behaviour", frozenset(), frozenset({"we", "the", "optimized", "behavior"}))
    'we optimized the behavior'
    """

    def fix(m: re.Match) -> str:
        word = m.group(0)
        if word in targets:
            return word  # the rubric's own spelling, British or not
        us = american(word, known)
        if us is not None:
            return us  # compared as the rubric (and MiniLM's training text) mostly spell it
        reach = _reach(word)
        if not reach or "'" in word or is_known(word, known):
            return word
        # A slip keeps the first letter ('buld', 'circut') or swaps it with the second ('apth'); a
        # different first letter is another name ('gelu' is no 'relu'); another form of the same
        # word is read by the stemmer already. Two letters swapped are one slip ('seperate', 'teh').
        near = {t for t in targets if (t[0] == word[0] or (t[0] == word[1] and t[1] == word[0])) and abs(len(t) - len(word)) <= reach
                and OSA.distance(word, t, score_cutoff=reach) <= reach}
        if len(near) != 1:
            return word
        target = near.pop()
        return word if _forms_of_one_word(word, target) else target

    return _WORD.sub(fix, text)


# A run of single letters, as a transcriber writes an acronym said letter by letter ('the m l p
# is split'); never the 'a' of "it's a".
_LETTER_RUN = re.compile(r"(?<![\w'])(?:[a-z][\s\-]+){1,5}[a-z](?![\w'])")


def join_spelt(text: str, acronyms: frozenset[str]) -> str:
    """``text`` (lower case) with each run of single letters that spells one of ``acronyms`` (the
    rubric's short words) written as that word; an article or 'i' before it stays a word.

    >>> join_spelt("so the m l p is split and a k v block moves", frozenset({"mlp", "kv"}))
    'so the mlp is split and a kv block moves'
    >>> join_spelt("bulbs a b and c", frozenset({"mlp"}))
    'bulbs a b and c'
    """

    def join(m: re.Match) -> str:
        letters = re.findall(r"[a-z]", m.group())
        word = "".join(letters)
        if word in acronyms:
            return word
        if letters[0] in "ai" and len(letters) > 2 and word[1:] in acronyms:
            return letters[0] + " " + word[1:]
        return m.group()

    return _LETTER_RUN.sub(join, text)


def acronym_targets(texts: list[str]) -> frozenset[str]:
    """The rubric's short words (two to six letters) that a run of spoken letters can spell."""
    return frozenset(w for t in texts for w in _WORD.findall(t.lower()) if 2 <= len(w) <= 6)


def rubric_targets(texts: list[str]) -> frozenset[str]:
    """The surface words of the rubric (lower case, four letters or more) a misspelling can stand for."""
    return frozenset(w for t in texts for w in _WORD.findall(t.lower()) if len(w) >= 4)
