"""Agreement between a grader and hand labels (`coach eval`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from app.bank.loader import Bank
from app.grading.batch import require_answer_fields
from app.grading.base import Grader

STATES = ("covered", "partial", "missed")


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman rank correlation with average ranks for ties.

    >>> round(spearman([1, 2, 3, 4], [10, 20, 30, 25]), 2)
    0.8
    """
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=lambda i: v[i])
        r = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                r[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return r

    if len(xs) < 2:
        return 0.0
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else 0.0


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


@dataclass
class Report:
    answers: int = 0
    skipped: int = 0
    pairs: list[tuple[str, str]] = field(default_factory=list)  # (gold, predicted) per checkpoint
    mis_tp: int = 0
    mis_fp: int = 0
    mis_fn: int = 0
    scores: list[float] = field(default_factory=list)
    ratings: list[float] = field(default_factory=list)
    keyword_cps: int = 0
    keyword_covered: int = 0
    disagreements: list[str] = field(default_factory=list)

    def figures(self) -> dict[str, float]:
        n = len(self.pairs)
        acc = sum(g == p for g, p in self.pairs) / n if n else 0.0
        f1s = []
        per = {}
        for s in STATES:
            tp = sum(g == s and p == s for g, p in self.pairs)
            fp = sum(g != s and p == s for g, p in self.pairs)
            fn = sum(g == s and p != s for g, p in self.pairs)
            per[s] = prf(tp, fp, fn)
            f1s.append(per[s][2])
        mp, mr, mf = prf(self.mis_tp, self.mis_fp, self.mis_fn)
        return {
            "answers": self.answers,
            "checkpoints": n,
            "accuracy": acc,
            "macro_f1": sum(f1s) / len(f1s),
            "covered_precision": per["covered"][0],
            "covered_recall": per["covered"][1],
            "covered_f1": per["covered"][2],
            "misconception_precision": mp,
            "misconception_recall": mr,
            "misconception_f1": mf,
            "spearman": spearman(self.scores, self.ratings),
            "keyword_covered_share": self.keyword_covered / self.keyword_cps if self.keyword_cps else 0.0,
        }


def parse_gold_row(line: str) -> dict[str, Any]:
    """One labelled row, checked: the contract-2 input plus ``checkpoints`` (id -> state),
    optional ``misconceptions`` (ids) and ``rating`` (1-5). Raises ValueError saying what is wrong."""
    try:
        row = json.loads(line)
    except json.JSONDecodeError as err:
        raise ValueError(f"bad JSON: {err.msg}") from None
    require_answer_fields(row)
    checkpoints = row.get("checkpoints")
    if not isinstance(checkpoints, dict) or not all(isinstance(v, str) and v in STATES for v in checkpoints.values()):
        raise ValueError("'checkpoints' must map checkpoint ids to covered, partial or missed")
    misconceptions = row.get("misconceptions", [])
    if not isinstance(misconceptions, list) or not all(isinstance(m, str) for m in misconceptions):
        raise ValueError("'misconceptions' must be a list of misconception ids")
    rating = row.get("rating")
    if rating is not None and (isinstance(rating, bool) or not isinstance(rating, (int, float)) or not 1 <= rating <= 5):
        raise ValueError("'rating' must be a number from 1 to 5")
    return row


def evaluate_file(rows: list[dict[str, Any]], *, bank: Bank, grader: Grader) -> Report:
    report = Report()
    for row in rows:
        question = bank.get(row.get("question_id", ""))
        if question is None:
            report.skipped += 1
            continue
        result = grader.grade(question, row["answer"])
        report.answers += 1
        predicted = result.states()
        for cp in question.checkpoints:
            gold = row["checkpoints"].get(cp.id, "missed")
            pred = predicted.get(cp.id, "missed")
            report.pairs.append((gold, pred))
            if row.get("kind") == "keywords":
                report.keyword_cps += 1
                report.keyword_covered += pred == "covered"
            if gold != pred:
                report.disagreements.append(f"{row.get('id')} [{row.get('kind', '')}] {cp.id}: gold {gold}, got {pred}")
        gold_m = set(row.get("misconceptions", []))
        pred_m = {m.id for m in result.misconceptions}
        report.mis_tp += len(gold_m & pred_m)
        report.mis_fp += len(pred_m - gold_m)
        report.mis_fn += len(gold_m - pred_m)
        for m in sorted(pred_m ^ gold_m):
            report.disagreements.append(f"{row.get('id')} [{row.get('kind', '')}] misconception {m}: {'missed' if m in gold_m else 'false alarm'}")
        if "rating" in row:
            report.scores.append(result.score)
            report.ratings.append(float(row["rating"]))
    return report


def format_report(report: Report, *, show_errors: int = 0) -> str:
    f = report.figures()
    lines = [
        f"answers graded            {f['answers']} ({report.skipped} skipped: unknown question)",
        f"checkpoint decisions      {f['checkpoints']}",
        f"3-way accuracy            {f['accuracy']:.3f}",
        f"macro-F1                  {f['macro_f1']:.3f}",
        f"covered P / R / F1        {f['covered_precision']:.3f} / {f['covered_recall']:.3f} / {f['covered_f1']:.3f}",
        f"misconception P / R / F1  {f['misconception_precision']:.3f} / {f['misconception_recall']:.3f} / {f['misconception_f1']:.3f}",
        f"Spearman(score, rating)   {f['spearman']:.3f}",
        f"keyword-list covered      {f['keyword_covered_share']:.3f}",
    ]
    if show_errors:
        lines.append("")
        lines.extend(report.disagreements[:show_errors])
    return "\n".join(lines)
