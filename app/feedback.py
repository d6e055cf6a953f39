"""Turn a graded attempt into what the feedback page shows: the answer with its evidence
highlighted, each checkpoint with its state and advice, misconceptions with corrections,
and the follow-up to try next."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.bank.schema import FollowUp, Question
from app.grading.base import GradeResult
from app.models import Attempt, AttemptStatus

STATE_ORDER = {"missed": 0, "partial": 1, "covered": 2}
STATE_LABEL = {"covered": "Covered", "partial": "Partly covered", "missed": "Missed"}


@dataclass
class Segment:
    text: str
    marks: list[int] = field(default_factory=list)  # 1-based checkpoint numbers
    wrong: bool = False  # part of an asserted misconception


@dataclass
class CheckpointView:
    number: int
    id: str
    text: str
    state: str
    label: str
    why: str | None
    tip: str | None
    evidence: list[str]
    comment: str | None


@dataclass
class MisconceptionView:
    id: str
    text: str
    correction: str | None
    evidence: list[str]


@dataclass
class DisagreementView:
    """Where the hybrid grader's offline and LLM graders differ (see app/grading/hybrid.py)."""

    label: str  # "Point 2: …" or "Claim: …"
    offline: str
    llm: str
    decided: str
    reason: str


@dataclass
class FeedbackView:
    score: int
    grader: str
    checkpoints: list[CheckpointView]
    misconceptions: list[MisconceptionView]
    segments: list[Segment]
    follow_up: FollowUp | None
    notes: list[str]
    counts: dict[str, int]
    fallback_reason: str | None = None  # the LLM failed and this is the offline grade
    disagreements: list[DisagreementView] = field(default_factory=list)


def segment_answer(answer: str, spans: list[tuple[int, int, int | None]]) -> list[Segment]:
    """Cut the answer at every span boundary; each piece knows which checkpoints it supports.

    >>> [(s.text, s.marks) for s in segment_answer("abcdef", [(1, 3, 1), (2, 5, 2)])]
    [('a', []), ('b', [1]), ('c', [1, 2]), ('de', [2]), ('f', [])]
    """
    cuts = {0, len(answer)}
    for start, end, _ in spans:
        cuts.update((max(0, min(start, len(answer))), max(0, min(end, len(answer)))))
    points = sorted(cuts)
    out = []
    for a, b in zip(points, points[1:]):
        covering = [s for s in spans if s[0] <= a and b <= s[1]]
        out.append(
            Segment(
                answer[a:b],
                sorted({n for *_, n in covering if n is not None}),
                any(n is None for *_, n in covering),
            )
        )
    return out


def pick_follow_up(question: Question, states: dict[str, str], *, asked: set[str] | frozenset[str] = frozenset()) -> FollowUp | None:
    """The authored follow-up aimed at the weakest checkpoint, else the first one; none in ``asked``."""
    candidates = [f for f in question.follow_ups if f.text not in asked]
    if not candidates:
        return None
    weights = {c.id: c.weight for c in question.checkpoints}

    def weakness(f: FollowUp) -> tuple[int, float]:
        if f.checkpoint_id is None:
            return (3, 0.0)
        return (STATE_ORDER.get(states.get(f.checkpoint_id, "covered"), 2), -weights.get(f.checkpoint_id, 1.0))

    return min(candidates, key=weakness)


def build_feedback(attempt: Attempt, question: Question) -> FeedbackView | None:
    if attempt.status != AttemptStatus.graded or not attempt.result:
        return None
    result = GradeResult.model_validate(attempt.result)
    by_id = {c.id: c for c in result.checkpoints}
    views, spans = [], []
    for n, cp in enumerate(question.checkpoints, start=1):
        r = by_id.get(cp.id)
        state = r.state if r else "missed"
        for e in r.evidence if r else []:
            spans.append((e.start, e.end, n))
        views.append(
            CheckpointView(
                number=n, id=cp.id, text=cp.text, state=state, label=STATE_LABEL[state], why=cp.why, tip=cp.tip,
                evidence=[e.text for e in r.evidence] if r else [], comment=r.comment if r else None,
            )
        )
    mis_defs = {m.id: m for m in question.misconceptions}
    mviews = []
    for m in result.misconceptions:
        d = mis_defs.get(m.id)
        for e in m.evidence:
            spans.append((e.start, e.end, None))
        mviews.append(MisconceptionView(m.id, d.text if d else m.id, d.correction if d else m.comment, [e.text for e in m.evidence]))
    counts = {s: sum(1 for v in views if v.state == s) for s in ("covered", "partial", "missed")}
    return FeedbackView(
        score=result.score,
        grader=result.grader,
        checkpoints=views,
        misconceptions=mviews,
        segments=segment_answer(attempt.answer, spans),
        follow_up=pick_follow_up(question, result.states()),
        notes=result.notes,
        counts=counts,
        fallback_reason=result.fallback_reason,
        disagreements=_disagreement_views(result, question),
    )


def _disagreement_views(result: GradeResult, question: Question) -> list[DisagreementView]:
    numbers = {c.id: (n, c.text) for n, c in enumerate(question.checkpoints, start=1)}
    claims = {m.id: m.text for m in question.misconceptions}
    views = []
    for d in result.disagreements:
        if d.kind == "checkpoint" and d.id in numbers:
            label = f"Point {numbers[d.id][0]}: {_clip(numbers[d.id][1])}"
        else:
            label = f"Claim: {_clip(claims.get(d.id, d.id))}"
        views.append(DisagreementView(label, d.offline, d.llm, d.decided, d.reason))
    return views


def _clip(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
