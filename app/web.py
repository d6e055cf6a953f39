"""The Jinja environment and the one place that decides full page or htmx fragment."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from starlette.responses import HTMLResponse

from app import __version__
from app.config import ROOT

TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"


def path_for(request: Request, name: str, /, **params: Any) -> str:
    """Root-relative URLs, so pages keep working behind a reverse proxy or another host name."""
    return request.scope.get("root_path", "") + str(request.app.url_path_for(name, **params))


@pass_context
def _path_for(context: dict, name: str, /, **params: Any) -> str:
    return path_for(context["request"], name, **params)


def make_templates() -> Jinja2Templates:
    templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    env = templates.env
    env.globals["url_for"] = _path_for
    env.globals["app_version"] = __version__
    env.filters["duration"] = format_duration
    env.filters["when"] = lambda d: d.strftime("%Y-%m-%d %H:%M") if d else ""
    return templates


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def is_htmx(request: Request) -> bool:
    # A boosted navigation wants the whole page; a targeted request wants the fragment. So does a
    # history restore (back/forward after htmx's cache missed): it sends HX-Request too.
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-Boosted") != "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


# One URL serves the page and its fragment: caches (the browser's back/forward among them) must
# keep them apart.
VARY = {"Vary": "HX-Request, HX-History-Restore-Request"}


def render(
    request: Request,
    page: str,
    context: dict[str, Any],
    *,
    partial: str | None = None,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    """Render ``page`` for a normal request, or ``partial`` for an htmx request."""
    templates: Jinja2Templates = request.app.state.templates
    name = partial if partial and is_htmx(request) else page
    ctx = {"request": request, "bank_issues": request.app.state.bank.issues, **context}
    return templates.TemplateResponse(request, name, ctx, status_code=status_code, headers={**VARY, **(headers or {})})

