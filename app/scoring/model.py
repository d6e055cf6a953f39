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
    FEATURES = ("meaning", "specific", "concepts", "concepts_all", "facets", "support", "substance", "negated", "hedged", "align", "align_all", "jargon", "length")

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
DEFAULT_MODEL = OrdinalModel(partial_bias=-6.312, partial_weights=(-2.388, 7.243, 4.773, 1.851, -0.904, 0.159, 2.956, 0.0, 0.0, -0.9, 12.338, -0.998, -0.218), covered_bias=-6.035, covered_weights=(-4.601, 6.345, 2.196, 4.547, 0.565, -0.123, 2.46, 0.0, -3.047, -1.455, 12.12, -3.693, 1.714))
