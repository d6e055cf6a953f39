"""Fit the offline grader's ordinal model on the DEVELOPMENT split of the labelled set.

    python scripts/fit_grader.py            # prints the fitted OrdinalModel to paste into app/scoring/model.py

Only the development files (eval/gold/*-dev.jsonl and *-dev2.jsonl) are read. The test split and SemEval stay unseen, so the figures
`coach eval` prints on them are honest.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.bank.loader import load_bank  # noqa: E402
from app.grading.offline import OfflineGrader  # noqa: E402
from app.scoring.model import OrdinalModel  # noqa: E402

SETS = [("eval/gold/seed-dev.jsonl", "content"), ("eval/gold/minimal-dev.jsonl", "eval/content"),
        ("eval/gold/seed-dev2.jsonl", "content"), ("eval/gold/minimal-dev2.jsonl", "eval/content")]
L2 = 1.0  # ridge penalty: keeps weights small and stable on a few hundred decisions


RECORDS: list[dict] = []


def collect() -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for gold, content in SETS:
        bank = load_bank(ROOT / content)
        grader = OfflineGrader(bank.glossary)
        for line in (ROOT / gold).read_text().splitlines():
            row = json.loads(line)
            q = bank.get(row["question_id"])
            g = grader.grade_core(q, row["answer"])
            for cp in g.checkpoints:
                feats = dict(cp.features) or {n: 0.0 for n in OrdinalModel.FEATURES}
                xs.append([feats[n] for n in OrdinalModel.FEATURES])
                ys.append({"missed": 0, "partial": 1, "covered": 2}[row["checkpoints"][cp.id]])
                RECORDS.append({"file": gold, "id": row["id"], "kind": row.get("kind", ""), "cp": cp.id, "gold": ys[-1], **feats})
    return np.array(xs), np.array(ys)


# Signals that can only count against a checkpoint: saying its opposite, or hedging. A fit that
# gives one of them a positive weight has learnt a quirk of the labelled set; it is left out.
NON_POSITIVE = ("negated", "hedged")


def fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """L2-regularised logistic regression, with the NON_POSITIVE signals kept at or below zero."""
    keep = np.ones(x.shape[1], dtype=bool)
    while True:
        bias, coef = _fit(x[:, keep], y)
        full = np.zeros(x.shape[1])
        full[keep] = coef
        wrong = [i for i, name in enumerate(OrdinalModel.FEATURES) if name in NON_POSITIVE and full[i] > 0]
        if not wrong:
            return bias, full
        keep[wrong] = False


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """L2-regularised logistic regression by Newton's method (bias not penalised)."""
    mu, sd = x.mean(0), x.std(0) + 1e-9
    a = np.hstack([np.ones((len(x), 1)), (x - mu) / sd])
    w = np.zeros(a.shape[1])
    reg = np.eye(a.shape[1]) * L2
    reg[0, 0] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-a @ w))
        grad = a.T @ (p - y) + reg @ w
        hess = a.T @ (a * (p * (1 - p))[:, None]) + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    # Back to the raw feature scale so the model applies to unstandardised features.
    coef = w[1:] / sd
    return float(w[0] - (coef * mu).sum()), coef


def main() -> None:
    x, y = collect()
    pb, pw = fit_logistic(x, (y >= 1).astype(float))
    cb, cw = fit_logistic(x, (y == 2).astype(float))
    model = OrdinalModel(round(pb, 3), tuple(round(float(v), 3) for v in pw), round(cb, 3), tuple(round(float(v), 3) for v in cw))
    pred = np.array([2 if model.predict(dict(zip(OrdinalModel.FEATURES, r)))[1] >= 0.5 else 1 if model.predict(dict(zip(OrdinalModel.FEATURES, r)))[0] >= 0.5 else 0 for r in x])
    print(f"# {len(y)} checkpoint decisions; dev accuracy of the fit {np.mean(pred == y):.3f}")
    print(f"DEFAULT_MODEL = {model!r}")
    if "--cv" in sys.argv:
        # 5-fold cross-validation over answers of the dev split: compares feature sets honestly.
        ids = sorted({r["id"] for r in RECORDS})
        fold_of = {a: i % 5 for i, a in enumerate(ids)}
        folds = np.array([fold_of[r["id"]] for r in RECORDS])
        correct = 0
        for f in range(5):
            tr, te = folds != f, folds == f
            pb_, pw_ = fit_logistic(x[tr], (y[tr] >= 1).astype(float))
            cb_, cw_ = fit_logistic(x[tr], (y[tr] == 2).astype(float))
            m_ = OrdinalModel(pb_, tuple(pw_), cb_, tuple(cw_))
            for row, gold in zip(x[te], y[te]):
                pp, pc = m_.predict(dict(zip(OrdinalModel.FEATURES, row)))
                correct += (2 if pc >= 0.5 else 1 if pp >= 0.5 else 0) == gold
        print(f"# 5-fold CV accuracy on dev: {correct / len(y):.3f}")
    if "--report" in sys.argv:
        from collections import Counter
        print("confusion (gold -> pred):", sorted(Counter(zip(y.tolist(), pred.tolist())).items()))
        bad = Counter((r["kind"], r["gold"], int(p)) for r, p in zip(RECORDS, pred) if r["gold"] != p)
        for k, n in bad.most_common(25):
            print(n, k)


if __name__ == "__main__":
    main()
