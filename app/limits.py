"""A cap on request bodies, applied while they arrive: an upload beyond the limit is refused
with 413 before it is spooled to disk, whether or not the client sent a Content-Length."""

from __future__ import annotations

from collections.abc import Callable

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyLimit:
    """ASGI middleware: ``limit_for(path)`` gives the largest body, in bytes, a path accepts
    (the path within the app, without a proxy's root_path),
    and what to tell someone who sends more.

    The 413 is raised as an HTTPException from inside the body read, so the app's own error
    handler renders it (JSON for the API, a page or fragment otherwise)."""

    def __init__(self, app: ASGIApp, limit_for: Callable[[str], tuple[int, str]]):
        self.app, self.limit_for = app, limit_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        path, root = scope["path"], scope.get("root_path") or ""
        limit, refusal = self.limit_for(path[len(root):] if root and path.startswith(root) else path)  # the app's own path
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        too_big = declared.isdigit() and int(declared) > limit
        received = 0

        def refuse() -> HTTPException:
            return HTTPException(413, refusal)

        async def limited() -> Message:
            nonlocal received
            if too_big:
                raise refuse()  # said so up front: read nothing
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise refuse()
            return message

        await self.app(scope, limited, send)

