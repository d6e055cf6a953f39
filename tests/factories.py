"""Builders for test data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

MINIMAL_QUESTION: dict[str, Any] = {
    "id": "data-parallel-gradient-sync",
    "title": "Gradient synchronization in data-parallel training",
    "topic": "distributed-training",
    "prompt": "How do data-parallel replicas keep their weights in sync?",
    "checkpoints": [
        {"id": "gradient-allreduce", "text": "After backward, gradients are averaged across replicas with an all-reduce."}
    ],
    "misconceptions": [
        {"id": "params-broadcast-each-step", "text": "The parameters are broadcast from rank 0 after every step."}
    ],
}


def write_question(folder: Path, data: dict[str, Any] | None = None, name: str | None = None) -> Path:
    data = dict(MINIMAL_QUESTION if data is None else data)
    path = folder / (name or f"{data.get('id', 'q')}.yaml")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


def make_attempt_payload(question_id: str = "allreduce-deep-dive", answer: str | None = None, **extra) -> dict[str, Any]:
    return {
        "question_id": question_id,
        "answer": answer
        if answer is not None
        else "Every GPU contributes a tensor and the summed result ends up on every GPU. A ring all-reduce does a reduce-scatter and then an all-gather.",
        **extra,
    }


def wait_until(check, *, seconds: float = 60.0, every: float = 0.05):
    """Poll ``check()`` until it returns something truthy; generous for a busy CI machine."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)
