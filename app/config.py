"""Settings, read from environment variables (prefix ``COACH_``) and an optional ``.env`` file.

Every field is described here and listed in the README. ``DATABASE_URL`` and
``OPENAI_API_KEY`` are also read without the prefix, as most tools expect.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, model_validator
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
    grader: Literal["offline"] = Field(default="offline", description="Which grader grades new attempts.")
    embedding_model_dir: Path | None = Field(
        default=None,
        description="Folder with a MiniLM model (model.safetensors, tokenizer.json). Default: the pinned package's copy.",
    )
    openai_base_url: str | None = Field(
        default=None, description="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 for Ollama."
    )
    openai_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices("COACH_OPENAI_API_KEY", "OPENAI_API_KEY"),
        description="API key for the endpoint (any string for local servers).",
    )
    openai_model: str = Field(default="gpt-4o-mini", description="Model name at the endpoint.")
    openai_timeout_seconds: float = Field(default=60.0, gt=0, description="Per-request timeout.")
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

    @model_validator(mode="after")
    def _refuse_placeholder_secret(self) -> "Settings":
        if self.mode == "group" and self.secret_key.get_secret_value() == PLACEHOLDER_SECRET:
            raise ValueError("COACH_SECRET_KEY must be set to a random value in group mode")
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")
