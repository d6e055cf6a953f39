"""A local stand-in for an OpenAI-compatible server, for tests: real HTTP on 127.0.0.1, the
chat-completions protocol, and behaviour a test scripts request by request.

    fake = FakeOpenAI().start()
    fake.then(status(429, headers={"Retry-After": "0"}), reply(verdict))  # next two requests
    fake.json_schema_supported = False   # 400 for response_format json_schema, like an old server
    ... fake.requests  # every request received: path, headers, parsed body
    fake.stop()

When the script is empty the server grades "honestly" (``honest_reply``): the states a test set
in ``fake.states`` (default: all covered), each with a quote copied verbatim from the answer.
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Behaviour = Callable[["_Handler", dict], None]

_RUBRIC = re.compile(r"Rubric \(JSON\):\n(.*?)\n\n", re.S)
_DATA = re.compile(r"<((?:answer|candidate)-[0-9a-f]+)>\n(.*?)\n</\1>", re.S)


def request_parts(body: dict) -> dict[str, Any]:
    """What a grading request carries: system prompt, rubric, the answer (from its data block)."""
    system = body["messages"][0]["content"]
    user = body["messages"][-1]["content"]
    rubric = _RUBRIC.search(user)
    data = _DATA.search(user)
    return {
        "system": system,
        "user": user,
        "rubric": json.loads(rubric.group(1)) if rubric else None,
        "data": json.loads(data.group(2)) if data else None,
        "interviewer": system.startswith("You are the interviewer"),
    }


def first_words(text: str, n: int = 6) -> str:
    return " ".join(text.split()[:n])


def verdict(body: dict, states: dict[str, str] | None = None, *, quotes: dict[str, str] | None = None,
            misconceptions: list[tuple[str, str]] = (), score: int = 90, follow_up: str | None = None) -> dict:
    """A grading reply for the request in ``body``: every checkpoint, the given states (default
    covered), quotes copied from the answer unless ``quotes`` says otherwise."""
    parts = request_parts(body)
    answer = parts["data"]
    checkpoints = []
    for cp in parts["rubric"]["checkpoints"]:
        state = (states or {}).get(cp["id"], "covered")
        quote = (quotes or {}).get(cp["id"], first_words(answer) if state != "missed" else "")
        checkpoints.append({"checkpoint_id": cp["id"], "quote": quote, "state": state, "comment": f"About {cp['id']}."})
    weakest = min(parts["rubric"]["checkpoints"], key=lambda c: {"missed": 0, "partial": 1}.get((states or {}).get(c["id"], "covered"), 2))
    return {
        "checkpoints": checkpoints,
        "misconceptions": [{"misconception_id": m, "quote": q} for m, q in misconceptions],
        "score": score,
        "follow_up": {"checkpoint_id": weakest["id"], "question": follow_up or f"LLM follow-up: tell me more about {weakest['id']}?"},
    }


def interviewer_reply(body: dict, *, next_question: str = "LLM push: and why does that hold?") -> dict:
    return {"assessment": "LLM reaction: good start, but say more.", "next_question": next_question, "checkpoint_id": ""}


def completion(body: dict, content: str, *, finish_reason: str = "stop") -> dict:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake-model"),
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish_reason, "logprobs": None}],
        "usage": {"prompt_tokens": len(json.dumps(body)) // 4, "completion_tokens": len(content) // 4, "total_tokens": 0},
    }


# --- behaviours: each answers one request ---------------------------------------------------

def reply(content: str | dict | Callable[[dict], dict | str], *, finish_reason: str = "stop") -> Behaviour:
    """200 with this content: a string as is (so it may be malformed), a dict as JSON, or a function of the request."""

    def run(h: "_Handler", body: dict) -> None:
        value = content(body) if callable(content) else content
        text = value if isinstance(value, str) else json.dumps(value)
        h.send_json(200, completion(body, text, finish_reason=finish_reason))

    return run


def raw(data: bytes, *, content_type: str = "text/html", code: int = 200) -> Behaviour:
    """Any body at all: a proxy's error page, broken JSON, JSON that is not a chat completion."""

    def run(h: "_Handler", body: dict) -> None:
        try:
            h.send_response(code)
            h.send_header("Content-Type", content_type)
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except OSError:
            h.close_connection = True

    return run


def status(code: int, message: str = "fake error", *, headers: dict[str, str] | None = None) -> Behaviour:
    def run(h: "_Handler", body: dict) -> None:
        h.send_json(code, {"error": {"message": message, "type": "fake_error", "code": code}}, headers=headers)

    return run


def slow(seconds: float, then: Behaviour | None = None) -> Behaviour:
    """Answer after ``seconds`` (beyond the client's timeout, the client has given up by then)."""

    def run(h: "_Handler", body: dict) -> None:
        h.server.stopping.wait(seconds)
        _answer(h, body, then)

    return run


def held(gate: threading.Event, then: Behaviour | None = None, *, limit: float = 15.0) -> Behaviour:
    """Answer once the test opens ``gate`` (or after ``limit`` seconds): the model is 'thinking'
    for exactly as long as the test needs, however slow the machine."""

    def run(h: "_Handler", body: dict) -> None:
        until = time.monotonic() + limit
        while not gate.wait(0.05) and not h.server.stopping.is_set() and time.monotonic() < until:
            pass
        _answer(h, body, then)

    return run


def _answer(h: "_Handler", body: dict, then: Behaviour | None) -> None:
    """Answer with ``then``, or honestly when no behaviour is given."""
    (then or reply(lambda b: honest_reply(h.server.fake, b)))(h, body)


def drop() -> Behaviour:
    """Close the connection without a response."""

    def run(h: "_Handler", body: dict) -> None:
        h.close_connection = True
        h.connection.shutdown(socket.SHUT_RDWR)

    return run


def honest_reply(fake: "FakeOpenAI", body: dict) -> dict:
    parts = request_parts(body)
    if parts["interviewer"]:
        return interviewer_reply(body)
    return verdict(body, fake.states)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address) -> None:  # a client that timed out and left
        pass


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, *args) -> None:
        pass

    def send_json(self, code: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(obj).encode()
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            self.close_connection = True

    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            self.send_json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model", "created": 0, "owned_by": "tests"}]})
        else:
            self.send_json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        fake: FakeOpenAI = self.server.fake
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        fake.record(self.path, dict(self.headers), body)
        if self.path != "/v1/chat/completions":
            return self.send_json(404, {"error": {"message": f"no route {self.path}"}})
        if not fake.json_schema_supported and (body.get("response_format") or {}).get("type") == "json_schema":
            return self.send_json(400, {"error": {"message": "response_format type json_schema is not supported by this model", "type": "invalid_request_error"}})
        with fake.flight():
            fake.next_behaviour()(self, body)


class FakeOpenAI:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.states: dict[str, str] = {}
        self.json_schema_supported = True
        self._script: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self.in_flight = self.max_in_flight = 0

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "FakeOpenAI":
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self
        self._server.stopping = threading.Event()
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def stop(self) -> None:
        self._server.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def then(self, *behaviours: Behaviour) -> "FakeOpenAI":
        """Answer the next requests with these behaviours, in order."""
        with self._lock:
            self._script.extend(behaviours)
        return self

    def always(self, behaviour: Behaviour, times: int = 50) -> "FakeOpenAI":
        return self.then(*[behaviour] * times)

    def next_behaviour(self) -> Behaviour:
        with self._lock:
            if self._script:
                return self._script.popleft()
        return reply(lambda body: honest_reply(self, body))

    @contextmanager
    def flight(self):
        """Count requests being answered at once (to check a client's concurrency bound)."""
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            yield
        finally:
            with self._lock:
                self.in_flight -= 1

    def record(self, path: str, headers: dict, body: dict) -> None:
        with self._lock:
            self.requests.append({"path": path, "headers": {k.lower(): v for k, v in headers.items()}, "body": body})

    def chat_requests(self) -> list[dict]:
        with self._lock:
            return [r for r in self.requests if r["path"].endswith("/chat/completions")]

    def reset(self) -> None:
        with self._lock:
            self._script.clear()
            self.requests.clear()
            self.states = {}
            self.json_schema_supported = True
            self.max_in_flight = 0
