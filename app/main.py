"""The application factory."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import __version__
from app.bank.loader import load_bank
from app.config import Settings
from app.db import dispose_engine, make_engine, upgrade_database
from app.errors import CoachError
from app.grading.hybrid import HybridGrader
from app.grading.interviewer import AuthoredInterviewer, LLMInterviewer
from app.grading.llm import LLMClient, LLMGrader
from app.grading.offline import OfflineGrader
from app.grading.service import GradingQueue
from app.limits import BodyLimit
from app.routes import api, pages, voice
from app.voice.audio import too_large_message
from app.voice.service import build_voice
from app.web import STATIC_DIR, VARY, is_htmx, make_templates

log = logging.getLogger("app")


GRADERS = ("offline", "llm", "hybrid")


def build_grader(settings: Settings, bank, name: str | None = None):
    """The grader called ``name`` (default: ``settings.grader``). llm and hybrid fall back to
    the offline grader, labelled, when the endpoint fails."""
    name = name or settings.grader
    offline = OfflineGrader(bank.glossary, model_dir=settings.embedding_model_dir)
    if name == "offline":
        return offline
    if name not in GRADERS:
        raise ValueError(f"unknown grader {name!r} (available: {', '.join(GRADERS)})")
    llm = LLMGrader(LLMClient.from_settings(settings), fallback=offline)
    return llm if name == "llm" else HybridGrader(offline, llm)


def build_interviewer(settings: Settings):
    """Who writes the follow-up thread's next questions: the LLM when it grades, else the bank."""
    if settings.grader == "offline":
        return AuthoredInterviewer()
    return LLMInterviewer(LLMClient.from_settings(settings))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        bank = load_bank(settings.content_dir)
        for issue in bank.issues:
            log.error("content: %s", issue)
        engine = make_engine(settings.database_url)
        if settings.auto_migrate:
            upgrade_database(engine)
        grader = build_grader(settings, bank)
        queue = GradingQueue(engine, bank, grader, workers=settings.grading_workers, stale_seconds=settings.stale_grading_seconds,
                             interviewer=build_interviewer(settings))
        app.state.bank, app.state.engine, app.state.grader, app.state.queue = bank, engine, grader, queue
        queue.requeue_unfinished()
        queue.start_sweeper()
        queue.warm_up()
        app.state.voice = build_voice(settings)
        app.state.voice.start()
        yield
        app.state.voice.stop()
        queue.shutdown()
        dispose_engine(engine)

    app = FastAPI(
        title="Interview Coach",
        version=__version__,
        description="Practice interview questions and get rubric feedback. JSON API under /api.",
        lifespan=lifespan,
        docs_url=None,  # served below from a local copy of Swagger UI: FastAPI's own page loads it from a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.templates = make_templates()
    # Audio uploads may be as large as a recording is allowed to be (plus the form around it);
    # every other body (answers of at most max_answer_chars, forms) is small.
    audio_limit = (settings.max_audio_bytes + 256_000, too_large_message(settings.max_audio_bytes))
    other_bytes = max(2_000_000, settings.max_answer_chars * 12)
    other_limit = (other_bytes, f"The request is larger than the {other_bytes / 1e6:.3g} MB this page accepts.")
    app.add_middleware(BodyLimit, limit_for=lambda path: audio_limit if path == "/api/transcriptions" else other_limit)  # app paths
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    _install_api_docs(app)
    app.include_router(pages.router)
    app.include_router(api.router)
    app.include_router(voice.router)
    _install_error_handlers(app)
    return app


def _install_api_docs(app: FastAPI) -> None:
    """Interactive API docs at /docs, working offline (Swagger UI from the swagger-ui-bundle package)."""
    import swagger_ui_bundle
    from fastapi.openapi.docs import get_swagger_ui_html

    app.mount("/docs-assets", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def api_docs(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")  # behind a proxy prefix, as FastAPI's own page does
        return get_swagger_ui_html(
            openapi_url=root + app.openapi_url, title=f"{app.title} API",
            swagger_js_url=f"{root}/docs-assets/swagger-ui-bundle.js", swagger_css_url=f"{root}/docs-assets/swagger-ui.css",
            swagger_favicon_url=f"{root}/docs-assets/favicon-32x32.png",
        )


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "")


def _install_error_handlers(app: FastAPI) -> None:
    def error_response(request: Request, status: int, title: str, message: str, extra: dict | None = None):
        if _wants_json(request):
            return JSONResponse({"detail": message, "title": title, **(extra or {})}, status_code=status)
        templates = request.app.state.templates
        name = "partials/_error.html" if is_htmx(request) else "pages/error.html"
        ctx = {"request": request, "title": title, "message": message, "status": status, "bank_issues": []}
        # htmx swaps only 2xx by default; errors are meant to be seen, so ask it to swap them too.
        return templates.TemplateResponse(request, name, ctx, status_code=status, headers={"HX-Reswap": "innerHTML", **VARY})

    @app.exception_handler(CoachError)
    async def _coach_error(request: Request, exc: CoachError):
        return error_response(request, exc.status, exc.title, exc.message)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        title = "Page not found" if exc.status_code == 404 else "Request failed"
        return error_response(request, exc.status_code, title, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        problems = [
            {"field": ".".join(str(p) for p in e["loc"] if p not in ("body", "query", "path")), "message": e["msg"]}
            for e in exc.errors()
        ]
        message = "; ".join(f"{p['field']}: {p['message']}" for p in problems) or "Malformed request."
        return error_response(request, 422, "Malformed request", message, {"errors": problems})
