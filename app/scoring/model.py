"""The ordinal decision model: two logistic heads over the checkpoint signals.

P(at least partial) and P(covered) are each a logistic function of the same features. The
weights are global (one set for every question) and were fitted once by
``scripts/fit_grader.py`` on the development splits of the hand-labelled set in ``eval/gold``
(``*-dev.jsonl`` and ``*-dev2.jsonl``, two groups of labellers); the test split and the SemEval benchmark were not used for fitting.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class OrdinalModel:
    FEATURES = ("meaning", "specific", "concepts", "concepts_all", "facets", "support", "substance", "negated", "hedged", "align", "align_all")

    partial_bias: float
    partial_weights: tuple[float, ...]
    covered_bias: float
    covered_weights: tuple[float, ...]

    def predict(self, feats: dict[str, float]) -> tuple[float, float]:
        """Return (P(at least partial), P(covered)), with P(covered) <= P(at least partial)."""
        x = [feats[name] for name in self.FEATURES]
        p = _sigmoid(self.partial_bias + sum(w * v for w, v in zip(self.partial_weights, x)))
        c = _sigmoid(self.covered_bias + sum(w * v for w, v in zip(self.covered_weights, x)))
        return max(p, c), c


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


# Fitted by scripts/fit_grader.py (see its output in the README's grader section).
DEFAULT_MODEL = OrdinalModel(partial_bias=-3.432, partial_weights=(-4.553, 8.369, 3.704, 1.72, -0.795, -0.156, 1.142, 0.0, 0.0, -1.043, 10.887), covered_bias=-5.338, covered_weights=(-10.585, 8.045, 0.743, 4.246, 0.292, -0.137, 3.509, 0.0, -2.631, 0.708, 11.094))
