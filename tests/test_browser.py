"""The practice flow in a real headless Chromium against a real server.

Uses Debian's chromium (installed by .ci/run). Locally, without a browser, the tests are
skipped; with COACH_REQUIRE_BROWSER=1 (set by .ci/run) a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if not CHROMIUM:
    if os.environ.get("COACH_REQUIRE_BROWSER"):
        raise RuntimeError("COACH_REQUIRE_BROWSER is set but no chromium is installed")
    pytest.skip("no chromium on this machine", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright  # noqa: E402

pytestmark = pytest.mark.browser

CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


@pytest.fixture
def page(live_server):
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROME_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
        pg = context.new_page()
        pg.set_default_timeout(15_000)
        pg.base = live_server
        yield pg
        context.close()
        browser.close()


ANSWER = ("Tensor parallelism splits each layer's weight matrices across GPUs, so every layer needs an all-reduce "
          "to combine the partial results. Pipeline parallelism assigns groups of layers to stages on different GPUs "
          "and passes activations point-to-point; micro-batches keep the stages busy but there is a bubble while the "
          "pipeline fills and drains. Keep tensor parallelism inside a node on NVLink and use pipeline parallelism across nodes over InfiniBand.")


def test_practice_flow_draft_submit_feedback_history(page):
    base = page.base
    page.goto(base + "/")
    page.get_by_role("searchbox").fill("pipeline")
    expect(page.locator("#question-list")).to_contain_text("Tensor")
    page.locator('#question-list a[href$="/questions/tensor-vs-pipeline-parallelism"]').click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("ipeline")

    box = page.locator("#answer")
    box.fill(ANSWER[:60])
    page.wait_for_timeout(500)
    page.reload()
    expect(box).to_have_value(ANSWER[:60])  # draft kept across reloads
    box.fill(ANSWER)
    expect(page.locator("#timer")).not_to_have_text("–:––")

    url_before = page.url
    page.get_by_role("button", name="Get feedback").click()
    feedback = page.locator(".feedback[data-status=graded]")
    expect(feedback).to_be_visible(timeout=60_000)
    assert page.url == url_before, "feedback is swapped in without a page load"
    score = int(feedback.locator(".score-value").inner_text())
    assert 30 <= score <= 100
    expect(feedback.locator('[data-checkpoint-id="tp-definition"]')).to_have_attribute("data-state", "covered")
    assert feedback.locator("mark.evidence").count() >= 2
    feedback.get_by_text("Show a model answer").click()
    expect(feedback.locator(".model-answer-text")).to_be_visible()
    expect(box).to_have_value(ANSWER)

    page.reload()
    expect(box).to_have_value("")  # the draft is cleared once the answer is saved
    page.get_by_role("link", name="History").click()
    rows = page.locator("#history-rows tbody tr")
    expect(rows).to_have_count(1)
    rows.first.get_by_role("link").click()
    expect(page.locator(".feedback .score-value")).to_have_text(str(score))
    page.screenshot(path=os.environ.get("COACH_SCREENSHOT", "/tmp/coach-feedback.png"), full_page=True)


def test_empty_submit_shows_error_and_keeps_page(page):
    page.goto(page.base + "/questions/allreduce-deep-dive")
    page.locator("textarea[name=answer]").evaluate("el => el.removeAttribute('required')")
    page.locator("textarea[name=answer]").fill("   ")
    page.get_by_role("button", name="Get feedback").click()
    expect(page.locator("#feedback [role=alert]")).to_contain_text("empty")


def test_draft_typed_just_before_submitting_does_not_come_back(page):
    """The draft save waits 300 ms after the last keystroke; a submit inside that window must
    still leave no draft behind once the answer is stored."""
    page.goto(page.base + "/questions/allreduce-deep-dive")
    box = page.locator("#answer")
    box.fill("Every GPU ends with the sum.")  # a first answer warms the grader up, so the next reply is quick
    page.get_by_role("button", name="Get feedback").click()
    expect(page.locator(".feedback[data-status=graded]")).to_be_visible(timeout=60_000)
    page.goto(page.base + "/questions/allreduce-deep-dive")
    box.fill("All-reduce leaves the sum of every GPU's tensor on every GPU; NCCL does it with a ring.")
    page.get_by_role("button", name="Get feedback").click()  # at once: the draft save is still pending
    expect(page.locator(".feedback[data-status=graded]")).to_be_visible(timeout=60_000)
    page.wait_for_timeout(600)  # past the draft save's delay
    page.reload()
    expect(box).to_have_value("")


def test_back_after_a_search_shows_the_whole_page(page):
    page.goto(page.base + "/")
    search = page.get_by_role("searchbox")
    for q in ("pip", "pipe", "pipeline"):
        search.fill(q)
        page.wait_for_timeout(400)
    expect(page.locator("#question-list")).to_contain_text("Tensor")
    assert "q=pipeline" in page.url
    assert page.evaluate("history.length") <= 2, "typing replaces the URL instead of piling up history"
    page.locator('#question-list a[href$="/questions/tensor-vs-pipeline-parallelism"]').click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("ipeline")
    page.go_back()
    expect(page.get_by_role("searchbox")).to_have_value("pipeline")
    expect(page.locator("header nav")).to_be_visible()
    expect(page.locator("#question-list")).to_contain_text("Tensor")


def test_after_submitting_focus_is_on_the_feedback_and_the_clock_stops(page):
    page.goto(page.base + "/questions/allreduce-deep-dive")
    page.locator("#answer").fill("All-reduce leaves the sum of every GPU's tensor on every GPU.")
    page.get_by_role("button", name="Get feedback").click()
    feedback = page.locator("#feedback .feedback[data-status=graded]")
    expect(feedback).to_be_visible(timeout=60_000)
    expect(feedback).to_be_focused()
    shown = page.locator("#timer").inner_text()
    page.wait_for_timeout(1500)
    assert page.locator("#timer").inner_text() == shown, "the clock stopped with the answer"
    assert page.locator("#timer").get_attribute("aria-live") == "off"
