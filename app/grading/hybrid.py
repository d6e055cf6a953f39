"""The hybrid grader: the offline grader and the LLM grader on every answer, one decision per
checkpoint, every disagreement kept and shown.

The rule, per checkpoint (after the LLM's quotes were checked against the answer):
1. Both agree: that state.
2. The LLM is lower than the offline grader: the LLM's state. It reads meaning, and similarity
   matching can be fooled by an answer that uses the right words to say something else.
3. The LLM is higher: the LLM's state if its quote was found verbatim in the answer, else the
   offline state. Credit above the offline grade must be shown in the answer's own words.
Put shortly: the lower of the two states, unless the LLM backs a higher one with a verified quote.

Misconceptions: flagged when the LLM flags one with a verified quote (unverified ones were
already dropped). One flagged by the offline grader alone is listed as a disagreement and not
counted: the LLM read that sentence and did not find the claim asserted.

If the LLM fails, the offline grade is returned, labelled ``offline-fallback``, as for ``llm``.
"""

from __future__ import annotations

from app.bank.schema import Question
from app.grading.base import CheckpointResult, Disagreement, Grader, GradeResult
from app.grading.llm import LLMGrader, LLMUnavailable, fallback_result, score_states

RANK = {"missed": 0, "partial": 1, "covered": 2}


def decide(offline: CheckpointResult, llm: CheckpointResult) -> tuple[CheckpointResult, str | None]:
    """The hybrid state for one checkpoint and, on disagreement, the reason for the decision.

    >>> off, hi = CheckpointResult(id="a", state="partial"), CheckpointResult(id="a", state="covered")
    >>> decide(off, hi)[0].state, decide(off, hi)[1]
    ('partial', 'the LLM is higher but its quote was not found in the answer: offline state kept')
    """
    if offline.state == llm.state:
        return llm.model_copy(update={"evidence": llm.evidence or offline.evidence, "strength": offline.strength}), None
    if RANK[llm.state] < RANK[offline.state]:
        return llm, "the LLM is lower: its reading is taken"
    if llm.evidence:
        return llm, "the LLM is higher and quotes the answer: its state is taken"
    return offline, "the LLM is higher but its quote was not found in the answer: offline state kept"


class HybridGrader:
    name = "hybrid"

    def __init__(self, offline: Grader, llm: LLMGrader):
        self.offline, self.llm = offline, llm

    def grade(self, question: Question, answer: str) -> GradeResult:
        off = self.offline.grade(question, answer)
        try:
            llm = self.llm.grade_or_raise(question, answer)
        except LLMUnavailable as err:
            return fallback_result(off, err.args[0])
        return combine(question, off, llm)


def combine(question: Question, off: GradeResult, llm: GradeResult) -> GradeResult:
    off_cp = {c.id: c for c in off.checkpoints}
    llm_cp = {c.id: c for c in llm.checkpoints}
    checkpoints, disagreements = [], []
    for cp in question.checkpoints:
        o = off_cp.get(cp.id) or CheckpointResult(id=cp.id, state="missed")
        m = llm_cp.get(cp.id) or CheckpointResult(id=cp.id, state="missed")
        chosen, reason = decide(o, m)
        checkpoints.append(chosen)
        if reason:
            disagreements.append(Disagreement(id=cp.id, offline=o.state, llm=m.state, decided=chosen.state, reason=reason))
    llm_mis = {m.id for m in llm.misconceptions}
    for m in off.misconceptions:
        if m.id not in llm_mis:
            disagreements.append(
                Disagreement(kind="misconception", id=m.id, offline="flagged", llm="not flagged", decided="not flagged",
                             reason="only the offline grader saw this claim; the LLM did not find it asserted")
            )
    for m in llm.misconceptions:
        if m.id not in {o.id for o in off.misconceptions}:
            disagreements.append(
                Disagreement(kind="misconception", id=m.id, offline="not flagged", llm="flagged", decided="flagged",
                             reason="the LLM quotes the claim from the answer")
            )
    score = score_states(question, {c.id: c.state for c in checkpoints}, len(llm.misconceptions))
    return GradeResult(
        grader="hybrid",
        score=score,
        checkpoints=checkpoints,
        misconceptions=llm.misconceptions,
        notes=[*llm.notes, *off.notes],
        disagreements=disagreements,
        follow_up=llm.follow_up,
    )
