"""Annotated dependency aliases used by the routes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlmodel import Session

from app.bank.loader import Bank
from app.config import Settings
from app.db import iter_session
from app.grading.service import GradingQueue, get_local_user
from app.models import User


def _session(request: Request) -> Iterator[Session]:
    yield from iter_session(request.app.state.engine)


def _settings(request: Request) -> Settings:
    return request.app.state.settings


def _bank(request: Request) -> Bank:
    return request.app.state.bank


def _queue(request: Request) -> GradingQueue:
    return request.app.state.queue


SessionDep = Annotated[Session, Depends(_session)]
SettingsDep = Annotated[Settings, Depends(_settings)]
BankDep = Annotated[Bank, Depends(_bank)]
QueueDep = Annotated[GradingQueue, Depends(_queue)]


def _current_user(session: SessionDep) -> User:
    # Personal mode: everything belongs to the one local user. Group mode will resolve the login here.
    return get_local_user(session)


CurrentUser = Annotated[User, Depends(_current_user)]
