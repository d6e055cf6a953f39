// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";

  // htmx 2 does not swap 4xx/5xx responses by default; our error fragments are meant to be seen.
  function configureHtmx() {
    if (!window.htmx) return;
    htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "[45]..", swap: true, error: true },
    ];
  }

  // Draft: the answer box is saved in localStorage per question, restored after a reload,
  // and cleared once the answer is stored on the server.
  function setupDraft(form) {
    const box = form.querySelector("textarea[name=answer]");
    const status = document.getElementById("draft-status");
    const key = "coach:draft:" + form.dataset.questionId;
    let saved = null;
    try { saved = localStorage.getItem(key); } catch (e) { /* storage disabled */ }
    if (saved && !box.value) {
      box.value = saved;
      if (status) status.textContent = "Draft restored.";
    }
    let timer = null;
    box.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        try { localStorage.setItem(key, box.value); if (status) status.textContent = "Draft saved in this browser."; } catch (e) { /* full */ }
      }, 300);
    });
    // A save still waiting when the answer is sent must not bring the draft back afterwards.
    form.addEventListener("htmx:beforeRequest", function () { clearTimeout(timer); });
    form.addEventListener("htmx:afterRequest", function (ev) {
      if (ev.detail.elt !== form) return;
      clearTimeout(timer);
      if (ev.detail.successful) {
        try { localStorage.removeItem(key); } catch (e) { /* ignore */ }
        if (status) status.textContent = "Answer saved.";
      } else {
        try { localStorage.setItem(key, box.value); } catch (e) { /* full */ }
      }
    });
  }

  // Time spent answering (from first keystroke or timer start) and an optional countdown. The
  // clock is silent for screen readers; only "30 seconds left" and "Time's up" are announced.
  // It stops when an answer is stored, and starts afresh with the next keystroke.
  function setupTimer(form) {
    const output = document.getElementById("timer");
    const alert = document.getElementById("timer-alert");
    const enabled = document.getElementById("timer-enabled");
    const minutes = document.getElementById("timer-minutes");
    const duration = document.getElementById("duration_seconds");
    const box = form.querySelector("textarea[name=answer]");
    let started = null;
    let tick = null;
    let announced = "";
    function fmt(s) { s = Math.max(0, Math.round(s)); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }
    function announce(text) {
      if (alert && announced !== text) { announced = text; alert.textContent = text; }
    }
    function start() {
      if (started) return;
      started = Date.now();
      announced = "";
      tick = setInterval(render, 250);
      render();
    }
    function render() {
      const elapsed = (Date.now() - started) / 1000;
      duration.value = elapsed.toFixed(1);
      if (enabled && enabled.checked) {
        const left = Number(minutes.value || 3) * 60 - elapsed;
        output.textContent = left >= 0 ? fmt(left) + " left" : "Time's up (+" + fmt(-left) + ")";
        output.classList.toggle("over", left < 0);
        output.classList.toggle("low", left >= 0 && left < 30);
        if (left < 0) announce("Time's up.");
        else if (left < 30) announce("30 seconds left.");
      } else {
        output.textContent = fmt(elapsed);
      }
    }
    function stop() {
      clearInterval(tick);
      tick = null;
      started = null;
      box.addEventListener("input", start, { once: true });
    }
    box.addEventListener("input", start, { once: true });
    if (enabled) enabled.addEventListener("change", function () { start(); });
    form.addEventListener("submit", function () { if (started) render(); });
    form.addEventListener("htmx:beforeRequest", function (ev) { if (ev.detail.elt === form && started) render(); });
    form.addEventListener("htmx:afterRequest", function (ev) { if (ev.detail.elt === form && ev.detail.successful && started) stop(); });
  }

  // Keyboard and screen-reader users land on what just arrived: the feedback once it is
  // graded (or failed), the next follow-up question's answer box after a reply.
  function setupFocus() {
    document.body.addEventListener("htmx:afterSettle", function (ev) {
      const feedback = document.querySelector("#feedback .feedback");
      if (feedback && !feedback.dataset.focused && ["graded", "failed"].indexOf(feedback.dataset.status) >= 0
          && document.getElementById("answer-form")) {
        feedback.dataset.focused = "1";
        feedback.setAttribute("tabindex", "-1");
        feedback.focus();
      }
      const target = ev.detail.target;
      if (target && target.id && target.id.indexOf("thread-") === 0) {
        const next = document.querySelector("[id^=thread-] .turn-form textarea");
        if (next) next.focus();
      }
    });
  }

  function init() {
    configureHtmx();
    const form = document.getElementById("answer-form");
    if (form) { setupDraft(form); setupTimer(form); }
    setupFocus();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
