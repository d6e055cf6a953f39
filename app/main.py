"""The application factory."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app import __version__
from app.bank.loader import load_bank
from app.config import Settings
from app.db import make_engine, upgrade_database
from app.errors import CoachError
from app.grading.offline import OfflineGrader
from app.grading.service import GradingQueue
from app.routes import api, pages
from app.web import STATIC_DIR, is_htmx, make_templates

log = logging.getLogger("app")


def build_grader(settings: Settings, bank):
    return OfflineGrader(bank.glossary, model_dir=settings.embedding_model_dir)


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
        queue = GradingQueue(engine, bank, grader, workers=settings.grading_workers, stale_seconds=settings.stale_grading_seconds)
        app.state.bank, app.state.engine, app.state.grader, app.state.queue = bank, engine, grader, queue
        queue.requeue_unfinished()
        yield
        queue.shutdown()
        engine.dispose()

    app = FastAPI(
        title="Interview Coach",
        version=__version__,
        description="Practice interview questions and get rubric feedback. JSON API under /api.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.templates = make_templates()
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    app.include_router(pages.router)
    app.include_router(api.router)
    _install_error_handlers(app)
    return app


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
        return templates.TemplateResponse(request, name, ctx, status_code=status, headers={"HX-Reswap": "innerHTML"})

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
