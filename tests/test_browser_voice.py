"""Answering aloud in a real headless Chromium: its fake microphone plays a WAV that espeak-ng made
from known text; the page records it, uploads it, the real offline recognizer transcribes it, and
the user edits the transcript and submits.

Skipped locally without chromium, espeak-ng or the voice extra; with COACH_REQUIRE_BROWSER=1
(set by .ci/run) a missing one is a failure.
"""

from __future__ import annotations

import os
import re

import pytest

from app.voice.transcribe import offline_available
from tests.speech import require_espeak, speech_wav
from tests.test_browser import CHROME_ARGS, CHROMIUM  # skips the module when there is no chromium

if not offline_available():
    if os.environ.get("COACH_REQUIRE_BROWSER"):
        raise RuntimeError("COACH_REQUIRE_BROWSER is set but the voice extra is not installed (pip install '.[voice]')")
    pytest.skip("the voice extra is not installed", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402

pytestmark = pytest.mark.browser

SPOKEN = "An all-reduce sums the gradients from every GPU. Inside a node it runs over NVLink."
FAKE_MIC = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]


@pytest.fixture
def launch(live_server):
    """Open a phone-sized page with extra Chromium flags; closes everything afterwards."""
    with sync_playwright() as pw:
        browsers = []

        def open_page(flags):
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROME_ARGS + flags)
            browsers.append(browser)
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            page.set_default_timeout(15_000)
            page.base = live_server
            return page

        yield open_page
        for browser in browsers:
            browser.close()


def test_record_transcribe_edit_and_submit(launch, tmp_path):
    require_espeak()
    wav = speech_wav(tmp_path / "mic.wav", SPOKEN)
    page = launch(FAKE_MIC + [f"--use-file-for-fake-audio-capture={wav}%noloop"])
    page.goto(page.base + "/questions/allreduce-deep-dive")
    box = page.locator("textarea[name=answer]")

    page.get_by_role("button", name="Record answer").click()
    stop = page.get_by_role("button", name="Stop")
    expect(stop).to_be_visible()
    page.wait_for_function("document.getElementById('record-level').value > 0.01")  # the meter hears the speech
    expect(page.locator("#record-timer")).to_have_text(re.compile(r"0:0[6-9]"), timeout=12_000)
    stop.click()
    expect(page.get_by_role("button", name="Get feedback")).to_be_disabled()  # not while the take is transcribed

    expect(box).to_have_value(re.compile(r"nv ?link", re.I), timeout=60_000)
    expect(page.get_by_role("button", name="Get feedback")).to_be_enabled()
    expect(page.locator("#voice-status")).to_contain_text("Transcript ready")
    expect(page.locator("#voice-delivery")).to_contain_text("wpm")
    expect(page.locator("#record-playback")).to_be_visible()
    expect(page.get_by_role("button", name="Re-record")).to_be_visible()
    assert page.locator("#recording_id").input_value()
    # Replay uses the server's kept copy, which knows its length (a raw browser recording does not).
    assert page.locator("#record-playback").evaluate("a => a.src").endswith(f"/recordings/{page.locator('#recording_id').input_value()}/audio")
    page.wait_for_function("(a => isFinite(a.duration) && a.duration > 3)(document.getElementById('record-playback'))")

    box.fill(box.input_value() + " Across nodes it goes over InfiniBand, which is slower, so tensor parallelism stays inside a node.")
    page.get_by_role("button", name="Get feedback").click()
    expect(page.locator(".feedback[data-status=graded]")).to_be_visible(timeout=30_000)
    assert page.locator("#recording_id").input_value() == ""  # used by this attempt

    page.get_by_role("link", name="Permanent link to this attempt").click()
    recording = page.locator("#recording")
    expect(recording.locator("audio")).to_have_count(1)
    expect(recording.locator("[data-figure=wpm]")).to_contain_text("wpm")
    assert page.evaluate("fetch(document.querySelector('#recording audio').src).then(r => r.status)") == 200
    # The kept WebM carries its duration, so the player shows the length and can seek.
    page.wait_for_function("(a => isFinite(a.duration) && a.duration > 5)(document.querySelector('#recording audio'))")
    expect(page.locator(".feedback .answer-text, .feedback").first).to_contain_text("InfiniBand")
    page.screenshot(path=os.environ.get("COACH_VOICE_SCREENSHOT", "/tmp/coach-voice.png"), full_page=True)

    page.once("dialog", lambda dialog: dialog.accept())
    recording.get_by_role("button", name="Delete recording").click()
    expect(page.locator("#recording")).to_contain_text("audio is not kept")
    expect(page.locator("#recording audio")).to_have_count(0)


def test_a_new_take_replaces_the_earlier_one_and_undo_brings_edits_back(launch, tmp_path):
    require_espeak()
    wav = speech_wav(tmp_path / "mic.wav", "Pipeline parallelism passes activations between stages.")
    page = launch(FAKE_MIC + [f"--use-file-for-fake-audio-capture={wav}"])  # looping: every take hears it
    page.goto(page.base + "/questions/tensor-vs-pipeline-parallelism")
    box = page.locator("textarea[name=answer]")
    box.fill("Typed intro.")

    def take():
        page.get_by_role("button", name=re.compile("Record answer|Re-record")).click()
        expect(page.locator("#voice[data-state=recording]")).to_be_visible()
        expect(page.locator("#record-timer")).to_have_text(re.compile(r"0:0[3-9]"), timeout=12_000)
        page.get_by_role("button", name="Stop").click()
        expect(page.locator("#voice[data-state=done]")).to_be_visible(timeout=60_000)

    take()
    first = box.input_value()
    assert first.startswith("Typed intro.\n\n") and re.search("activations", first, re.I)
    box.fill(first + " EDITED BY HAND")
    take()
    second = box.input_value()
    assert second.startswith("Typed intro.\n\n") and "EDITED BY HAND" not in second
    assert len(re.findall("activations", second, re.I)) <= len(re.findall("activations", first, re.I)), "one take, not two"
    expect(page.locator("#voice-status")).to_contain_text("Undo")
    page.get_by_role("button", name=re.compile("^Undo")).click()
    expect(box).to_have_value(first + " EDITED BY HAND")


def test_refused_microphone_is_explained(launch):
    page = launch(["--use-fake-device-for-media-stream"])  # no auto-accept: the permission request is refused
    page.goto(page.base + "/questions/allreduce-deep-dive")
    page.get_by_role("button", name="Record answer").click()
    expect(page.locator("#voice-status")).to_contain_text("Microphone access was refused")
    expect(page.get_by_role("button", name="Record answer")).to_be_visible()
    expect(page.locator("textarea[name=answer]")).to_be_editable()  # typing stays available


def test_missing_microphone_is_explained(launch):
    page = launch(["--use-fake-ui-for-media-stream"])  # accepts, but this machine has no microphone
    page.goto(page.base + "/questions/allreduce-deep-dive")
    page.get_by_role("button", name="Record answer").click()
    expect(page.locator("#voice-status")).to_contain_text(re.compile("No microphone was found|could not be started"))
