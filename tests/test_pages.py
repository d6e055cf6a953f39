"""Pages over HTTP: full pages, htmx fragments, and the no-JavaScript fallbacks."""

from __future__ import annotations

import re

import pytest


def _new_attempt_id(client) -> str:
    res = client.post("/questions/allreduce-deep-dive/attempts", data={"answer": "The sum of every GPU's tensor ends up on every GPU."}, follow_redirects=False)
    assert res.status_code == 303
    return res.headers["location"].rsplit("/", 1)[1]


# One table for the htmx contract: the same URL gives the full page or the fragment.
HTMX_ROUTES = [
    ("/", 'id="question-list"', "<html"),
    ("/?q=bubble", "Pipeline", None),
    ("/history", 'id="history-rows"', "<html"),
    ("/attempts/{attempt}", 'class="feedback"', "<html"),
]


@pytest.mark.parametrize("url,marker,full_only", HTMX_ROUTES)
def test_htmx_contract(client, url, marker, full_only):
    url = url.replace("{attempt}", _new_attempt_id(client)) if "{attempt}" in url else url
    full = client.get(url)
    frag = client.get(url, headers={"HX-Request": "true"})
    assert full.status_code == frag.status_code == 200
    assert "<html" in full.text and "<html" not in frag.text
    assert marker in full.text
    if full_only:
        assert full_only in full.text
    boosted = client.get(url, headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert "<html" in boosted.text
    # Back/forward after htmx's history cache missed: the whole page, never a bare fragment.
    restore = client.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in restore.text
    assert "HX-Request" in full.headers["vary"] and "HX-Request" in frag.headers["vary"]  # caches keep them apart


def test_home_lists_questions_by_topic_and_filters(client):
    page = client.get("/").text
    assert "Distributed training" in page and "Inference optimization" in page
    frag = client.get("/?q=all-reduce&topic=distributed-training", headers={"HX-Request": "true"}).text
    assert "Inference optimization" not in frag
    none = client.get("/?q=zzzzqqq").text
    assert "No question matches" in none


def test_practice_page_has_prompt_timer_and_form(client):
    page = client.get("/questions/tensor-vs-pipeline-parallelism").text
    assert "Compare tensor parallelism and pipeline parallelism" in page
    assert 'hx-post="/questions/tensor-vs-pipeline-parallelism/attempts"' in page
    assert 'action="/questions/tensor-vs-pipeline-parallelism/attempts"' in page and 'method="post"' in page
    assert 'id="timer"' in page and 'name="answer"' in page
    assert client.get("/questions/nope").status_code == 404


def test_submit_with_htmx_swaps_feedback(client):
    answer = ("Tensor parallelism splits each layer's weight matrices across GPUs and needs an all-reduce in every layer. "
              "Pipeline parallelism puts groups of layers on different GPUs and sends activations point-to-point.")
    res = client.post("/questions/tensor-vs-pipeline-parallelism/attempts", data={"answer": answer, "duration_seconds": "61"}, headers={"HX-Request": "true"})
    assert res.status_code == 200 and "<html" not in res.text
    assert res.headers["HX-Trigger"] == "attempt-saved"
    assert 'data-status="graded"' in res.text
    assert re.search(r'data-checkpoint-id="tp-definition" data-state="(covered|partial)"', res.text)
    assert "<mark" in res.text, "evidence is highlighted in the answer"
    assert "Show a model answer" in res.text and "Follow-up to try next" in res.text
    assert "1:01" in res.text


def test_submit_without_javascript_redirects_to_attempt(client):
    attempt = _new_attempt_id(client)
    page = client.get(f"/attempts/{attempt}")
    assert page.status_code == 200 and "Permanent link" in page.text
    history = client.get("/history").text
    assert f"/attempts/{attempt}" in history
    beyond = client.get("/history?page=50").text
    assert "past the end" in beyond and "No attempts yet" not in beyond


def test_empty_and_huge_answers_keep_the_text(client):
    empty = client.post("/questions/allreduce-deep-dive/attempts", data={"answer": "  "})
    assert empty.status_code == 422 and "empty" in empty.text and 'name="answer"' in empty.text
    huge_text = "all-reduce " * 100_000
    huge = client.post("/questions/allreduce-deep-dive/attempts", data={"answer": huge_text})
    assert huge.status_code == 413
    assert huge_text[:5000] in huge.text, "the answer is given back in the form"
    frag = client.post("/questions/allreduce-deep-dive/attempts", data={"answer": ""}, headers={"HX-Request": "true"})
    assert frag.status_code == 422 and "<html" not in frag.text and 'role="alert"' in frag.text


def test_unknown_pages_and_attempts_get_error_pages(client):
    res = client.get("/attempts/doesnotexist")
    assert res.status_code == 404 and "Attempt not found" in res.text and "<html" in res.text
    frag = client.get("/attempts/doesnotexist", headers={"HX-Request": "true"})
    assert frag.status_code == 404 and "<html" not in frag.text
    assert client.get("/nowhere").status_code == 404


def test_static_assets_are_vendored(client):
    page = client.get("/").text
    assert "/static/vendor/htmx-2.0.11.min.js" in page and "https://" not in page.split("<body", 1)[0]
    assert client.get("/static/vendor/htmx-2.0.11.min.js").status_code == 200
    assert client.get("/static/vendor/pico-2.1.1.min.css").status_code == 200


def test_feedback_quotes_every_clause_that_earned_a_point(client):
    said = ("TensorRT does graph optimization, layer fusion and INT8 calibration, and builds an engine for the target GPU. "
            "cuDNN supplies tuned primitives such as convolutions. DALI moves decoding and augmentation onto the GPU.")
    res = client.post("/questions/train-vs-infer-optimization/attempts", data={"answer": said}, follow_redirects=True)
    assert res.status_code == 200
    item = re.search(r'<li class="checkpoint[^"]*" data-checkpoint-id="nvidia-tools".*?</li>', res.text, re.S).group()
    quotes = re.findall(r"<q>(.*?)</q>", item)
    assert quotes[1:] == ["cuDNN supplies tuned primitives such as convolutions", "DALI moves decoding and augmentation onto the GPU"]
    assert len(re.findall(r'<mark class="evidence"[^>]*>DALI moves', res.text)) == 1  # highlighted in the answer too
