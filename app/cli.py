"""The `coach` command line: a thin front end over the same services as the web app."""

from __future__ import annotations

import json
import sys
import typing
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from app.config import Settings

GRADER_NAMES = typing.get_args(Settings.model_fields["grader"].annotation)  # offline, llm, hybrid

app = typer.Typer(help="Interview coach: serve the app, validate the bank, grade answers in batch, transcribe recordings.", no_args_is_help=True)
db_app = typer.Typer(help="Database commands.", no_args_is_help=True)
app.add_typer(db_app, name="db")


def main() -> None:  # console-script entry point
    app()


def _settings(**overrides) -> Settings:
    """The settings, or a one-line error (e.g. COACH_GRADER=llm without an endpoint) and exit 2.
    ``overrides`` win over the environment: a command that does not serve the app or grade with
    the configured grader is not refused for a setting it never uses."""
    from pydantic import ValidationError

    try:
        return Settings(**overrides)
    except ValidationError as err:
        for problem in err.errors():
            typer.echo(f"error: {problem['msg'].removeprefix('Value error, ')}", err=True)
        raise typer.Exit(2)


def _settings_for(grader: str = "offline") -> Settings:
    """Settings for a command that grades with ``grader`` (or not at all): the app's own grader
    and mode settings are not checked, since the command does not use them."""
    return _settings(grader=grader if grader in GRADER_NAMES else "offline", mode="personal")


def _read_lines(path: Path) -> list[bytes]:
    """The lines of a JSONL file ('-': standard input) as bytes, split on newlines only: JSON
    text may hold U+2028 or U+0085, which str.splitlines() would also split on. Each line is
    decoded on its own, so one bad byte costs one line, not the run. A UTF-8 BOM is dropped."""
    try:
        data = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except OSError as err:
        typer.echo(f"error: cannot read {path}: {err.strerror}", err=True)
        raise typer.Exit(2)
    data = data.removeprefix(b"\xef\xbb\xbf")
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return [line.removesuffix(b"\r") for line in lines]


def _json_line(obj: dict) -> str:
    """One output line: readable UTF-8 where it can be, escaped where a lone surrogate would not encode."""
    text = json.dumps(obj, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(obj)
    return text


@app.command()
def serve(
    host: Annotated[Optional[str], typer.Option(help="Address to bind (default from settings: 127.0.0.1).")] = None,
    port: Annotated[Optional[int], typer.Option(help="Port (default from settings: 8000).")] = None,
    reload: Annotated[bool, typer.Option(help="Reload on code changes (development).")] = False,
) -> None:
    """Apply migrations and serve the web app."""
    import uvicorn

    settings = _settings()
    bind = host or settings.host
    if settings.mode == "personal" and bind not in ("127.0.0.1", "localhost", "::1"):
        typer.echo(
            f"warning: serving on {bind} in personal mode: there is no login, so everyone who can reach "
            "this address sees every attempt and recording.",
            err=True,
        )
    if reload:
        uvicorn.run("app.main:create_app", factory=True, host=host or settings.host, port=port or settings.port, reload=True)
        return
    from app.main import create_app

    uvicorn.run(create_app(settings), host=host or settings.host, port=port or settings.port)


@app.command()
def validate(directory: Annotated[Optional[Path], typer.Argument(help="Content folder (default: the configured one).")] = None) -> None:
    """Check every question file; print each problem with its file and field. Exit 1 on problems."""
    from app.bank.loader import load_bank

    root = directory or _settings_for().content_dir
    bank = load_bank(root)
    for issue in bank.issues:
        typer.echo(f"error: {issue}", err=True)
    if not bank.entries and not bank.issues:
        typer.echo(f"error: no question files (*.yaml, *.yml, *.md) in {root}", err=True)
    typer.echo(f"{len(bank.entries)} questions, {len(bank.glossary)} glossary terms, {len(bank.issues)} problems in {root}")
    raise typer.Exit(1 if bank.issues or not bank.entries else 0)


def _make_grader(name: str, settings: Settings, bank):
    from app.main import GRADERS, build_grader

    if name not in GRADERS:
        raise typer.BadParameter(f"unknown grader {name!r} (available: {', '.join(GRADERS)})", param_hint="--grader")
    if name != "offline" and settings.llm_endpoint_problem():
        typer.echo(f"error: {settings.llm_endpoint_problem()}", err=True)
        raise typer.Exit(2)
    return build_grader(settings, bank, name)


@app.command()
def grade(
    input: Annotated[Path, typer.Option("--input", "-i", help="JSONL: {id, question_id, answer} per line ('-' for stdin).")],
    output: Annotated[Path, typer.Option("--output", "-o", help="JSONL results, in input order ('-' for stdout).")],
    content: Annotated[Optional[Path], typer.Option("--content", help="Grade against the questions in this folder.")] = None,
    grader: Annotated[str, typer.Option("--grader", help="offline (default), llm or hybrid (see the README's LLM section).")] = "offline",
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Answers graded at once by llm/hybrid (offline: one at a time).")] = 4,
) -> None:
    """Grade a file of answers (contract 2). A bad line gets an error object; the run goes on."""
    from app.bank.loader import load_bank
    from app.grading.batch import grade_lines

    settings = _settings_for(grader)
    bank = load_bank(content or settings.content_dir)
    if not bank.entries:
        typer.echo(f"error: no questions could be loaded from {bank.root}", err=True)
        for issue in bank.issues:
            typer.echo(f"error: {issue}", err=True)
        raise typer.Exit(2)
    g = _make_grader(grader, settings, bank)
    lines = _read_lines(input)
    try:
        dst = sys.stdout if str(output) == "-" else output.open("w", encoding="utf-8")
    except OSError as err:
        typer.echo(f"error: cannot write {output}: {err.strerror}", err=True)
        raise typer.Exit(2)
    counts = {"graded": 0, "errors": 0, "fallbacks": 0}
    workers = 1 if grader == "offline" else concurrency  # the offline grader is CPU-bound
    with dst, _progress(sys.stderr.isatty() and str(output) != "-", total=sum(1 for l in lines if l.strip())) as advance:
        for obj in grade_lines(lines, bank=bank, grader=g, concurrency=workers, on_done=advance):
            counts["errors" if "error" in obj else "graded"] += 1
            counts["fallbacks"] += obj.get("grader") == "offline-fallback"
            dst.write(_json_line(obj) + "\n")
    fallbacks = f", {counts['fallbacks']} offline fallbacks (LLM failed)" if counts["fallbacks"] else ""
    typer.echo(f"{counts['graded']} graded, {counts['errors']} errors{fallbacks}", err=True)


@app.command()
def transcribe(
    audio: Annotated[Path, typer.Argument(help="A recording: WAV, WebM/Opus, Ogg, MP4/AAC, MP3 ...")],
    question: Annotated[Optional[str], typer.Option("--question", "-q", help="Question id: its key terms help the recognizer.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the transcript, word timings and delivery figures as JSON.")] = False,
) -> None:
    """Transcribe a recording with the configured recognizer (offline or endpoint) and show delivery."""
    from app.bank.loader import load_bank
    from app.errors import CoachError
    from app.voice.audio import check_size
    from app.voice.delivery import measure_delivery
    from app.voice.transcribe import build_prompt, build_transcriber

    settings = _settings_for()
    try:
        data = audio.read_bytes()
    except OSError as err:
        typer.echo(f"error: cannot read {audio}: {err.strerror}", err=True)
        raise typer.Exit(2)
    bank = load_bank(settings.content_dir)
    q = bank.get(question) if question else None
    if question and q is None:
        typer.echo(f"error: there is no question with id {question!r}", err=True)
        raise typer.Exit(2)
    transcriber = build_transcriber(settings)
    if transcriber is None:
        typer.echo(
            "error: no speech recognizer is available: install the voice extra (pip install '.[voice]') or set "
            "COACH_TRANSCRIPTION_BASE_URL to an OpenAI-compatible endpoint",
            err=True,
        )
        raise typer.Exit(2)
    try:
        check_size(data, max_bytes=settings.max_audio_bytes)
        result = transcriber.transcribe(data, filename=audio.name, prompt=build_prompt(q, bank.glossary))
    except CoachError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2)
    delivery = measure_delivery(result.text, result.words, duration=result.duration)
    if as_json:
        typer.echo(json.dumps({
            "text": result.text,
            "words": [{"word": w, "start": round(a, 2), "end": round(b, 2)} for w, a, b in result.words],
            "duration": round(result.duration, 2),
            "delivery": delivery.as_dict(),
        }, ensure_ascii=False))
        return
    typer.echo(result.text)
    wpm = f"{delivery.wpm:.0f} wpm ({delivery.pace})" if delivery.wpm is not None else "pace unknown"
    typer.echo(
        f"{delivery.duration:.1f} s, {delivery.words} words, {wpm}, {len(delivery.fillers)} fillers, "
        f"{len(delivery.pauses)} long pauses",
        err=True,
    )


@contextmanager
def _progress(show: bool, *, total: int):
    """A progress bar on stderr when it is a terminal; yields the function that advances it."""
    if not show:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task("Grading", total=total)
        yield lambda: progress.advance(task)


@app.command("eval")
def evaluate(
    gold: Annotated[list[Path], typer.Argument(help="Labelled JSONL file(s): contract-2 input plus checkpoints, misconceptions, rating.")],
    content: Annotated[Optional[Path], typer.Option("--content", help="Question folder for the labelled questions.")] = None,
    grader: Annotated[str, typer.Option("--grader", help="Grader name.")] = "offline",
    errors: Annotated[int, typer.Option(help="Print this many disagreements.")] = 0,
) -> None:
    """Run a grader over labelled answers and print agreement figures."""
    from app.bank.loader import load_bank
    from app.grading.evaluation import evaluate_file, format_report, parse_gold_row

    settings = _settings_for(grader)
    bank = load_bank(content or settings.content_dir)
    g = _make_grader(grader, settings, bank)
    rows = []
    for path in gold:
        for number, raw in enumerate(_read_lines(path), start=1):
            if not raw.strip():
                continue
            try:
                rows.append(parse_gold_row(raw.decode("utf-8")))
            except (UnicodeDecodeError, ValueError) as err:
                typer.echo(f"error: {path}:{number}: {err}", err=True)
                raise typer.Exit(2)
    report = evaluate_file(rows, bank=bank, grader=g)
    typer.echo(format_report(report, show_errors=errors))
    if not report.answers:
        typer.echo("error: no answer could be graded (no row names a question of the bank)", err=True)
        raise typer.Exit(1)


@db_app.command("upgrade")
def db_upgrade(revision: Annotated[str, typer.Argument(help="Target revision.")] = "head") -> None:
    """Apply database migrations (SQLite or PostgreSQL from DATABASE_URL)."""
    from app.db import current_revision, make_engine, upgrade_database

    settings = _settings_for()
    engine = make_engine(settings.database_url)
    upgrade_database(engine, revision)
    at = current_revision(engine)
    typer.echo(f"database at {at}: {settings.database_url.split('@')[-1]}" + (f" (asked for {revision}; upgrade never goes back)" if revision not in ("head", at) else ""))


if __name__ == "__main__":
    main()
