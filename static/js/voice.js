// Spoken answers on the practice page: record with MediaRecorder, show a timer and a level meter,
// replay, upload with progress, and put the transcript into the answer box to be edited before
// it is submitted. Loaded only where a speech recognizer is available (partials/_recorder.html).
(function () {
  "use strict";

  // Containers the browser can record, best first; the server decodes all of them.
  const TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4", "audio/webm", "audio/ogg"];

  function fmt(s) { s = Math.max(0, Math.floor(s)); return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0"); }

  function extension(type) {
    if (type.indexOf("ogg") >= 0) return "ogg";
    if (type.indexOf("mp4") >= 0 || type.indexOf("aac") >= 0) return "m4a";
    if (type.indexOf("wav") >= 0) return "wav";
    return "webm";
  }

  function micMessage(err) {
    switch (err && err.name) {
      case "NotAllowedError":
      case "SecurityError":
        return "Microphone access was refused. Allow the microphone for this site in the browser's settings, then press Record again, or type your answer.";
      case "NotFoundError":
      case "OverconstrainedError":
        return "No microphone was found. Connect one and press Record again, or type your answer.";
      case "NotReadableError":
      case "AbortError":
        return "The microphone could not be started; another application may be using it. Close it and try again, or type your answer.";
      default:
        return "The microphone could not be started (" + ((err && err.message) || err) + "). You can type your answer.";
    }
  }

  function describeDelivery(d) {
    // Rounded like the attempt page's figures (the running timer counts whole seconds down instead).
    const parts = [fmt(Math.round(d.duration)) + " recorded", fmt(Math.round(d.speaking_seconds)) + " speaking"];
    if (d.wpm !== null) {
      const band = d.wpm_band[0] + "–" + d.wpm_band[1];
      parts.push(Math.round(d.wpm) + " wpm (" + (d.pace === "in band" ? "within " : d.pace === "slow" ? "below " : "above ") + band + ")");
    }
    parts.push(d.filler_count + (d.filler_count === 1 ? " filler" : " fillers"));
    if (d.timed) parts.push(d.pauses.length + (d.pauses.length === 1 ? " long pause" : " long pauses"));
    return "Delivery: " + parts.join(" · ") + ". Shown with the feedback; not part of the score.";
  }

  function setupVoice(panel) {
    const form = panel.closest("form");
    const box = form.querySelector("textarea[name=answer]");
    const recordingId = form.querySelector("input[name=recording_id]");
    const $ = function (id) { return document.getElementById(id); };
    const startBtn = $("record-start"), stopBtn = $("record-stop"), againBtn = $("record-again"), retryBtn = $("record-retry");
    const timer = $("record-timer"), level = $("record-level"), playback = $("record-playback");
    const progress = $("upload-progress"), status = $("voice-status"), delivery = $("voice-delivery");
    const maxSeconds = Number(panel.dataset.maxSeconds || 600);
    const maxBytes = Number(panel.dataset.maxBytes || 25e6);
    let stream = null, recorder = null, chunks = [], audioCtx = null, raf = 0, tick = 0, startedAt = 0;
    let blob = null, lastTranscript = null, xhr = null;
    // The text before the first take (typed by hand) stays; a new take replaces the previous one.
    let typedBefore = null, undoText = null;
    const submitBtn = form.querySelector("button[type=submit]"), undoBtn = $("record-undo");

    panel.hidden = false;

    function say(message, isError) {
      status.textContent = message;
      status.classList.toggle("error", !!isError);
      status.setAttribute("role", isError ? "alert" : "status");
    }

    function show(state) {
      // idle -> recording -> uploading -> done (or failed), and back to recording on Re-record.
      startBtn.hidden = state !== "idle";
      stopBtn.hidden = state !== "recording";
      againBtn.hidden = !(state === "done" || state === "failed" || state === "uploading");
      againBtn.disabled = state === "uploading";
      retryBtn.hidden = state !== "failed";
      timer.hidden = state === "idle";
      level.hidden = state !== "recording";
      playback.hidden = !(blob && state !== "recording");
      progress.hidden = state !== "uploading";
      panel.dataset.state = state;
      // No sending the answer while its spoken part is still being recorded or transcribed.
      if (submitBtn) submitBtn.disabled = state === "recording" || state === "uploading";
    }

    form.addEventListener("htmx:confirm", function (ev) {
      if (ev.detail.elt === form && (panel.dataset.state === "recording" || panel.dataset.state === "uploading")) {
        ev.preventDefault();
        say("Wait for the transcript before sending the answer.", true);
      }
    });

    if (!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.MediaRecorder)) {
      say(window.isSecureContext === false
        ? "Recording needs a secure page: open the app over https:// or on localhost. You can type your answer."
        : "This browser cannot record audio. You can type your answer.", true);
      startBtn.disabled = true;
      return;
    }

    function startMeter() {
      try {
        audioCtx = new (window.AudioContext || window.webkitAudioContext)();
        const analyser = audioCtx.createAnalyser();
        analyser.fftSize = 1024;
        audioCtx.createMediaStreamSource(stream).connect(analyser);
        const data = new Float32Array(analyser.fftSize);
        (function draw() {
          analyser.getFloatTimeDomainData(data);
          let sum = 0;
          for (let i = 0; i < data.length; i++) sum += data[i] * data[i];
          level.value = Math.min(1, Math.sqrt(sum / data.length) * 4);  // speech RMS is ~0.02-0.2
          raf = requestAnimationFrame(draw);
        })();
      } catch (e) { level.hidden = true; }
    }

    function stopInputs() {
      clearInterval(tick);
      cancelAnimationFrame(raf);
      if (stream) stream.getTracks().forEach(function (t) { t.stop(); });
      if (audioCtx) audioCtx.close().catch(function () {});
      stream = null; audioCtx = null; level.value = 0;
    }

    async function begin() {
      if (xhr) { xhr.abort(); xhr = null; }
      say("Asking for the microphone…");
      try {
        stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
      } catch (err) {
        say(micMessage(err), true);
        show(recordingId.value ? "done" : blob ? "failed" : "idle");  // a take already transcribed stays usable
        return;
      }
      const type = TYPES.find(function (t) { return MediaRecorder.isTypeSupported(t); }) || "";
      recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
      chunks = [];
      recorder.ondataavailable = function (e) { if (e.data && e.data.size) chunks.push(e.data); };
      recorder.onstop = finish;
      recorder.start(1000);
      startedAt = Date.now();
      blob = null;
      // The earlier take's recording and figures stay until a new transcript replaces them: a
      // silent or failed take leaves the answer as it was.
      timer.textContent = "0:00";
      timer.classList.remove("low");
      tick = setInterval(function () {
        const s = (Date.now() - startedAt) / 1000;
        timer.textContent = fmt(s);
        timer.classList.toggle("low", maxSeconds - s <= 30);
        if (s >= maxSeconds) stop();
      }, 250);
      startMeter();
      if (!box.value) box.dispatchEvent(new Event("input", { bubbles: true }));  // starts the countdown, if on
      show("recording");
      say("Recording… answer as you would in the interview, then press Stop.");
    }

    function stop() { if (recorder && recorder.state !== "inactive") recorder.stop(); }

    function finish() {
      stopInputs();
      blob = new Blob(chunks, { type: (recorder && recorder.mimeType) || "audio/webm" });
      if (playback.src) URL.revokeObjectURL(playback.src);
      playback.src = URL.createObjectURL(blob);
      upload();
    }

    function upload() {
      if (!blob || !blob.size) { say("Nothing was recorded. Check the microphone and press Re-record.", true); show("failed"); return; }
      if (blob.size > maxBytes) { say("The recording is too large to upload (" + (blob.size / 1e6).toFixed(1) + " MB). Record a shorter answer.", true); show("failed"); return; }
      const data = new FormData();
      data.append("question_id", form.dataset.questionId);
      data.append("audio", blob, "answer." + extension(blob.type));
      xhr = new XMLHttpRequest();
      xhr.open("POST", panel.dataset.uploadUrl);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.onprogress = function (e) {
        if (!e.lengthComputable) return;
        progress.value = Math.round((e.loaded / e.total) * 100);
        say("Uploading… " + progress.value + "%");
      };
      xhr.upload.onload = function () { progress.removeAttribute("value"); say("Transcribing…"); };
      xhr.onload = function () {
        let body = {};
        try { body = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
        xhr = null;
        if (this.status === 201) { useTranscript(body); return; }
        say((body.detail || "The upload failed (HTTP " + this.status + ").") + " Your recording is still here.", true);
        show("failed");
      };
      xhr.onerror = function () {
        xhr = null;
        say("The upload failed: the server could not be reached. Your recording is still here.", true);
        show("failed");
      };
      progress.value = 0;
      show("uploading");
      say("Uploading…");
      xhr.send(data);
    }

    function useTranscript(body) {
      const text = (body.transcript || "").trim();
      if (!text) {  // a silent take changes nothing in the box
        show("done");
        say("No speech was recognised. Press Re-record and speak closer to the microphone, or type.", true);
        return;
      }
      // The first take goes after anything typed by hand; a later take replaces the earlier one
      // (edits included: Undo brings them back).
      if (typedBefore === null) typedBefore = box.value.trim();
      const replaced = lastTranscript !== null && box.value !== lastTranscript ? box.value : null;
      box.value = typedBefore ? typedBefore + "\n\n" + text : text;
      lastTranscript = box.value;
      undoText = replaced;
      if (undoBtn) undoBtn.hidden = replaced === null;
      recordingId.value = body.recording_id || "";
      // Replay the server's copy: it knows its length (Chrome's raw recording shows none and cannot seek).
      if (body.audio_url) {
        if (playback.src && playback.src.indexOf("blob:") === 0) URL.revokeObjectURL(playback.src);
        playback.src = body.audio_url;
      }
      box.dispatchEvent(new Event("input", { bubbles: true }));  // saves the draft, starts the clock
      if (body.delivery) { delivery.textContent = describeDelivery(body.delivery); delivery.hidden = false; }
      show("done");
      say(replaced !== null
        ? "The new take replaced the earlier one and your edits to it (Undo brings them back). Fix anything misheard, then press Get feedback."
        : "Transcript ready below. Fix anything misheard, then press Get feedback.");
      box.focus();
    }

    if (undoBtn) undoBtn.addEventListener("click", function () {
      if (undoText === null) return;
      box.value = undoText;
      undoText = null;
      undoBtn.hidden = true;
      box.dispatchEvent(new Event("input", { bubbles: true }));
      say("The earlier text is back in the answer box.");
      box.focus();
    });
    startBtn.addEventListener("click", begin);
    againBtn.addEventListener("click", begin);
    stopBtn.addEventListener("click", stop);
    retryBtn.addEventListener("click", upload);
    // Once the answer is stored the recording belongs to that attempt; a new submit starts fresh.
    form.addEventListener("htmx:afterRequest", function (ev) {
      if (ev.detail.elt === form && ev.detail.successful) {
        recordingId.value = ""; lastTranscript = null; typedBefore = null; undoText = null;
        if (undoBtn) undoBtn.hidden = true;
      }
    });
    show("idle");
  }

  function init() {
    const panel = document.getElementById("voice");
    if (panel) setupVoice(panel);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
