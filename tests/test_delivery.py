"""Delivery figures: pure functions over a transcript and its word timing."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.voice import delivery
from app.voice.delivery import (
    LONG_PAUSE_SECONDS,
    find_fillers,
    find_pauses,
    mark_fillers,
    measure_delivery,
    pace_of,
    speaking_time,
    words_per_minute,
)


def test_doctests():
    assert doctest.testmod(delivery).failed == 0


@pytest.mark.parametrize(
    "text, fillers",
    [
        ("Um, the ring all-reduce, uh, runs in two phases.", ["Um", "uh"]),
        ("So, the ring is fast.", ["So"]),
        ("So the ring is fast.", ["So"]),  # opening the answer
        ("It is fast. So it wins.", []),  # a connective mid-answer, no comma: not counted
        ("It is fast. So, it wins.", ["So"]),
        ("It's, like, really fast.", ["like"]),
        ("Like, it overlaps compute.", ["Like"]),
        ("It looks like a ring. Tools like NCCL pick one.", []),
        ("You know, it is, I mean, basically a ring.", ["You know", "I mean", "basically"]),
        ("Hmm. Umm, er, erm, ah, mm.", ["Hmm", "Umm", "er", "erm", "ah", "mm"]),
        ("Summary: the umbrella term is humming along.", []),  # filler sounds inside words do not count
    ],
)
def test_find_fillers(text, fillers):
    found = find_fillers(text)
    assert [f.text for f in found] == fillers
    assert all(text[f.start:f.end] == f.text for f in found)


def test_pauses_and_speaking_time():
    words = [("a", 0.5, 1.0), ("b", 1.2, 1.5), ("c", 4.0, 4.5), ("d", 4.6, 5.0)]
    pauses = find_pauses(words)
    assert [(p.start, p.end, p.after) for p in pauses] == [(1.5, 4.0, "b")]
    assert speaking_time(words) == pytest.approx(4.5 - 2.5)
    assert find_pauses(words, min_seconds=3.0) == []
    assert speaking_time([]) == 0.0


def test_pace_band_edges():
    assert [pace_of(w) for w in (None, 99.9, 100, 165, 165.1)] == ["unknown", "slow", "in band", "in band", "fast"]
    assert words_per_minute(10, 2.0) is None  # too little speech to say


def test_without_word_timing_the_recording_counts_as_speech():
    d = measure_delivery("Um, all-reduce sums tensors across GPUs.", [], duration=3.0)
    assert d.timed is False and d.pauses == () and d.start_delay is None
    assert d.speaking_seconds == 3.0 and d.wpm == pytest.approx(6 * 20)
    assert d.as_dict()["filler_count"] == 1


def test_as_dict_is_json_ready():
    import json

    d = measure_delivery("So, um, yes.", [("So,", 0.0, 0.2), ("um,", 0.4, 0.6), ("yes.", 3.0, 3.4)], duration=4.0)
    out = json.loads(json.dumps(d.as_dict()))
    assert out["pauses"] == [{"start": 0.6, "end": 3.0, "after": "um,"}] and out["long_pause_seconds"] == LONG_PAUSE_SECONDS
    assert out["wpm"] is None and out["pace"] == "unknown"  # 0.8 s of speech


words_st = st.lists(st.tuples(st.floats(0, 5), st.floats(0, 5)), max_size=30).map(
    lambda gaps: [(f"w{i}", *pair) for i, pair in enumerate(_timeline(gaps))]
)


def _timeline(gaps):
    t, out = 0.0, []
    for silence, length in gaps:
        start = t + silence
        out.append((start, start + length))
        t = start + length
    return out


@given(words_st)
def test_speaking_time_never_exceeds_the_span(words):
    spoken = speaking_time(words)
    span = words[-1][2] - words[0][1] if words else 0.0
    assert 0.0 <= spoken <= span + 1e-9
    assert all(p.seconds >= LONG_PAUSE_SECONDS for p in find_pauses(words))


@given(st.text(alphabet=st.sampled_from(list("umhe ,.likeyounwsoUS")), max_size=80))
def test_marking_fillers_keeps_the_text(text):
    pieces = mark_fillers(text, find_fillers(text))
    assert "".join(p for p, _ in pieces) == text
