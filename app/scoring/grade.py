"""The offline grader's core: decide, per checkpoint, covered / partial / missed with evidence,
flag asserted misconceptions, and give a 0-100 score.

How an answer is read (see ``reading.py``): it is cut into clauses; clauses that admit not
knowing, are retracted a moment later, address the grader, or only restate the question are
set aside. Each remaining clause, and each pair of neighbouring clauses, is a candidate window.

Signals per checkpoint (``checkpoint_features``), each a plain number:
- ``meaning``: best cosine between a window and the checkpoint (its text or an example
  phrasing), after the glossary mapped variants and mishearings to canonical terms;
- ``specific``: how much closer that window is to this checkpoint than to the question's other
  checkpoints (a sentence about Tensor Cores is not evidence for 2:4 sparsity);
- ``concepts`` / ``concepts_all``: share of the checkpoint's key concepts named in the window /
  anywhere in the usable answer (fuzzy, stemmed, glossary-aware);
- ``facets``: share of the checkpoint's sub-claims that some window makes;
- ``support``: how many distinct windows speak to the checkpoint (elaboration);
- ``substance``: 0 for a bare list of terms or a fragment, 1 for a full claim;
- ``negated`` and ``hedged`` of the best window;
- ``align`` / ``align_all``: how much of the checkpoint's wording finds a counterpart, word by
  word in context, in the best window / anywhere in the usable answer;
- ``jargon``: the share of the best window's words that are the rubric's own words (a clause
  made of the rubric's terms names more than it explains; one as close in its own words says more);
- ``length``: how much the best window says, its content words up to twenty.
An ordinal logistic model with global weights (``model.py``; fitted once on a labelled
development split, never per question) turns them into P(at least partial) and P(covered).

Misconceptions: a window asserts one when it is close to the wrong claim, closer to it than to
the correction and to every checkpoint, with the same polarity (a negated window rejects it).
Windows that assert a misconception earn no checkpoint credit.

Score scale: 0..100 = 100 x the weighted mean over checkpoints of 0.75 x the state's credit
(covered 1, partial 0.5, missed 0) + 0.25 x the expected credit P(covered) + 0.5 P(partial only),
each asserted misconception then taking a 30% share of it away. An empty answer scores 0.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np
from rapidfuzz import fuzz, process

from app.scoring import polarity
from app.scoring.model import DEFAULT_MODEL, OrdinalModel
from app.scoring.reading import Clause, about_me, read_answer
from app.scoring.spelling import acronym_targets, join_spelt, respell, rubric_targets
from app.scoring.terms import TermMatcher, concept_key
from app.scoring.text import FILLERS, STOPWORDS, STUTTER, content_words, memo_for_short, normalize, plain_idioms, root, spell_out_contractions, stem, tokenize, tidy_typography

Encode = Callable[[Sequence[str]], np.ndarray]
# Per text: unit-length contextual token vectors (n, d) and the word pieces they stand for.
EncodeTokens = Callable[[Sequence[str]], list[tuple[np.ndarray, tuple[str, ...]]]]

COVERED, PARTIAL, MISSED = "covered", "partial", "missed"
STATE_CREDIT = {COVERED: 1.0, PARTIAL: 0.5, MISSED: 0.0}
# Share of what the answer earned that each asserted misconception takes away. A share, not a
# flat number of points: a weak answer that also asserts wrong things stays above an empty one,
# so the score keeps ordering answers at the bottom (it ordered the development files' answers
# better than 8 points off per claim on all four; see the README).
MISCONCEPTION_PENALTY = 0.3


def scale_score(credits: Sequence[tuple[float, float]], misconceptions: int, *, penalty: float = MISCONCEPTION_PENALTY) -> int:
    """The 0..100 score from (weight, credit 0..1) per checkpoint, less a share per wrong claim.

    Shared by every grader so their scores mean the same thing.

    >>> scale_score([(1.0, 1.0), (1.0, 0.5)], 0), scale_score([(1.0, 1.0), (1.0, 0.5)], 1), scale_score([(1.0, 1.0), (1.0, 0.5)], 2)
    (75, 52, 37)
    """
    total = sum(w for w, _ in credits)
    value = 100.0 * sum(w * c for w, c in credits) / total * (1.0 - penalty) ** misconceptions if total else 0.0
    return int(round(min(100.0, max(0.0, value))))


@dataclass(frozen=True)
class Point:
    """A checkpoint or misconception as the core sees it."""

    id: str
    text: str
    weight: float = 1.0
    aliases: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    correction: str | None = None


@dataclass(frozen=True)
class Rubric:
    prompt: str
    checkpoints: tuple[Point, ...]
    misconceptions: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Span:
    start: int
    end: int


@dataclass(frozen=True)
class CheckpointGrade:
    id: str
    state: str
    strength: float  # expected credit 0..1: P(covered) + 0.5 P(partial)
    evidence: tuple[Span, ...] = ()
    features: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class MisconceptionHit:
    id: str
    evidence: tuple[Span, ...]
    strength: float


@dataclass(frozen=True)
class Grade:
    score: int
    checkpoints: tuple[CheckpointGrade, ...]
    misconceptions: tuple[MisconceptionHit, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tuning:
    """Decision settings with documented defaults; nothing here is fitted per question."""

    model: OrdinalModel = DEFAULT_MODEL
    # Misconception: cosine to the wrong claim at least this, and this much above the correct statements.
    misconception_sim: float = 0.55
    misconception_margin: float = 0.08
    # ... or only closer, when the window all but restates the claim and uses none of the words
    # only its correction has ('with tensor parallelism each GPU gets whole layers').
    misconception_close_sim: float = 0.85
    misconception_penalty: float = MISCONCEPTION_PENALTY
    support_sim: float = 0.5  # a window 'speaks to' a checkpoint above this cosine
    # Below this cosine, with hardly any of its words named (under 5%), nothing in the answer is
    # evidence for a checkpoint (of the development decisions under both, 121 were missed and 2 not).
    evidence_sim: float = 0.4
    facet_sim: float = 0.55


@dataclass
class _Window:
    start: int
    end: int
    text: str  # canonical text given to the encoder
    words: frozenset[str] = frozenset()
    keys: frozenset[str] = frozenset()
    near: frozenset[str] = frozenset()  # rubric words this text has a near miss of
    negated: bool = False
    hedged: bool = False
    reported: bool = False
    supposed: bool = False  # a supposition ('if X were so, ...'): reasoned about, not claimed
    left_out: str = ""  # what this reading of a clause leaves out: the means it ends on
    substance: float = 1.0
    sentence: int = 0
    clauses: tuple[int, ...] = ()


_FILLER_RE = re.compile(r"\b(?:um+|uh+|erm|er|hmm+|mm+|ah|eh|you know|i guess|kind of|sort of|like,)\s*", re.I)


def clean_for_matching(text: str, matcher: TermMatcher) -> str:
    """Drop fillers and stutters, then canonicalise glossary terms."""
    return _clean(text, matcher)


@lru_cache(maxsize=32768)
def _clean(text: str, matcher: TermMatcher) -> str:
    # Memoised: rubric texts are cleaned again for every answer they grade.
    text = normalize(text)
    for _ in range(2):  # twice: 'kind um of' is 'kind of' once the 'um' is gone
        text = " ".join(_FILLER_RE.sub(" ", text).split())  # no double space where a filler was
    text = STUTTER.sub(r"\1", text)
    return matcher.canonicalize(plain_idioms(spell_out_contractions(text)))


@lru_cache(maxsize=16384)
def _key_terms(text: str, matcher: TermMatcher) -> tuple[frozenset[str], frozenset[str]]:
    canon = clean_for_matching(text, matcher)
    return frozenset(content_words(canon)), frozenset(matcher.keys_in(canon))


def _is_list_like(text: str) -> bool:
    """'quantization, pruning, distillation and tensorrt' names things without saying anything."""
    parts = [p for p in re.split(r",|;|\band\b|\bor\b|/", text) if p.strip()]
    if len(parts) < 3:
        return False
    lengths = [len([t for t in tokenize(p) if t.text not in FILLERS]) for p in parts]
    # Mostly bare names; not a sentence with a gap ('training cares about accuracy and
    # convergence with large batches, inference about latency, memory and cost').
    return sum(lengths) / len(lengths) <= 2.6 and sum(n <= 2 for n in lengths) > len(lengths) / 2


# Words a clause cannot end on when it makes a claim of its own.
_DANGLING = frozenset("means mean is are was were because where when which whereby to of by with the a an than".split())
_BEFORE_THAT = frozenset("means mean is are was were says say so such".split())  # 'fixes that' is a claim


@lru_cache(maxsize=4096)
def core_text(text: str) -> str:
    """A checkpoint without its bracketed asides ('(for example Medusa or EAGLE)'): examples and
    alternatives illustrate the point, they are not all required.

    >>> core_text("A cheap drafter (a small model, Medusa heads or n-gram lookup) guesses the next tokens")
    'A cheap drafter guesses the next tokens'
    """
    core = re.sub(r"\s+\([^()]*\)", "", text)  # 'min(1, p / q)' is a formula, not an aside
    return core if len(content_words(core)) >= 3 else text


@lru_cache(maxsize=16384)
def substance(text: str) -> float:
    """0 for a bare list of terms or a fragment, rising to 1 for a full claim.

    >>> substance("quantization, pruning, distillation, TensorRT"), substance("INT8 halves memory traffic again")
    (0.0, 0.75)
    >>> substance("Continuous batching means that"), substance("1F1B fixes that")
    (0.0, 0.25)
    """
    if _is_list_like(text):
        return 0.0
    toks = [t for t in (t.text for t in tokenize(text)) if t not in FILLERS]
    toks = [t for i, t in enumerate(toks) if not i or toks[i - 1] != t]  # a stutter's repeat adds nothing
    n = len(toks)
    if n < 3:
        return 0.0
    if n <= 6 and (toks[-1] in _DANGLING or toks[-1] == "that" and toks[-2] in _BEFORE_THAT) and not text.rstrip().endswith("("):
        return 0.0  # a stub whose claim follows elsewhere: 'continuous batching means that'

    base = min(1.0, (n - 2) / 4)
    if not any(t in STOPWORDS for t in toks) and n < 6:
        base *= 0.5
    return base


def _overlap(ref_words: frozenset[str], ref_keys: frozenset[str], words: frozenset[str], keys: frozenset[str],
             near: frozenset[str] = frozenset()) -> float:
    """Weighted recall of the reference's concepts (glossary concepts count double); ``near``:
    reference words the text has misspelt or inflected in a way the stemmer missed."""
    total = 2.0 * len(ref_keys) + len(ref_words)
    if total == 0:
        return 0.0
    missing = ref_words - words
    hit = 2.0 * len(ref_keys & keys) + len(ref_words) - len(missing) + 0.8 * len(missing & near)
    return hit / total


_SYNONYMS: dict[str, frozenset[str]] = {
    stem(a): frozenset(stem(b) for b in group if stem(b) != stem(a)) for group in polarity.SYNONYM_GROUPS for a in group
}


def _near_words(vocabulary: frozenset[str], words: frozenset[str]) -> dict[str, frozenset[str]]:
    """For each answer word, the rubric words it stands for without being them: near misses of
    6+ letters ('quantisation' -> 'quantization'), found in one vectorised pass, and plain
    synonyms ('waiting' for the rubric's 'idle')."""
    out = {w: same for w in words if (same := _SYNONYMS.get(w, frozenset()) & vocabulary)}
    refs = sorted(w for w in vocabulary if len(w) >= 6)
    cands = sorted(w for w in words if len(w) >= 5)
    if not refs or not cands:
        return out
    scores = process.cdist(refs, cands, scorer=fuzz.ratio, score_cutoff=85, dtype=np.uint8)
    for j, c in enumerate(cands):
        hits = frozenset(refs[i] for i in np.flatnonzero(scores[:, j]) if refs[i] != c)
        if hits:
            out[c] = out.get(c, frozenset()) | hits
    return out


def split_facets(text: str) -> list[str]:
    """The separate sub-claims of a checkpoint ('A; B; trade-off: C' -> [A, B, C])."""
    parts = [p.strip(" ()") for p in re.split(r";|\s\(|\)\s|(?<!\d):(?!\d)|\s-\s|\.\s|, (?:and |or |but )?(?=trade|which|so |while |whereas )", text) if p.strip()]
    facets = [p for p in parts if len(content_words(p)) >= 2]
    return facets if len(facets) > 1 else []


# A clause that opens on its reason ('since only 2 of the 8 experts are active, you only need
# memory for the active parameters'): what it claims is the part after the reason.
_LEADING_REASON = re.compile(r"^(?:(?:and|so|but)\s+)?(?:because|since|as)\b(?P<reason>[^,;:]+),\s*(?P<main>.+)$", re.I)


def claim_facets(text: str) -> list[str]:
    """The parts of a wrong claim that are wrong when said alone: its headline, each chain of
    premise and conclusion, and each conclusion, but not a premise alone, which is often true
    ('Because only a few experts are active, the model only needs memory for them' -> the
    conclusion; 'X trades quality for speed: part of the output comes from Y, so the text is
    worse' -> the headline, the chain and 'the text is worse', not 'part of the output comes
    from Y').

    >>> claim_facets("Speculative decoding trades quality for speed: part of the output comes from the small model, so the text reads worse.")
    ['Speculative decoding trades quality for speed', 'part of the output comes from the small model, so the text reads worse', 'the text reads worse']
    """
    text = re.sub(r"\s*\([^)]*\)", "", text).strip(" .")
    m = _LEADING_REASON.match(text)
    main = m.group("main") if m else text
    parts = []
    for chain in re.split(r"[;:]\s", main):
        links = re.split(r",\s(?=so\s|which\s)", chain)
        parts.append(chain)
        if len(links) > 1:
            parts.append(re.sub(r"^(?:so|which)\s+", "", links[-1]))
    parts = [p.strip(" .") for p in parts if len(content_words(p)) >= 3]
    return [p for p in dict.fromkeys(parts) if p != text]


# Verbs of paying attention: 'micro-batches are something to think about / to keep in mind'.
_ATTENDING = ("think", "consider", "keep", "watch", "look", "remember", "mention", "know", "note", "bear", "care", "worry")
# Predicates that say nothing about what they are said of: 'X and Y matter', 'X is worth mentioning'.
_EMPTY_PREDICATES = frozenset(
    """important importance matter matters mattered relevant relevance worth mention mentioning mentioned key crucial
    essential useful helpful involved involve involves role roles play plays come comes into thing things stuff topic
    topics area areas part parts big huge main interesting consider considered considering remember know aware
    familiar heard relate related relates concept concepts idea ideas factor factors aspect aspects good great nice
    need needs needed definitely probably also all both various several other others whole lot really quite
    something handle handles handled deal deals situation situations technique techniques framework frameworks
    tradeoff tradeoffs trade-off trade-offs pros cons interconnect interconnects issue issues thinking mind careful
    attention account next step steps first last option options another approach approaches method methods way ways
    tool tools trick tricks help helps helped helping anything somehow maybe perhaps possibly guess believe suppose
    use uses used using people practice everyone everybody common commonly popular widely"""
    .split()
) | frozenset(_ATTENDING)
_EMPTY_STEMS = frozenset(content_words(" ".join(_EMPTY_PREDICATES)))
# 'to' before a verb of paying attention relates nothing: 'micro-batches are something to think about'.
_VAGUE_INFINITIVE = re.compile(rf"\bto (?:{'|'.join(_ATTENDING)})\b")
_RELATES = re.compile(r"\b(?:within|inside|intra|across|between|inter|among|over|on|onto|into|to|from|per|after|before|than|"
                      r"via|through|instead|rather|without|versus|vs)\b")


# A predicate that only values what it is said of ...
_EVALUATIVE = re.compile(r"\b(?:important|crucial|essential|key|useful|helpful|valuable|interesting|popular|powerful|"
                         r"fundamental|critical|vital|great|matters?|worth)\b")
# ... and the setting it is valued in, when nothing but generic words follow it to the end of
# the clause: 'that people use when training big models on lots of GPUs', 'for modern deep
# learning' (not 'for models that don't fit on one node', 'for inference since it cuts memory
# traffic', 'in production to halve the weight memory').
_SETTING_OPENERS = frozenset({"for", "in", "when", "while", "whenever", "that", "which", "among"})
_WHO = frozenset({"people", "we", "you", "everyone", "everybody", "anyone", "engineers", "teams", "practitioners", "folks", "one"})
_GENERIC = frozenset("""
    use uses used using people we you everyone everybody anyone engineers teams practitioners folks one those who
    when while whenever for in on with of at among and or the a an all any most many much lots lot big bigger large larger huge
    modern deep learning machine ml ai training train trains trained inference serving serve running run work working
    scaling scale deploying deploy building build models model networks network llms llm gpu gpus cluster clusters system
    systems workload workloads today nowadays these days practice production real practical really very are is be 're
    """.split()) | _WHO


def _without_use_setting(canon: str) -> str:
    """``canon`` without a trailing setting made of generic words (see ``_GENERIC``).

    >>> _without_use_setting("tp and pp are both really important techniques that people use when training big models on lots of gpu")
    'tp and pp are both really important techniques'
    >>> _without_use_setting("pipeline parallelism is useful for models that do not fit on one node")
    'pipeline parallelism is useful for models that do not fit on one node'
    """
    tokens = canon.split()
    bare = [t.strip(",.;:!?\"'()") for t in tokens]
    j = len(tokens)
    while j > 0 and (bare[j - 1] in _GENERIC or bare[j - 1] in _SETTING_OPENERS):
        j -= 1
    for i in range(max(j, 1), len(tokens) - 1):
        if bare[i] in _SETTING_OPENERS and (bare[i] not in ("that", "which") or bare[i + 1] in _WHO):
            return " ".join(tokens[:i]).rstrip(",")
    return canon


_DEGREE = frozenset("also too both so quite pretty super extremely truly definitely especially particularly".split())


def _valued_things(canon: str) -> list[str]:
    """The words of a valuing clause besides the valuing and generic words: what it values, if
    anything in particular ('tensor cores' in 'tensor cores are very important'; nothing in
    'large models are really important too')."""
    words = [t.text for t in tokenize(canon)]
    return [w for w in words if w not in STOPWORDS and w not in _GENERIC and w not in _SETTING_OPENERS and w not in _DEGREE
            and not _EVALUATIVE.fullmatch(w)]


@lru_cache(maxsize=16384)
def _clause_substance(text: str, matcher: TermMatcher) -> float:
    """``substance``, and 0 for a list in sentence form: a clause that names rubric terms and
    predicates nothing of them ('NVLink and InfiniBand matter', 'Megatron is worth mentioning')."""
    base = substance(text)
    if base == 0 or about_me(text):
        return 0.0  # a fragment, or the speaker's standing with a topic ('I can explain pipeline parallelism')
    canon = clean_for_matching(text, matcher)
    if _EVALUATIVE.search(canon):
        # Where a thing is valued is no claim about it: 'TP and PP are both really important
        # techniques that people use when training big models on lots of GPUs'.
        canon = _without_use_setting(canon)
        if not _valued_things(canon):
            return 0.0  # 'large models are really important too', 'it is also very important'

    # Concepts named by their term or by a short form ('bubbles' for pipeline bubbles).
    found = _concepts_at(canon, matcher)
    keys = {key for _, key in found}
    if not keys:
        return base
    if _RELATES.search(_VAGUE_INFINITIVE.sub(" ", canon)):
        return base  # 'TP within a node, PP across nodes': a relation between the terms is a claim
    named = frozenset().union(*(_term_words(k, matcher) for k in keys))
    said = set(content_words(canon)) - named - _EMPTY_STEMS
    if said:
        return base
    # Only empty words, but they link terms: 'Megatron-LM and DeepSpeed handle 3D parallelism'.
    verb = next((t.start for t in tokenize(canon) if t.start > found[0][0] and stem(t.text) in _EMPTY_STEMS), None)
    return base if verb is not None and found[-1][0] > verb else 0.0


def _build_windows(clauses: list[Clause], matcher: TermMatcher, vocabulary: frozenset[str] = frozenset(),
                   pair: tuple[str, str] | None = None, fix: Callable[[str], str] = lambda t: t, topic: str | None = None) -> list[_Window]:
    """Every usable clause, and every two neighbouring ones, as candidate evidence; ``vocabulary``:
    the rubric's words, for spotting near misses of them; ``pair``: the two concepts the question
    contrasts, which 'the first' and 'the other option' refer to; ``topic``: what the question is
    about (``topic_phrase``)."""
    windows: list[_Window] = []
    usable = [i for i, c in enumerate(clauses) if c.usable]
    canon_texts, handed = _resolve_ordinals(clauses, [fix(clean_for_matching(c.text, matcher)) for c in clauses], pair)
    # A bare marker ('The other option:') belongs to the clause after it, not to the one before.
    # A clause said again word for word ('..., as I said, ...', an answer pasted twice) is no new
    # neighbour: the pairs it formed the first time stand.
    first: dict[str, int] = {}
    again = {i for i in usable if first.setdefault(canon_texts[i], i) != i}
    # Nor, across sentences, is a clause that only says how the speaker stands with a topic
    # ('Tensor parallelism I only know superficially. Pipeline: ...'): it would lend the next
    # sentence its topic's name. (Within its sentence it names what follows: 'Pipeline parallelism
    # I know less well: you put different layers on different GPUs'.)
    aside = {i for i in usable if about_me(clauses[i].text)}
    groups = [(i,) for i in usable] + [
        (a, b) for a, b in zip(usable, usable[1:])
        # (across the words a repair swapped out: 'you take | the max | no the minimum of ...')
        if (b == a + 1 or b == a + 2 and clauses[a + 1].swapped) and clauses[b].sentence - clauses[a].sentence <= 1 and b not in handed and not {a, b} & again
        and not ({a, b} & aside and clauses[a].sentence != clauses[b].sentence)
    ]
    resolved = _resolve_it(clauses, matcher, canon_texts)
    for group in groups:
        cs = [clauses[i] for i in group]
        canon = resolved[group[0]] if len(group) == 1 else " ".join(canon_texts[i] for i in group)
        windows.append(
            _Window(
                start=cs[0].start,
                end=cs[-1].end,
                text=canon,
                words=frozenset(content_words(canon)),
                keys=frozenset(matcher.keys_in(canon)),
                negated=all(c.negated for c in cs),
                hedged=any(c.hedged for c in cs),
                reported=any(c.reported for c in cs),
                supposed=any(c.supposed for c in cs),
                sentence=cs[0].sentence,
                # ('It vibrates.' says what the question's rubber band does: a claim, not a fragment)
                substance=max(_clause_substance(_with_topic(c.text, topic) if c is clauses[0] else c.text, matcher) for c in cs),
                clauses=group,
            )
        )
    near = _near_words(vocabulary, frozenset().union(*(w.words for w in windows)))
    if near:
        for w in windows:
            w.near = frozenset().union(*(near.get(x, frozenset()) for x in w.words))
    return windows


_DETERMINER = re.compile(r"^(?:the|a|an|each|every|this|that|these|those|his|her|their|its)\s+")


@lru_cache(maxsize=256)
def topic_phrase(prompt: str, points: tuple[str, ...]) -> str | None:
    """What the question is about, where every point of the rubric that opens on the question's
    words opens on the same ones: the longest such run of words ('rubber band' for 'Why does a
    rubber band make a sound?' and 'The rubber band vibrates'). None where they open on different
    things, or none does.

    >>> topic_phrase("Why does a rubber band make a sound when you pluck it?", ("The rubber band vibrates.",))
    'rubber band'
    >>> topic_phrase("Compare tensor and pipeline parallelism.", ("Tensor parallelism splits layers.", "Pipeline parallelism splits the model.")) is None
    True
    """
    asked = f" {' '.join(re.findall(r'[a-z0-9-]+', normalize(prompt)))} "
    found = set()
    for point in points:
        words = re.findall(r"[a-z0-9-]+", _DETERMINER.sub("", normalize(point)))
        found |= {next((run for n in range(min(4, len(words)), 0, -1)
                        if f" {(run := ' '.join(words[:n]))} " in asked and set(words[:n]) - STOPWORDS), None)}
    found.discard(None)
    return found.pop() if len(found) == 1 else None


# An answer that opens on 'it' or 'they' ('It vibrates.') speaks of what the question asks about.
_OPENING_PRONOUN = re.compile(r"^\s*(?:(?:and|so|because|since|well),?\s+)*(it|they)(?=(?:'s|'re)?\s)", re.I)


def _with_topic(text: str, topic: str | None) -> str:
    m = _OPENING_PRONOUN.match(text) if topic else None
    return f"{text[: m.start(1)]}the {topic}{text[m.end(1):]}" if m else text


# A clause that opens on 'it', 'that' or 'this' ('it gives each GPU whole layers') speaks of the
# concept the clause before it opened on.
_IT = re.compile(r"^((?:(?:and|so|but|then|also|plus|because|since|where|while)\s+)*)(?:it(?:'s| is)?\s+(?!is\b|was\b|depends\b|means\b|turns\b|seems\b)|"
                 # 'that still runs each batch to completion', not 'that means', 'that way', 'that makes sense'
                 # nor a conjunction: 'so that if it crashes ...', 'that the result is exact'
                 r"(?:(?<!\bso )that|this)\s+(?!is\b|was\b|'s\b|depends\b|means\b|turns\b|seems\b|way\b|one\b|case\b|point\b|said\b|would\b|"
                 r"makes\b|explains\b|gives\b|leads\b|helps\b|matters\b|happens\b|also\b|"
                 r"if\b|when\b|whenever\b|once\b|the\b|an?\b|you\b|we\b|i\b|they\b|it\b|its\b|their\b|your\b|our\b|each\b|every\b|there\b))")


# 'It never hurts to check', 'it pays to', 'it makes sense to': an 'it' that stands for nothing before it.
_DUMMY_IT = re.compile(r"^(?:(?:and|so|but|also)\s+)*it(?:'s| is)?\s+(?:(?:never|always|often|usually|really|also)\s+)?"
                       r"(?:does(?:n'?t| not)\s+)?(?:hurts?|pays?|helps? to|worth|makes? sense|takes?|depends|seems|turns? out|means|is (?:important|worth|easy|hard))\b")


def _resolve_it(clauses: list[Clause], matcher: TermMatcher, texts: list[str] | None = None) -> list[str]:
    """Each clause's canonical text, with an opening 'it' (or 'that', 'this') replaced by the one concept the clause
    before (in the same or the previous sentence) names, at its start.

    >>> m = TermMatcher.build([("tensor parallelism", ("tp",))])
    >>> _resolve_it(read_answer("TP does not split layers; it gives each GPU whole layers."), m)
    ['tensor parallelism does not split layers', 'tensor parallelism gives each gpu whole layers']
    >>> _resolve_it(read_answer("TP stays in a node. Its all-reduce is costly."), m)[1]
    'its all-reduce is costly'
    """
    out = list(texts) if texts is not None else [clean_for_matching(c.text, matcher) for c in clauses]
    terms = {key: canonical for canonical, key in matcher.keys.items()}
    for i in range(1, len(clauses)):
        m = _IT.match(out[i])
        if not m or clauses[i].sentence - clauses[i - 1].sentence > 1:
            continue
        if not out[i][m.end(1):].startswith("it") and any(pos == m.end() for pos, _ in _concepts_at(out[i], matcher)):
            continue  # 'that GPU then has the output': a determiner before a term, not a pronoun
        found = _concepts_at(out[i - 1], matcher)
        # Only an unambiguous antecedent: 'PP has a bubble; it shrinks ...' may mean either.
        key = found[0][1] if len({key for _, key in found}) == 1 and _opens_on(out[i - 1], found[0][0]) else None
        if key is None and clauses[i].sentence != clauses[i - 1].sentence and not _DUMMY_IT.match(out[i]):
            # A sentence that opens on 'it' may speak of what the sentence before opened on, when none
            # of that sentence's later clauses opens on a concept of its own ('Checkpointing stores a
            # few activations and regenerates the rest, so memory drops. It's basically a free win.').
            first = next(j for j in range(i - 1, -1, -1) if j == 0 or clauses[j - 1].sentence != clauses[i - 1].sentence)
            said = _concepts_at(out[first], matcher)
            if said and _opens_on(out[first], said[0][0]) and not any(
                    (later := _concepts_at(out[j], matcher)) and _opens_on(out[j], later[0][0]) and later[0][1] != said[0][1] for j in range(first + 1, i)):
                key = said[0][1]
        if key is not None and key in terms:
            it = out[i][m.end(1) : m.end()]
            verb_s = "'s" in it or " is" in it
            out[i] = out[i][: m.end(1)] + terms[key] + (" is " if verb_s else " ") + out[i][m.end() :]
    return out


# 'Compare tensor parallelism and pipeline parallelism', 'GPipe vs 1F1B': two concepts set side by side.
_SIDE_BY_SIDE = re.compile(r"^\s*,?\s*(?:and|or|vs\.?|versus|with|against)\s+(?:the\s+|a\s+|an\s+)?$")


@lru_cache(maxsize=256)
def contrasted_pair(prompt: str, matcher: TermMatcher) -> tuple[str, str] | None:
    """The canonical terms of the two concepts a question sets side by side, in its order.

    >>> m = TermMatcher.build([("tensor parallelism", ("tp",)), ("pipeline parallelism", ("pp",))])
    >>> contrasted_pair("Compare TP and PP: how does each work?", m)
    ('tensor parallelism', 'pipeline parallelism')
    >>> contrasted_pair("How does TP work?", m) is None
    True
    """
    if matcher.key_regex is None:
        return None
    canon = clean_for_matching(prompt, matcher)
    found = list(matcher.key_regex.finditer(canon))
    for j, (a, b) in enumerate(zip(found, found[1:])):
        if a.group() != b.group() and _SIDE_BY_SIDE.match(canon[a.end() : b.start()]):
            # 'NVLink/NVSwitch and InfiniBand': the first side is named first.
            while j > 0 and canon[found[j - 1].end() : found[j].start()].strip() == "/":
                j -= 1
            return found[j].group(), b.group()
    return None


_KINDS = r"(?:one|option|approach|way|method|scheme|strategy|kind|type|technique|style|variant|flavou?r)"
_LEAD = r"^((?:(?:and|so|but|then|now|while|whereas)\s+)*(?:in |with |for |under )?)"
# 'the first,' / 'the first approach' (not 'the first few blocks'); 'the former' stands alone.
# A numbered marker, 'option one:', 'approach 2,', is a side only where punctuation ends it.
_NUMBERED = r"(?:option|approach|method|scheme|strategy|technique|variant)\s+"
_FIRST = re.compile(_LEAD + rf"(?:the (?:first(?: {_KINDS}\b|(?=\s*[,:]|\s*$))|former\b)|one {_KINDS}\b(?! of\b)|{_NUMBERED}(?:one|1|a)(?=\s*[,:]|\s*$))")
_SECOND = re.compile(_LEAD + rf"(?:the (?:(?:second|other)(?: {_KINDS}\b|(?=\s*[,:]|\s*$))|latter\b)|(?:an)?other {_KINDS}\b(?! of\b)|{_NUMBERED}(?:two|2|b)(?=\s*[,:]|\s*$))")


def _resolve_ordinals(clauses: list[Clause], texts: list[str], pair: tuple[str, str] | None) -> tuple[list[str], set[int]]:
    """Each canonical clause text, with 'the first' / 'one option' / 'the former' and 'the second' /
    'the other option' / 'the latter' at its start replaced by the concept of the question's pair it
    refers to; a clause that is nothing but the marker ('the other option:') hands it to the next.
    Only when the answer opens both sides, so 'one way is to ...' alone is left alone.

    >>> m = TermMatcher.build([("tensor parallelism", ("tp",)), ("pipeline parallelism", ("pp",))])
    >>> cs = read_answer("In the first, you cut each matrix. The other option: cut the stack into floors.")
    >>> _resolve_ordinals(cs, [clean_for_matching(c.text, m) for c in cs], ("tensor parallelism", "pipeline parallelism"))
    (['in tensor parallelism, you cut each matrix', 'pipeline parallelism', 'pipeline parallelism: cut the stack into floors'], {1})
    >>> cs = read_answer("Option one: every GPU gets a slice of each matrix. Option 2, each GPU takes a floor.")
    >>> _resolve_ordinals(cs, [clean_for_matching(c.text, m) for c in cs], ("tensor parallelism", "pipeline parallelism"))[0]
    ['tensor parallelism: every gpu gets a slice of each matrix', 'pipeline parallelism, each gpu takes a floor']
    """
    handed: set[int] = set()
    if pair is None:
        return texts, handed
    marks = [(_FIRST.match(t), _SECOND.match(t)) for t in texts]
    if not any(f for f, _ in marks) or not any(s for _, s in marks):
        return texts, handed
    out = list(texts)
    for i, (first, second) in enumerate(marks):
        m = first or second
        if m is None:
            continue
        term = pair[0] if first else pair[1]
        out[i] = out[i][: m.end(1)] + term + out[i][m.end() :]
        if not content_words(texts[i][m.end() :]) and i + 1 < len(texts) and clauses[i + 1].sentence - clauses[i].sentence <= 1:
            out[i + 1] = f"{term}: {out[i + 1]}"
            handed.add(i)
    return out, handed


@lru_cache(maxsize=64)
def _vocabulary(rubric: Rubric, matcher: TermMatcher) -> frozenset[str]:
    """The words of the rubric's checkpoints (with aliases) and wrong claims."""
    texts = [" ".join((p.text, *p.aliases)) for p in rubric.checkpoints] + [m.text for m in rubric.misconceptions]
    return frozenset().union(*(_key_terms(t, matcher)[0] for t in texts))


# Negations typed without their apostrophe, or with a double quote for one: 'dont', 'doesn"t'.
_BARE_NOT = re.compile(r"\b(do|does|did|is|are|was|were|has|have|had|should|would|could|ca|wo|must|need)(?:n\"t|nt)\b", re.I)


def _with_apostrophes(answer: str) -> tuple[str, list[int]]:
    """``answer`` with 'dont', 'doesnt', 'isn"t' spelt 'don't', 'doesn't', 'isn't', and for each
    position of the new text the position it came from (evidence spans point into the original).

    >>> _with_apostrophes("it dont split")[0], _with_apostrophes('it isn"t')[0], _with_apostrophes("a wont b")[0]
    ("it don't split", "it isn't", "a won't b")
    """
    out, where, pos = [], [], 0
    for m in _BARE_NOT.finditer(answer):
        out.append(answer[pos : m.start()])
        where.extend(range(pos, m.start()))
        stem_end = m.start() + len(m.group(1)) + 1  # through the 'n'
        out.append(answer[m.start() : stem_end] + "'t")
        where.extend(range(m.start(), stem_end))
        where.extend([stem_end, m.end() - 1] if m.end() - stem_end == 2 else [stem_end, stem_end])
        pos = m.end()
    out.append(answer[pos:])
    where.extend(range(pos, len(answer) + 1))
    return "".join(out), where


class _Known:
    """English words and the glossary's own words ('tensorrt' is no slip of 'tensor')."""

    def __init__(self, english: Container[str], glossary: frozenset[str]):
        self.english, self.glossary = english, glossary

    def __contains__(self, word: object) -> bool:
        return word in self.glossary or word in self.english


def _asked_texts(rubric: Rubric, matcher: TermMatcher) -> list[str]:
    """The question and what its checkpoints say (with aliases and examples), as the encoder sees them."""
    texts = [rubric.prompt] + [t for p in rubric.checkpoints for t in (p.text, *p.aliases, *p.examples)]
    return [clean_for_matching(t, matcher) for t in texts]


@lru_cache(maxsize=256)
def _spelling_targets(rubric: Rubric, matcher: TermMatcher) -> frozenset[str]:
    """The rubric's own words, as the encoder sees them: what a misspelt answer word can stand for."""
    claims = [clean_for_matching(t, matcher) for m in rubric.misconceptions for t in (m.text, *m.examples)]
    return rubric_targets(_asked_texts(rubric, matcher) + claims)


@lru_cache(maxsize=256)
def _acronyms(rubric: Rubric, matcher: TermMatcher, english: Container[str]) -> frozenset[str]:
    """The rubric's short words that are no English (or glossary) words: what a run of spoken
    letters can spell ('gqa', 'mlp')."""
    known = _Known(english, matcher.words)
    return frozenset(w for w in acronym_targets(_asked_texts(rubric, matcher)) if w not in known)


_PLAIN_WORD = re.compile(r"[\w'-]+")


def _copy_of_prompt(window: _Window, prompt_words: set[str], rubric_words: set[str] = frozenset(), prompt: str = "") -> str:
    """How a window restates the question: 'verbatim' (copied from it word for word, negation and
    all; ``prompt`` is the question's canonical text), 'words' (made almost only of its words), or
    '' (it does not). One that restates it and adds what the rubric asks for ('... is a fruit if it
    has seeds') does not."""
    if len(window.words) >= 3 and prompt and f" {' '.join(_PLAIN_WORD.findall(window.text))} " in f" {prompt} ":
        return "verbatim"
    if len(window.words) < 4 or not prompt_words or window.negated:
        return ""  # 'memory layout does not affect GPU speed' answers 'why does layout affect ...?'
    if (window.words - prompt_words) & rubric_words:
        return ""
    return "words" if len(window.words & prompt_words) / len(window.words) >= 0.8 else ""


class _Refs:
    """Reference texts to encode once per grading, deduplicated."""

    def __init__(self, matcher: TermMatcher):
        self.matcher, self.texts, self.index = matcher, [], {}

    def add(self, text: str) -> int:
        t = clean_for_matching(text, self.matcher)
        if t not in self.index:
            self.index[t] = len(self.texts)
            self.texts.append(t)
        return self.index[t]


@lru_cache(maxsize=512)
def _rubric_refs(rubric: Rubric, matcher: TermMatcher):
    """Every reference text of a rubric, deduplicated, with the indices each part uses
    (memoised per rubric: the caller only reads them)."""
    refs = _Refs(matcher)
    prompt_ref = refs.add(rubric.prompt)
    cp_refs = [[refs.add(p.text)] + [refs.add(e) for e in p.examples] for p in rubric.checkpoints]
    cp_facets = [[refs.add(f) for f in split_facets(p.text)] for p in rubric.checkpoints]
    m_refs = [[refs.add(m.text)] + [refs.add(e) for e in m.examples] + [refs.add(f) for f in claim_facets(m.text)] for m in rubric.misconceptions]
    m_corr = [refs.add(m.correction) if m.correction else None for m in rubric.misconceptions]
    # What a wrong claim says of its subject, without the subject: an answer that has named the
    # subject earlier goes on 'there's no extra communication compared with plain data parallelism'.
    m_pred = [refs.add(pred) if (pred := claim_predicate(m.text, matcher)) else None for m in rubric.misconceptions]
    return refs, prompt_ref, cp_refs, cp_facets, m_refs, m_corr, m_pred


def reference_texts(rubric: Rubric, matcher: TermMatcher) -> list[str]:
    """The texts the grader compares answers with, for warming an encoder's cache."""
    return list(_rubric_refs(rubric, matcher)[0].texts)


_NUMBERED_KIND = re.compile(r"^\s*-?(?:(?:stage|level|tier|phase|version|type|mode|generation)\s*)?\d+\b")


# A verb in the third person ('costs', 'shards'), not a plural noun in -ss ('class').
_THIRD_PERSON = r"[a-z]+[^s\W]s"
_VERB_NEXT = re.compile(r"(?:is|are|was|were|has|have|had|can|cannot|could|will|would|does|do|did|never|always|only|mainly|just|also|"
                        r"simply|really|still|" + _THIRD_PERSON + r")\b")


def claim_predicate(text: str, matcher: TermMatcher) -> str | None:
    """What a claim that opens on a concept says of it, when that says something on its own.

    >>> m = TermMatcher.build([("ZeRO", ())])
    >>> claim_predicate("ZeRO stage 3 costs no extra communication compared with plain data parallelism.", m)
    'costs no extra communication compared with plain data parallelism.'
    >>> claim_predicate("Everything is fast.", m) is None
    True
    >>> claim_predicate("ZeRO optimizer states are sharded on every rank.", m) is None  # the term qualifies a noun
    True
    """
    canon = clean_for_matching(_first_claim(text), matcher)
    found = matcher.key_regex.search(canon) if matcher.key_regex is not None else None
    if found is None or not _opens_on(canon, found.start()):
        return None
    # the subject's numbered kind goes with it: 'ZeRO stage 3', 'FP8 e4m3' ... 'level 2'
    rest = _NUMBERED_KIND.sub("", canon[found.end() :]).strip(" ,")
    # The term must be the subject, with the verb next: in 'TensorRT engine built on one GPU ...' or
    # 'INT8 quantization never ...' it only qualifies the noun after it.
    if not _VERB_NEXT.match(rest) or len(content_words(rest)) < 3:
        return None
    return rest


def _encode_windows(windows: list[_Window], refs: list[str], encode: Encode, also: Sequence[str] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Encode single clauses and references; a two-clause window is the normalised mean of its
    clauses' vectors (mean pooling makes this close to encoding the joined text, at half the cost).
    ``also``: texts needed later, encoded in the same pass (the encoder keeps them in its cache)."""
    singles = [w for w in windows if len(w.clauses) == 1]
    vecs = encode([w.text for w in singles] + refs + list(also))
    by_clause = {w.clauses[0]: vecs[i] for i, w in enumerate(singles)}
    out = np.zeros((len(windows), vecs.shape[1]), dtype=np.float32)
    for i, w in enumerate(windows):
        v = sum(by_clause[c] for c in w.clauses)
        out[i] = v / max(float(np.linalg.norm(v)), 1e-9)
    return out, vecs[len(singles) : len(singles) + len(refs)]


# A foil: what the answer contrasts its subject with ('unlike a plain reduce, which leaves the
# sum on one root GPU, all-reduce ...'). The foil and what is said of it are not claims about the
# subject; the rest of the clause is.
_FOIL = re.compile(
    r"^(?:(?:and|but|so|well)\s+)?(?:(?:it|that|this)(?:'s| is) )?(?:unlike|as opposed to|in contrast (?:to|with)|contrary to|"
    r"compared (?:with|to)|(?:as )?(?:different|distinct) from|versus|vs\.?)\s+[^,;:]*(?:[,;:]\s*(?:which|where|that|who|whose|when)\b[^,;:]*)?[,;:]?\s*"
)


def _without_foils(windows: list[_Window], sims: np.ndarray, cp_sim: np.ndarray, cp_refs, rv: np.ndarray, encode: Encode,
                   matcher: TermMatcher) -> tuple[list[_Window], np.ndarray, np.ndarray]:
    """The windows as claims: a window that opens on a foil is read without it, and one that is
    all foil ('it's different from reduce, where only the root gets the result') claims nothing."""
    rest = {i: _FOIL.sub("", w.text, count=1) for i, w in enumerate(windows) if _FOIL.match(w.text)}
    if not rest:
        return windows, sims, cp_sim
    windows, sims, cp_sim = list(windows), sims.copy(), cp_sim.copy()
    keep = {i: t for i, t in rest.items() if len(t.split()) >= 3}
    for i in set(rest) - set(keep):
        windows[i] = replace(windows[i], supposed=True)  # nothing claimed outside the foil
    if keep:
        order = sorted(keep)
        read, new_sims, new_cp = _read_as([(windows[i], keep[i]) for i in order], cp_refs, rv, encode, matcher)
        for n, i in enumerate(order):
            windows[i], sims[i], cp_sim[i] = read[n], new_sims[n], new_cp[n]
    return windows, sims, cp_sim


def _read_as(pairs: list[tuple[_Window, str]], cp_refs, rv: np.ndarray, encode: Encode,
             matcher: TermMatcher) -> tuple[list[_Window], np.ndarray, np.ndarray]:
    """Windows read as other (shorter) texts: the new windows, their similarities to every
    reference, and to every checkpoint."""
    vecs = encode([t for _, t in pairs])
    sims = vecs @ rv.T
    cp_sim = np.stack([sims[:, r].max(axis=1) for r in cp_refs], axis=1)
    read = [replace(w, text=t, words=frozenset(content_words(t)), keys=frozenset(matcher.keys_in(t))) for w, t in pairs]
    return read, sims, cp_sim


# A clause that ends on how it is done ('you distill the teacher by squeezing its own weights
# down, using its outputs as targets'): the means can be true where the claim before it is not.
# (Not a result, ', making ...', ', leaving ...': that can be the wrong part, or qualify the claim.)
_TRAILING_MEANS = re.compile(r"^(?P<main>.+?\S),\s+(?:using|relying on)\s+(?P<means>.+)$")


def _claim_readings(windows: list[_Window]) -> list[tuple[int, str, str]]:
    """(window, text, what the reading leaves out that a wrong claim must not be read without):
    each clause that opens on its reason read without it, each clause that ends on its means read
    without them (the means left out), and each relative clause read as said of its noun
    (_relatives_said_of_their_noun)."""
    extra = []
    for i, w in enumerate(windows):
        if len(w.clauses) != 1:
            continue
        m = _LEADING_REASON.match(w.text)
        if m and len(content_words(m.group("main"))) >= 3:
            extra.append((i, m.group("main"), ""))
        m = _TRAILING_MEANS.match(w.text)
        if m and len(content_words(m.group("main"))) >= 3 and len(content_words(m.group("means"))) >= 2:
            extra.append((i, m.group("main"), m.group("means")))
    return extra + [(i, t, "") for i, t in _relatives_said_of_their_noun(windows)]


def _with_main_clauses(windows: list[_Window], sims: np.ndarray, cp_sim: np.ndarray, cp_refs, rv: np.ndarray, encode: Encode,
                       matcher: TermMatcher) -> tuple[list[_Window], np.ndarray, np.ndarray, list[int]]:
    """The claim windows plus, for each clause that opens on its reason, its main clause alone
    (the reason can make the clause as close to a correct point as to the wrong claim it draws
    from it); and for every window, the window of the answer it stands for."""
    parent = list(range(len(windows)))
    extra = _claim_readings(windows)
    if not extra:
        return windows, sims, cp_sim, parent
    read, new_sims, new_cp = _read_as([(windows[i], t) for i, t, _ in extra], cp_refs, rv, encode, matcher)
    read = [replace(r, left_out=left_out) if left_out else r for r, (_, _, left_out) in zip(read, extra)]
    return list(windows) + read, np.vstack([sims, new_sims]), np.vstack([cp_sim, new_cp]), parent + [i for i, _, _ in extra]


# A relative clause that says something of the noun before it ('rank 0, which averages them and
# then broadcasts ...'); not one that says something of the whole clause ('which means ...').
_WHICH = re.compile(r"^(?P<before>.*?\S),? which (?!means\b|is why\b|makes\b|leads\b|explains\b|gives\b)(?P<said>.+)$")
# Where a noun phrase before 'which' begins: after a preposition or a verb of sending.
_NP_START = frozenset("to from onto into on in at by with for of over than and or that is are was were".split())
# A clause that goes on with the same subject: 'and then broadcasts ...'.
_SAME_SUBJECT = re.compile(r"^(?:(?:and|then|or)\s+)+(?P<said>(?P<verb>[a-z]+(?<!ss)(?:s|ed))\b.*)$")
_NO_VERB = frozenset("the a an it its they their this that these those we you i each every all some most".split())


def _relatives_said_of_their_noun(windows: list[_Window]) -> list[tuple[int, str]]:
    """Claims that a non-restrictive relative clause makes of its noun, as (window, text): 'all
    GPUs send their results to rank 0, which averages them' -> 'rank 0 averages them'; a clause
    after it in the sentence that goes on without a subject ('and then broadcasts the new
    parameters') says its part of the same noun."""
    out = []
    noun_of: dict[int, tuple[int, str]] = {}  # clause -> (sentence, the noun its relative clause speaks of)
    for i, w in enumerate(windows):
        if len(w.clauses) != 1:
            continue
        m = _WHICH.match(w.text)
        if m:
            words = m.group("before").split()
            np_words: list[str] = []
            while words and len(np_words) < 3 and words[-1] not in _NP_START:
                np_words.insert(0, words.pop())
            if np_words and len(content_words(m.group("said"))) >= 2:
                noun = " ".join(np_words)
                noun_of[w.clauses[0]] = (w.sentence, noun)
                out.append((i, f"{noun} {m.group('said')}"))
            continue
        before = noun_of.get(w.clauses[0] - 1)
        m = _SAME_SUBJECT.match(w.text)
        if before and before[0] == w.sentence and m and m.group("verb") not in _NO_VERB and len(content_words(m.group("said"))) >= 2:
            noun_of[w.clauses[0]] = before
            out.append((i, f"{before[1]} {m.group('said')}"))
    return out


def _original_span(start: int, end: int, to_original: list[int]) -> Span:
    """A span of the read text as a span of what was written: from its first character through
    its last (not through marks the reader dropped after it, '**Tensor** parallelism')."""
    return Span(to_original[start], to_original[end - 1] + 1) if end > start else Span(to_original[start], to_original[start])


def _missed_all(rubric: Rubric, notes: list[str]) -> Grade:
    return Grade(0, tuple(CheckpointGrade(p.id, MISSED, 0.0) for p in rubric.checkpoints), (), tuple(notes))


def grade(rubric: Rubric, answer: str, *, encode: Encode, matcher: TermMatcher, tuning: Tuning = Tuning(),
          encode_tokens: EncodeTokens | None = None, known_words: Container[str] | None = None) -> Grade:
    """Grade one answer against one rubric. ``known_words``: English words; an answer word outside
    them that is one slip from a rubric word is read as that word (none given: none respelt).

    >>> toy = lambda texts: np.eye(len(texts), 8)  # an encoder that knows nothing
    >>> r = Rubric("Q?", (Point("a", "All-reduce sums gradients on every GPU"),))
    >>> grade(r, "", encode=toy, matcher=TermMatcher.build([])).score
    0
    """
    if not normalize(answer):
        return _missed_all(rubric, ["empty answer"])
    answer, typed_at = tidy_typography(answer)
    answer, spelt_at = _with_apostrophes(answer)
    to_original = [typed_at[i] for i in spelt_at]  # evidence spans point into what was written
    clauses = read_answer(answer)
    notes = []
    if any(c.instruction for c in clauses):
        notes.append("text addressed to the grader was ignored")
    prompt_words = set(content_words(clean_for_matching(rubric.prompt, matcher)))
    # What the rubric asks for or warns against: restating the question plus one of these is an answer.
    rubric_words = _vocabulary(rubric, matcher)
    known = _Known(known_words, matcher.words) if known_words is not None else None
    if known is not None:
        # An acronym of the rubric's said letter by letter ('the m l p is split') reads as the acronym.
        acronyms = _acronyms(rubric, matcher, known_words)
        fix = lambda t: respell(join_spelt(t, acronyms), _spelling_targets(rubric, matcher), known)  # noqa: E731
    else:
        fix = lambda t: t  # noqa: E731
    windows = _build_windows(clauses, matcher, rubric_words, contrasted_pair(rubric.prompt, matcher), fix,
                             topic_phrase(rubric.prompt, tuple(p.text for p in rubric.checkpoints)))
    prompt_text = " ".join(_PLAIN_WORD.findall(clean_for_matching(rubric.prompt, matcher)))
    copies = {i: how for i, w in enumerate(windows) if (how := _copy_of_prompt(w, prompt_words, rubric_words, prompt_text))}

    refs, prompt_ref, cp_refs, cp_facets, m_refs, m_corr, m_pred = _rubric_refs(rubric, matcher)
    # The claim readings of the windows, for the wrong-claim search, in the same encoder pass.
    later = [t for _, t, _ in _claim_readings(windows)] if rubric.misconceptions else []
    wv, rv = _encode_windows(windows, refs.texts, encode, later)
    sims = wv @ rv.T  # (windows, refs)
    # cp_sim[w, k]: how close window w is to checkpoint k (its text or any example).
    cp_sim = np.stack([sims[:, r].max(axis=1) for r in cp_refs], axis=1)
    # Made of the question's words, a window restates it unless it is closer in meaning to a
    # checkpoint than to the question: 'the number of tree rings gets larger over time' answers
    # 'what does the graph of tree rings versus time tell you?'.
    copy = {i for i, how in copies.items() if how == "verbatim" or cp_sim[i].max() <= sims[i, prompt_ref]}
    copied = {windows[i].clauses[0] for i in copy if len(windows[i].clauses) == 1}
    # A restated question earns nothing, alone or joined to the answer's first clause.
    keep = [i for i, w in enumerate(windows) if i not in copy and not copied & set(w.clauses)]
    if not keep:
        return _missed_all(rubric, notes)
    windows, wv, sims, cp_sim = [windows[i] for i in keep], wv[keep], sims[keep], cp_sim[keep]
    # A window that is no closer to a checkpoint than to the question itself only names the topic.
    prompt_sim = sims[:, prompt_ref]

    hits, wrong_windows = [], set()
    cp_seqs = [content_words(clean_for_matching(p.text, matcher)) for p in rubric.checkpoints]
    claim_windows, claim_sims, claim_cp_sim = _without_foils(windows, sims, cp_sim, cp_refs, rv, encode, matcher) if rubric.misconceptions else (windows, sims, cp_sim)
    parent = list(range(len(windows)))
    if rubric.misconceptions:
        claim_windows, claim_sims, claim_cp_sim, parent = _with_main_clauses(claim_windows, claim_sims, claim_cp_sim, cp_refs, rv, encode, matcher)
    subjects = frozenset(_point_subject(p.text, matcher)[0] for p in rubric.checkpoints) - {None}  # what the checkpoints are about
    for k, m in enumerate(rubric.misconceptions):
        hit = _detect_misconception(m, claim_windows, claim_sims, claim_cp_sim, m_refs[k], m_corr[k], matcher, tuning, cp_seqs, refs.texts, prompt_words,
                                    [p.text for p in rubric.checkpoints], subjects, m_pred[k])
        if hit is not None:
            hits.append(hit[0])
            wrong_windows.add(parent[hit[1]])
    # Every window that contains a wrong claim's clause is tainted: 'TP goes across nodes over
    # InfiniBand, since it scales' earns nothing for the placement checkpoint, joined or not.
    wrong_clauses = {c for i in wrong_windows for c in windows[i].clauses}
    wrong_clauses |= _what_follows_from(wrong_clauses, clauses, windows, subjects, matcher, answer)
    wrong_clauses |= _what_it_spells_out(wrong_clauses, clauses, windows, subjects, matcher, answer)
    wrong_clauses |= _said_again(wrong_clauses, windows)
    wrong_windows |= {i for i, w in enumerate(windows) if wrong_clauses & set(w.clauses)}

    align = _Alignment(rubric, windows, matcher, encode_tokens) if encode_tokens is not None else None
    contrasts = _sibling_contrasts(rubric, matcher)
    asked = clean_for_matching(rubric.prompt, matcher)
    in_prompt = frozenset(matcher.keys_in(asked))
    listed = [_listed_subjects(p.text, in_prompt, matcher) for p in rubric.checkpoints]
    # What the answer names, for the points that run through several things (only those need it).
    named = frozenset().union(*(w.keys for i, w in enumerate(windows) if i not in wrong_windows and w.substance > 0 and not w.negated)) \
        if any(len(s) >= 3 for s in listed) else frozenset()
    results = []
    for k, p in enumerate(rubric.checkpoints):
        feats, best, more = checkpoint_features(k, p, windows, sims, cp_sim, prompt_sim, cp_facets[k], wrong_windows, matcher, tuning, align,
                                                subjects, asked, contrasts[k], rubric_words)
        p_partial, p_covered = tuning.model.predict(feats)
        if feats["substance"] == 0:
            p_partial = p_covered = 0.0  # named in passing or in a bare list: no substance, no credit
        elif feats["meaning"] < tuning.evidence_sim and feats["concepts_all"] < 0.05:
            # No clause near it in meaning and hardly any of its words anywhere: nothing to
            # weigh. (The model was fitted on real answers; word salad lies outside them.)
            p_partial = p_covered = 0.0
        if p_covered >= 0.5 and len(listed[k]) >= 3 and len(listed[k] & named) <= 1:
            # A point that runs through three or more things in turn ('TensorRT ...; cuDNN ...;
            # DALI ...') is made only in part by an answer that names at most one of them.
            p_covered = 0.49
        state = COVERED if p_covered >= 0.5 else PARTIAL if p_partial >= 0.5 else MISSED
        strength = p_covered + 0.5 * max(0.0, p_partial - p_covered)
        evidence = ()
        if best is not None and state != MISSED:
            # the best clause first; then, in the answer's order, those that make its other sub-claims
            evidence = tuple(_original_span(windows[i].start, windows[i].end, to_original) for i in (best, *more))
        results.append(CheckpointGrade(p.id, state, round(float(strength), 3), evidence, tuple(sorted(feats.items()))))

    # Mostly the decided states, so the score agrees with the checklist; the strength breaks ties.
    credits = [(p.weight, 0.75 * STATE_CREDIT[g.state] + 0.25 * g.strength) for p, g in zip(rubric.checkpoints, results)]
    score = scale_score(credits, len(hits), penalty=tuning.misconception_penalty)
    hits = [replace(h, evidence=tuple(_original_span(e.start, e.end, to_original) for e in h.evidence)) for h in hits]
    return Grade(score, tuple(results), tuple(hits), tuple(notes))


def checkpoint_features(k, p, windows, sims, cp_sim, prompt_sim, facet_refs, wrong_windows, matcher, tuning, align=None,
                        rubric_subjects: frozenset[str] = frozenset(), prompt: str = "",
                        contrasts: Sequence[tuple[str, frozenset[str], frozenset[str], frozenset[str]]] = (),
                        vocabulary: frozenset[str] = frozenset()) -> tuple[dict[str, float], int | None, list[int]]:
    """The signals for checkpoint ``k``, the index of the window that best supports it, and the
    clauses elsewhere in the answer that make others of its sub-claims (further evidence).
    ``rubric_subjects``: the subjects of the rubric's checkpoints (the concepts it contrasts);
    ``prompt``: the question, canonicalised; ``contrasts``: what the checkpoint binds to which
    concept against what else (see ``_sibling_contrasts``); ``vocabulary``: the rubric's words."""
    ref_words, ref_keys = _key_terms(" ".join((p.text, *p.aliases)), matcher)
    others = np.delete(cp_sim, k, axis=1)
    ref_clauses = _reference_clauses(p.text, matcher)
    # Says the opposite of the checkpoint ('TP is not used within a node'), by its own negation
    # or by opposite words; 'no gap between them' agrees with 'connected'.
    # Someone else's view, reported ('a common mistake is to think ...'), is no evidence either.
    against = [_opposes(w, ref_clauses) or w.reported for w in windows]
    steps = step_order(clean_for_matching(p.text, matcher), matcher, prompt)
    if steps:
        # A point about the order of steps ('applied in a sensible order: distill first, then
        # prune, ...') is not made by an answer that puts nothing in order, however much it says
        # of the steps themselves.
        if _ORDER_POINT.search(p.text) and not lays_down_order(w.text for w in windows if len(w.clauses) == 1):
            return {name: 0.0 for name in OrdinalModel.FEATURES}, None, []
        # Steps in the other order: 'first an all-gather, then a reduce-scatter' for the ring,
        # in a clause or in a short sentence as a whole: 'first an all-gather phase, and then a reduce-scatter
        # phase, each taking n-1 steps' (not in an unpunctuated spoken run, where the 'sentence'
        # can be the whole answer)
        said: dict[int, list[str]] = {}
        for w in windows:
            if len(w.clauses) == 1:
                said.setdefault(w.sentence, []).append(w.text)
        backwards = {n for n, texts in said.items() if len(texts) <= 3 and reverses_order(" ".join(texts), steps, matcher)}
        against = [a or w.sentence in backwards or reverses_order(w.text, steps, matcher) for a, w in zip(against, windows)]
    # What the rubric says of another concept, said of this one: 'tensor parallelism splits the
    # model's layers into consecutive stages' is the pipeline definition under the wrong name.
    if contrasts:
        against = [a or _bound_to_sibling(w.text, contrasts, matcher) for a, w in zip(against, windows)]
    # Places swapped: 'pipeline parallelism inside a node' against 'PP spans nodes'.
    cp_roles = {(c, what): rel for c, rel, what in role_bindings(p.text, matcher, coordinated=True)}
    if cp_roles:
        against = [a or any(cp_roles.get((c, what), rel) != rel for c, rel, what in role_bindings(w.text, matcher)) for a, w in zip(against, windows)]
    # Who copies whom swapped: 'the large teacher is trained to mimic the small student' against
    # 'a smaller student is trained to mimic a large teacher's outputs'.
    core = clean_for_matching(core_text(p.text), matcher)
    copier = _imitation_sides(core)
    if copier is not None:
        against = [a or _copies_the_other_way(w.text, copier) for a, w in zip(against, windows)]
    # A trend the other way round: 'the bubble grows as you add more micro-batches' against 'it
    # shrinks as the number of micro-batches grows relative to the number of stages'.
    trends = covariations(core)
    if trends:
        against = [a or _against_trend(w.text, trends) for a, w in zip(against, windows)]
    # Another labelled thing in place of the checkpoint's own: 'terminal 1 is connected to terminal 6' against
    # 'terminals 1 and 4 are connected'.
    labelled = _labels(core)
    if labelled:
        against = [a or _swaps_label(w.text, labelled) for a, w in zip(against, windows)]
    # A statement about a sibling concept is no evidence for this one: 'pipeline parallelism
    # splits each layer's weight matrices' does not define tensor parallelism, however close.
    subject, siblings = _point_subject(p.text, matcher)
    siblings &= rubric_subjects
    elsewhere = [False] * len(windows)
    if siblings:
        by_clause = {w.clauses[0]: w for w in windows if len(w.clauses) == 1}
        elsewhere = [_speaks_of_sibling(w, by_clause.get(w.clauses[0] - 1), subject, siblings, matcher) for w in windows]
    # Two clauses joined are no evidence when neither is: 'gradients are not averaged across ranks;
    # each replica applies its own gradient' denies the point in one half and speaks of something
    # else in the other, however close the two are to it together.
    single = {w.clauses[0]: i for i, w in enumerate(windows) if len(w.clauses) == 1}
    barred = [i in wrong_windows or against[i] or elsewhere[i] for i in range(len(windows))]
    for i, w in enumerate(windows):
        halves = [single.get(c) for c in w.clauses]
        if len(halves) > 1 and None not in halves and all(barred[h] for h in halves):
            against[i] = True
    # A clause that makes a wrong claim, or denies what this checkpoint says, lends no words to a
    # window it is joined into, nor to what the whole answer says: in 'No NVIDIA GPU accelerates
    # 2:4 structured sparsity; it's purely a research idea' the second half does not bring back
    # the first half's words. (A denial of something the checkpoint does not speak of, or said of
    # a sibling concept, 'TP does not put whole layers on GPUs; that's PP', is no bar.)
    cp_words = _key_terms(p.text, matcher)[0]
    denied = {c for c, i in single.items() if i in wrong_windows or (
        against[i] and windows[i].negated and not elsewhere[i] and polarity.denied_words(windows[i].text) & cp_words)}
    best, best_score = None, -1.0
    for i, w in enumerate(windows):
        if i in wrong_windows or against[i] or elsewhere[i]:  # saying the opposite is no evidence for it
            continue
        concepts = _overlap(ref_words, ref_keys, w.words, w.keys, w.near)
        s = (cp_sim[i, k] + 0.25 * concepts) * (0.4 + 0.6 * w.substance)
        if s > best_score + 1e-9 or (abs(s - best_score) <= 1e-9 and best is not None and len(w.clauses) < len(windows[best].clauses)):
            best, best_score = i, s
    if best is None:
        return {name: 0.0 for name in OrdinalModel.FEATURES}, None, []
    w = windows[best]
    # What the whole answer says: clauses that name terms and predicate nothing add no words.
    empty = {w.clauses[0] for w in windows if len(w.clauses) == 1 and w.substance == 0}
    usable = [i for i in range(len(windows)) if i not in wrong_windows and not against[i] and not elsewhere[i] and windows[i].substance > 0
              and not (empty | denied) & set(windows[i].clauses)]
    all_words = frozenset().union(*(windows[i].words for i in usable))
    all_keys = frozenset().union(*(windows[i].keys for i in usable))
    # Clauses close to the point, each said once: repeating a sentence supports nothing more.
    support = len({windows[i].text for i in usable if len(windows[i].clauses) == 1 and cp_sim[i, k] >= tuning.support_sim})
    facets = 0.0
    more: list[int] = []
    if facet_refs:
        made = [
            any(sims[i, fr] >= tuning.facet_sim and windows[i].substance > 0 for i in usable) for fr in facet_refs
        ]
        facets = sum(made) / len(made)
        # Further evidence: for each sub-claim the best clause does not make, the clause closest
        # to it that does, when that clause is also close to the point as a whole and closer to it
        # than to any other point ('TP is intra-layer' is evidence for the TP definition, not for
        # the communication trade-off).
        singles = [i for i in usable if len(windows[i].clauses) == 1 and not set(windows[i].clauses) & set(windows[best].clauses)
                   and cp_sim[i, k] >= cp_sim[i].max()]
        for fr in facet_refs:
            if sims[best, fr] >= tuning.facet_sim or not singles:
                continue
            i = max(singles, key=lambda j: sims[j, fr])
            if sims[i, fr] >= tuning.facet_sim and cp_sim[i, k] >= tuning.support_sim and i not in more:
                more.append(i)
    else:
        facets = 1.0 if cp_sim[best, k] >= tuning.facet_sim else 0.0
    # What the best window says: a clause of it that says nothing ('GPUs are very important for
    # modern deep learning'), or denies the point, adds no words.
    kept = [windows[single[c]] for c in w.clauses if c in single and c not in denied and windows[single[c]].substance > 0]
    said = frozenset().union(*(x.words for x in kept)) or w.words
    # (nor does a denying half lend the window the point's concepts)
    named = _overlap(ref_words, ref_keys, said, frozenset().union(*(x.keys for x in kept)), frozenset().union(*(x.near for x in kept))) \
        if kept and denied & set(w.clauses) else _overlap(ref_words, ref_keys, w.words, w.keys, w.near)
    feats = {
        "meaning": float(cp_sim[best, k]),
        "specific": float(cp_sim[best, k] - max(float(prompt_sim[best]), others[best].max() if others.shape[1] else -1.0)),
        "concepts": named,
        "concepts_all": _overlap(ref_words, ref_keys, all_words, all_keys, frozenset().union(*(windows[i].near for i in usable))),
        "facets": facets,
        "support": float(min(support, 4)) / 4.0,
        "substance": w.substance,
        "negated": float(against[best]),
        "hedged": float(w.hedged),
        # Word-level alignment (BERTScore-style recall): how much of the checkpoint's wording
        # finds a counterpart, in context, in the best clause / anywhere in the usable answer.
        "align": align.recall(k, [c for c in w.clauses if c not in denied] or w.clauses) if align else float(cp_sim[best, k]),
        "align_all": align.recall(k, sorted({c for i in usable for c in windows[i].clauses})) if align else float(cp_sim[best, k]),
        # Naming against explaining: 'TP uses all-reduce over NVLink' is nearly all rubric terms;
        # 'after each block they must add up their pieces so everyone has the whole result' says
        # the same in its own words, and says more of it.
        "jargon": len(said & vocabulary) / max(1, len(said)),
        "length": min(1.0, len(said) / 20),
    }
    return feats, best, sorted(more, key=lambda i: windows[i].start)[:2]


# A number or a letter that names one of several things ('terminal 4', 'bulbs A and C', 'switch
# X'); 'a' only where no noun follows it, as an article's would ('inside a node'), unless asked
# whether a text may name it at all ('bulb A also stays ...'). Not a value: '1.5x', '50%', '2:4'.
_AFTER_A = (r"(?=\s*(?:$|[,.;:!?)']|(?:and|or|is|are|was|were|will|would|has|have|had|does|do|did|can|could|should|must|may|might|"
            r"stays?|remains?|burns?|lights?|goes|creates?|becomes?|gets?|in|on|at|to|with|from|because|so|but|which|that)\b))")
_LABEL_END = r"(?![\w%:/-]|\.\w)"
_LIST_SEP = r"\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or|&)\s+"
# ('x' too is a label only where no noun follows: 'batch size x sequence length' multiplies)
_STRICT_LABEL = rf"[0-9]+|[b-hy-z]|[ax]{_AFTER_A}"
_LABELLED = {loose: re.compile(rf"\b([a-z]{{3,}})\s+((?:{first}){_LABEL_END}(?:(?:{_LIST_SEP})(?:{_STRICT_LABEL}){_LABEL_END})*)")
             for loose, first in ((False, _STRICT_LABEL), (True, r"[0-9]+|[a-hx-z]"))}
_NOT_LABELLED = frozenset("with than to from and or for of in on at by is are was were be has have had each every about over under into per "
                          "around top only just least most plus minus times between among the size".split())
# A labelled thing said to stand apart ('bulb C is in a separate path', 'bulb B is on its own')
# speaks of the contrast, not in place of the reference's.
_APART = re.compile(r"\b(?:separate|own|different|independent)\s+(?:\w+\s+)?(?:path|pathway|circuit|loop|branch)s?\b|"
                    r"\bon (?:its|their) own\b|\balone\b|\bby (?:itself|themselves)\b|\bisolated\b")


@lru_cache(maxsize=4096)
def _labels(text: str, loose: bool = False) -> dict[str, frozenset[str]]:
    """The labelled things a text names, by kind: 'terminals 1 and 4' -> {'terminal': {'1', '4'}}
    (cached: not to be changed by the caller). ``loose``: every 'a' after a noun counts."""
    out: dict[str, set[str]] = {}
    text = _IF_CLAUSE.sub(" ", text)  # a condition names what it supposes, not what is said of it
    for m in _LABELLED[loose].finditer(text):
        if m.group(1) in _NOT_LABELLED or m.group(1).endswith("ly"):
            continue
        kind = stem(m.group(1))  # 'switches' and 'switch' are one kind
        out.setdefault(kind, set()).update(x.strip() for x in re.split(_LIST_SEP, m.group(2)) if x.strip())
    return {k: frozenset(v) for k, v in out.items()}


def _swaps_label(text: str, ref: dict[str, frozenset[str]]) -> bool:
    """Whether the text names, of a kind of thing the reference labels, another one in place of
    one of the reference's ('terminal 6' where the reference has 'terminal 4') and not the
    reference's own as well."""
    if _APART.search(text):
        return False
    said, named = _labels(text), _labels(text, loose=True)
    return any((said[k] - labels) and (labels - named.get(k, frozenset())) for k, labels in ref.items() if k in said)


class _Alignment:
    """Token-level matching of each checkpoint's content words against the answer's clauses."""

    def __init__(self, rubric: Rubric, windows: list[_Window], matcher: TermMatcher, encode_tokens: EncodeTokens):
        singles = {w.clauses[0]: w.text for w in windows if len(w.clauses) == 1}
        clause_ids = sorted(singles)
        # Word alignment reads the point itself, not its bracketed examples.
        cp_texts = [clean_for_matching(core_text(p.text), matcher) for p in rubric.checkpoints]
        encoded = encode_tokens([singles[c] for c in clause_ids] + cp_texts)
        answer = encoded[: len(clause_ids)]
        self.column = {c: i for i, c in enumerate(clause_ids)}
        # One product of every checkpoint's content pieces with every answer piece, then the best
        # match per clause: (pieces of checkpoint k, clauses).
        refs, kept = [], []
        # The question's own words say nothing about whether this checkpoint was made.
        for vecs, pieces in encoded[len(clause_ids) :]:
            idx = _pieces_to_align(pieces, rubric.prompt)
            refs.append(vecs[list(idx)])
            kept.append([pieces[i] for i in idx])
        # A piece most checkpoints share ('gpu', 'parallel') tells this point from the others less
        # than one only it has: each weighs sqrt(checkpoints / checkpoints using it), as the
        # inverse document frequency weights BERTScore's recall.
        used: dict[str, int] = {}
        for pieces in kept:
            for piece in set(pieces):
                used[piece] = used.get(piece, 0) + 1
        self.weights = [np.array([(len(kept) / used[piece]) ** 0.5 for piece in pieces], dtype=np.float32) for pieces in kept]
        sizes = [len(a) for a, _ in answer]
        self.best: list[np.ndarray] = []
        if not sizes or not sum(sizes):
            self.best = [np.full((len(r), 1), -1.0, dtype=np.float32) for r in refs]
            return
        starts = np.cumsum([0] + sizes[:-1])
        sim = np.concatenate(refs) @ np.concatenate([a for a, _ in answer if len(a)]).T
        per_clause = np.maximum.reduceat(sim, starts[np.array(sizes) > 0], axis=1)
        full = np.full((sim.shape[0], len(sizes)), -1.0, dtype=np.float32)
        full[:, np.array(sizes) > 0] = per_clause
        row = 0
        for r in refs:
            self.best.append(full[row : row + len(r)])
            row += len(r)

    def recall(self, k: int, clauses) -> float:
        cols = [self.column[c] for c in clauses if c in self.column]
        if not cols:
            return 0.0
        weights = self.weights[k]
        return float(self.best[k][:, cols].max(axis=1) @ weights / weights.sum())


@lru_cache(maxsize=4096)
def _pieces_to_align(pieces: tuple[str, ...], prompt: str) -> tuple[int, ...]:
    """The checkpoint's content word pieces, without the question's own words."""
    asked = set(re.findall(r"[a-z0-9]+", normalize(prompt)))
    keep = [i for i, piece in enumerate(pieces) if _content_piece(piece) and piece not in asked]
    return tuple(keep or [i for i, piece in enumerate(pieces) if _content_piece(piece)] or range(len(pieces)))


def _content_piece(piece: str) -> bool:
    word = piece.removeprefix("##")
    return word.isalnum() and word not in STOPWORDS and (len(word) > 1 or word.isdigit())


@lru_cache(maxsize=4096)
def _reference_clauses(text: str, matcher: TermMatcher) -> tuple[tuple[str, frozenset[str]], ...]:
    """A checkpoint's separate statements ('A, but not B; C'), canonical, with their words."""
    out = []
    for c in read_answer(text):
        canon = clean_for_matching(c.text, matcher)
        out.append(((("not " if c.negated and not polarity.negated(canon) else "") + canon), frozenset(content_words(canon))))
    return tuple(out) or ((clean_for_matching(text, matcher), frozenset(content_words(clean_for_matching(text, matcher)))),)


def _opposes(w: _Window, ref_clauses, *, scoped: bool = True) -> bool:
    """Whether the window says the opposite of the statement it is closest to in words (see
    ``polarity.contradicts`` for ``scoped``). Of a point's statements equally close, it must say
    the opposite of each: 'the path is broken' is as close to 'no current flows in the path' as to
    'the circuit is broken', and agrees with the point. (Against a wrong claim, ``scoped`` off, the
    first of them decides, as it did before ties were read.)"""
    # An affirmed clause that takes no side of an opposite pair contradicts no affirmed statement.
    if not w.negated and polarity.takes_no_side(w.text) and all(polarity.plain_statement(ref) for ref, _ in ref_clauses):
        return False
    most = max(len(rc[1] & w.words) for rc in ref_clauses)
    tied = [ref for ref, words in ref_clauses if len(words & w.words) == most]
    return all(polarity.contradicts(w.text, ref, clause_negated=w.negated, scoped=scoped) for ref in (tied if scoped else tied[:1]))


# A condition asserts nothing: 'if the TP group spans nodes, the ring runs at InfiniBand speed'
# does not place TP across nodes.
_IF_CLAUSE = re.compile(r"\b(?:if|unless|suppose|supposing)\b[^,;:]*")

# Relational words that say the same thing; the order check compares roles, not wording.
_RELATION_SYNONYMS = {"inside": "within", "intra": "within", "between": "across", "inter": "across", "among": "across"}


def _skip_bigrams(words: list[str], reach: int = 3) -> set[tuple[str, str]]:
    # words of relation and of direction stand for their kind: 'reduces latency' follows 'lowers the latency'
    words = [_RELATION_SYNONYMS.get(w) or _direction_of_word(w) or w for w in words]
    return {(a, words[j]) for i, a in enumerate(words) for j in range(i + 1, min(len(words), i + 1 + reach)) if a != words[j]}


def follows_order(window_words: list[str], claim: list[str], alternative: list[str]) -> bool:
    """Whether the window's words follow ``claim`` more closely than ``alternative``.

    Swapped roles ('TP across nodes, PP within' vs 'TP within, PP across') look alike to a
    bag of words and to mean-pooled embeddings; which words stand near which others, in
    which order, tells them apart.

    >>> w = "tensor parallelism within node pipeline across node".split()
    >>> follows_order(w, "tensor parallelism across node pipeline within node".split(), "tensor parallelism within node pipeline across node".split())
    False
    >>> follows_order("tensor parallelism across node".split(), "tensor parallelism across node pipeline within node".split(), "tensor parallelism within node pipeline across node".split())
    True
    >>> follows_order("batch reduce latency request".split(), "batch lower latency individual request".split(), "batch raise throughput latency request".split())
    True
    """
    pairs = _skip_bigrams(window_words)
    return len(pairs & _skip_bigrams(claim)) > len(pairs & _skip_bigrams(alternative))


# A sequence a statement lays down ('a reduce-scatter phase, then an all-gather phase'; 'distill,
# then prune, then quantize'): a clause that names the same steps in the other order states
# another procedure, however alike the two are in words.
_THEN = re.compile(r"(?:,|\band)\s+then\b|\bfollowed by\b")
_SEQUENCE_WORD = re.compile(r"\b(?:then|first|followed by|before|finally|afterwards|at the (?:very )?end|last(?:ly)?|next)\b")
_NOT_A_SEQUENCE = re.compile(r"\b(?:if|when|whenever|once|unless|after|instead|follows|following|preced\w*)\b")  # 'if X, then Y'; 'A after B' runs backwards
_EDGE = re.compile(r"[,;:()]")
_ORDER_WORDS = frozenset("first then next last lastly finally afterwards followed end very".split())


# A point that is about the order itself: it speaks of an order or a sequence, or of what comes first.
_ORDER_POINT = re.compile(r"\b(?:order|in sequence|first)\b(?! (?:to|of magnitude)\b)")
# What puts steps in order: an order spoken of, or at least two sequence words ('first ..., then
# ...'; '..., then ..., and finally ...'). One 'then' or 'finally' alone is a connective. Unlike
# _SEQUENCE_WORD (does a clause speak of a sequence at all), 'before' and 'afterwards' do not count:
# 'fine-tune afterwards' ties one step to the one before it and orders nothing else.
_SPOKEN_ORDER = re.compile(r"\bin (?:this|that|the|which|what|a \w+) order\b|\border(?: is\b| matters\b| i\b|:)|\b(?:in|the|this|that) sequence\b")
_IN_SEQUENCE = re.compile(r"\b(?:then|first|firstly|second|secondly|third|thirdly|next|finally|lastly|last|at the (?:very )?end|followed by|after that)\b")


def lays_down_order(texts) -> bool:
    """Whether clauses (canonical, each once) put things in order: they speak of an order, or
    use two sequence words between them.

    >>> lays_down_order(["distill first", "then prune", "then quantize"])
    True
    >>> lays_down_order(["quantize to int8", "then tensorrt fuses the layers"])
    False
    >>> lays_down_order(["i would go in this order: distillation, pruning, quantization"])
    True
    """
    said = list(dict.fromkeys(texts))
    if any(_SPOKEN_ORDER.search(t) for t in said):
        return True
    return sum(len(_IN_SEQUENCE.findall(t)) for t in said) >= 2


def _step_marks(text: str, matcher: TermMatcher) -> list[tuple[int, str]]:
    """(offset, mark) of what names a step: glossary terms, else word beginnings ('quantiz')."""
    spans = [(m.start(), m.end()) for m in matcher.key_regex.finditer(text)] if matcher.key_regex else []
    words = [(m.start(), m.group()[:5]) for m in re.finditer(r"[a-z][a-z0-9]{3,}", text)
             if m.group() not in STOPWORDS and m.group() not in _ORDER_WORDS and not any(a <= m.start() < b for a, b in spans)]
    return sorted([(pos, "=" + key) for pos, key in matcher.key_positions(text)] + words)


@lru_cache(maxsize=4096)
def step_order(text: str, matcher: TermMatcher, prompt: str = "") -> tuple[frozenset[str], ...]:
    """The steps a canonical statement puts in sequence ('A, then B', 'A is followed by B'),
    each the marks that name it, or () when it lays down none.

    >>> m = TermMatcher.build([("reduce-scatter", (), ()), ("all-gather", (), ())])
    >>> [sorted(s) for s in step_order("ring: a reduce-scatter phase, then an all-gather phase, each n-1 steps", m)]
    [['=reducescatter'], ['=allgather']]
    >>> step_order("if c burns out, then a and b are still in a closed path", m)
    ()
    """
    first = _THEN.search(text)
    if first is None or _NOT_A_SEQUENCE.search(text[: first.start()]):
        return ()
    parts = _THEN.split(text)
    # A later step is named by the first name after the sequence word ('then an all-gather
    # phase'). The first step is in the last phrase before it, after whatever the sentence opens
    # on ('a ring all-reduce runs a reduce-scatter phase'): the last term there that the question
    # does not ask about when the later steps are terms, else its first word ('distill into a
    # smaller student first', 'gpipe runs the forward passes').
    pieces = [_step_marks(_EDGE.split(part.strip(" ,.;"))[-1 if i == 0 else 0], matcher) for i, part in enumerate(parts)]
    named = [{k for _, k in marks} for marks in pieces]
    steps = [{marks[0][1]} if marks else set() for marks in pieces]
    later_terms = any(st and next(iter(st)).startswith("=") for st in steps[1:])
    asked = {k for _, k in _step_marks(prompt, matcher)}
    terms = [k for _, k in pieces[0] if k.startswith("=")]
    words = [k for _, k in pieces[0] if not k.startswith("=")]
    if pieces[0] and pieces[0][0][1].startswith("=") and words:
        words = words[1:]  # 'gpipe runs the forward passes': the term opens it, its verb follows
    if later_terms and terms:
        steps[0] = {([k for k in terms if k not in asked] or terms)[-1]}
    elif words:
        steps[0] = {words[0]}
    # A name two steps share ('phase') tells them apart by nothing.
    steps = [frozenset(st - set().union(*(o for j, o in enumerate(named) if j != i))) for i, st in enumerate(steps)]
    return tuple(steps) if sum(1 for st in steps if st) >= 2 else ()


def reverses_order(text: str, steps: tuple[frozenset[str], ...], matcher: TermMatcher) -> bool:
    """Whether a clause that speaks of a sequence puts the steps of ``steps`` in the other order.

    >>> m = TermMatcher.build([("reduce-scatter", (), ()), ("all-gather", (), ())])
    >>> steps = step_order("a reduce-scatter phase, then an all-gather phase", m)
    >>> reverses_order("the ring first runs an all-gather phase and then a reduce-scatter phase", steps, m)
    True
    >>> reverses_order("first a reduce-scatter, then an all-gather", steps, m)
    False
    >>> reverses_order("an all-gather phase and a reduce-scatter phase", steps, m)  # no sequence stated
    False
    """
    if not steps or not _SEQUENCE_WORD.search(text) or _NOT_A_SEQUENCE.search(text):
        return False
    marks = _step_marks(text, matcher)
    at = []
    for st in steps:
        found = [pos for pos, k in marks if k in st]
        at.append(min(found) if found else None)
    named = [(i, pos) for i, pos in enumerate(at) if pos is not None]
    right = sum(1 for a, (i, p) in enumerate(named) for j, q in named[a + 1 :] if p < q)
    wrong = sum(1 for a, (i, p) in enumerate(named) for j, q in named[a + 1 :] if p > q)
    return wrong > 0 and right == 0


# 'Within a node' / 'across nodes': the roles a swapped claim mixes up ('TP across nodes, PP inside').
_RELATION = re.compile(r"\b(within|inside|intra|in the same|across|between|inter|among|spans?|spanning)\b")
_RELATION_CLASS = {"within": "within", "inside": "within", "intra": "within", "in the same": "within"}


def role_bindings(text: str, matcher: TermMatcher, *, coordinated: bool = False) -> set[tuple[str, str, str]]:
    """(concept, within|across, what) for each place relation in ``text``: the concept is the
    nearest glossary term before the relation (or a short form the glossary gives for it:
    'pipeline' for pipeline parallelism), 'what' the next content word after it.

    >>> m = TermMatcher.build([("tensor parallelism", ("tp",), ("tensor",)), ("pipeline parallelism", ("pp",), ("pipeline",))])
    >>> sorted(role_bindings("TP=8 inside each node and PP across nodes", m))
    [('pipelineparallelism', 'across', 'node'), ('tensorparallelism', 'within', 'node')]
    >>> sorted(role_bindings("pipeline goes across machines", m))
    [('pipelineparallelism', 'across', 'machine')]
    >>> sorted(role_bindings("if the TP group spans nodes, the all-reduce is slow", m))
    []

    ``coordinated``: the terms joined to that one by 'and' / 'or' share its place ('over NVLink
    and NVSwitch inside a node'); read so in a rubric's text, whose wording is careful.
    """
    return _role_bindings(text, matcher, coordinated)


@lru_cache(maxsize=16384)
def _role_bindings(text: str, matcher: TermMatcher, coordinated: bool = False) -> frozenset[tuple[str, str, str]]:
    canon = _IF_CLAUSE.sub("", clean_for_matching(text, matcher))  # a condition places nothing
    if not _RELATION.search(canon):
        return frozenset()
    heads = _heads(matcher)
    subjects = matcher.key_positions(canon)
    if heads:
        subjects += [(m.start(), heads[m.group()]) for m in _heads_regex(matcher).finditer(canon)]
    subjects.sort()
    out = set()
    for m in _RELATION.finditer(canon):
        before = [(pos, k) for pos, k in subjects if pos < m.start()]
        after = content_words(canon[m.end() :])
        if before and after:
            place = (_RELATION_CLASS.get(m.group(1), "across"), after[0])
            out.add((before[-1][1], *place))
            if coordinated:
                # ... and the terms joined to it: 'over NVLink and NVSwitch inside a node'
                for (p0, k0), (p1, _) in zip(before[-2::-1], before[:0:-1]):
                    if not _JOINED.fullmatch(canon, p0, p1):
                        break
                    out.add((k0, *place))
    return frozenset(out)


# Between two coordinated terms: the first term (up to three words) and 'and' / 'or'.
_JOINED = re.compile(r"[\w-]+(?:\s+[\w-]+){0,2}?\s*,?\s+(?:and|or)\s+")


# The direction of a change a claim states: 'fewer FLOPs' vs 'the same FLOPs'.
_DIRECTION = {
    # not the collective: 'all-reduce', 'reduce-scatter', 'a plain reduce', 'the reduced result'
    "down": re.compile(r"(?<!-)(?<!\ba )(?<!\bthe )(?<!\bplain )\b(?:reduc(?!ed (?:result|sum|tensor|value|output|gradient)s?\b)\w*(?!-)|"
                       r"fewer|less|lower\w*|cuts?|shrinks?|decreas\w*|smaller|drops?)\b"),
    "up": re.compile(r"\b(?:more|increas\w*|rais\w*|higher|grows?|larger|extra)\b"),
    # 'the same FLOPs', not 'the same network' or 'at the same time' (which thing, not how much)
    "same": re.compile(r"\b(?:same(?! (?:time|network|model|teacher|student|gpus?|devices?|nodes?|machines?|way|thing|one|kernels?|layers?|stages?|"
                       r"process|program|code|graph|architecture|place|server|box|card|stream|rank|step)\b)|"
                       r"unchanged|identical|equal|constant|does ?n[o']?t change|do not change|no (?:fewer|less|more))\b"),
}


def direction(text: str) -> str | None:
    """The one direction of change ``text`` states, or None (none or several).

    >>> direction("the fused kernel does the same FLOPs"), direction("fusion cuts the FLOPs"), direction("it is fast")
    ('same', 'down', None)
    >>> direction("you end up with a compressed, smaller version of the same network")
    'down'
    >>> direction("the all-reduce is a reduce that leaves the reduced result on rank 0"), direction("it reduces memory")
    (None, 'down')
    """
    found = [d for d, rx in _DIRECTION.items() if rx.search(text)]
    return found[0] if len(found) == 1 else None


# How many of a thing a statement speaks of: one ('on a single root GPU', 'one master GPU') or all
# ('on every GPU', 'any other GPU').
_SCOPE = {
    "one": re.compile(r"\b(?:(?:only |just )?(?:one|a single|single|a lone)(?: (?:root|master|leader|lead|main|designated|chosen))?|"
                      r"(?:the|a) (?:root|master|leader|lead|main|designated|chosen))\b"),
    "all": re.compile(r"\b(?:every|each|all(?: (?:the|of the))?|any(?: other)?)\b(?!-)"),
}
_OTHER_SCOPE = {"one": "all", "all": "one"}
# One GPU by its number: 'onto rank 0', 'GPU zero', 'the first rank'.
_RANK_ZERO = re.compile(r"\b(?:(?:rank|gpu|device|worker|process)\s*#?\s*(?:0|zero)|the first (?:rank|gpu|device|worker))\b")
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:\w+\s+)?$")


def scopes(text: str) -> set[tuple[str, str]]:
    """(scope, thing) for each quantified thing: the one or two words right after the quantifier.

    >>> sorted(scopes("it leaves the result on a single root gpu"))
    [('one', 'gpu')]
    >>> sorted(scopes("with all-reduce every gpu gets the sum"))
    [('all', 'gpu')]
    """
    out = {("one", "gpu") for _ in _RANK_ZERO.finditer(text)}
    for scope, rx in _SCOPE.items():
        for m in rx.finditer(text):
            if scope == "all" and _FROM_BEFORE.search(text, max(0, m.start() - 12), m.start()):
                continue  # where the inputs come from ('sums the tensors from all GPUs onto rank 0'), not where the result is
            for word in re.findall(r"[a-z0-9][a-z0-9\-]*", re.split(r"[,;:.()]", text[m.end() :])[0])[:2]:  # the thing, and its modifier
                if word in STOPWORDS:
                    break
                out.add((scope, root(word)))
    return out


@lru_cache(maxsize=1024)
def opposed_scopes(claim: str, correction: str) -> dict[str, str]:
    """The things the claim and its correction quantify oppositely ('a single GPU' / 'every GPU'):
    thing -> the claim's scope.

    >>> opposed_scopes("all-reduce leaves the result on a single root gpu", "it leaves the result on every gpu")
    {'gpu': 'one'}
    """
    mine, theirs = scopes(claim), scopes(correction)
    return {thing: scope for scope, thing in mine if (_OTHER_SCOPE[scope], thing) in theirs and (scope, thing) not in theirs}


def _scope_side(w: _Window, m_scope: dict[str, str] | None) -> int:
    """+1 when the window quantifies a thing as the wrong claim does and not as its correction
    does, -1 the other way round, else 0."""
    if not m_scope:
        return 0
    found = scopes(w.text)
    claim_side = {(scope, thing) for thing, scope in m_scope.items()}
    true_side = {(_OTHER_SCOPE[scope], thing) for thing, scope in m_scope.items()}
    if found & claim_side and not found & true_side and not w.negated:
        return 1
    if found & true_side and not found & claim_side:
        return -1
    return 0


@lru_cache(maxsize=4096)
def _is_direction_word(word: str) -> bool:
    return any(rx.fullmatch(word) for rx in _DIRECTION_WORD.values())


_DIRECTION_WORD = {d: re.compile(rx.pattern.replace(r"\b", "")) for d, rx in _DIRECTION.items() if d != "same"}


@lru_cache(maxsize=4096)
def _direction_of_word(word: str) -> str | None:
    """'<down>' for a word of lessening ('reduce', 'cut', 'lower'), '<up>' for one of growth, else None."""
    return next((f"<{d}>" for d, rx in _DIRECTION_WORD.items() if rx.fullmatch(word)), None)


# A 'per' phrase qualifies the thing that changes, it is not that thing: 'lowers the per-request
# cost' is a change of the cost, as 'lowers the cost per request' is.
_PER_WHAT = re.compile(r"\bper[- ][\w-]+")


def _changed(text: str, *, before: bool = False, kinds: Sequence[str] = tuple(_DIRECTION), ratios: bool = True) -> set[str]:
    """What a stated change is of: the word after each word of direction ('more precise' -> precis,
    'lowers the per-request cost' -> cost); with ``before``, the word before it where none follows
    ('makes the bubble smaller' -> bubbl). ``kinds``: which directions ('down', 'up', 'same');
    without ``ratios``, a ratio is no change of its first word ('more arithmetic per byte')."""
    out = set()
    for kind in kinds:
        for m in _DIRECTION[kind].finditer(text):
            if not ratios and re.match(r"\s*(?:\w+\s+){0,2}?per\b", text[m.end():]):
                continue
            after = content_words(_PER_WHAT.sub(" ", text[m.end() :]))
            if after:
                out.add(root(after[0]))  # 'precise' and 'precision' alike
            elif before and (ahead := content_words(text[: m.start()])):
                out.add(root(ahead[-1]))
    return out


def _changed_things(text: str, matcher: TermMatcher) -> set[str]:
    """What a stated change is of (_changed), a glossary concept also by the words of its term and
    variants: 'less GPU memory' (read as 'less hbm') is a change of memory."""
    out = _changed(text)
    for key in matcher.keys_in(text):
        if root(key) in out or key in out:
            out |= {root(w) for w in matcher.named_by.get(key, ()) if len(w) > 2}
    return out


def _head_key(word: str, matcher: TermMatcher) -> str | None:
    """The concept a multi-word term's first word stands for ('pipeline' -> pipeline parallelism)."""
    return _heads(matcher).get(word)


@lru_cache(maxsize=8)
def _heads_regex(matcher: TermMatcher) -> re.Pattern:
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(h) for h in sorted(_heads(matcher), key=len, reverse=True)) + r")(?![\w-])")


def _heads(matcher: TermMatcher) -> dict[str, str]:
    return matcher.heads


_CONTRAST_TAIL = re.compile(r"\(?\s*\b(?:rather than|instead of|as opposed to)\b.*$")


@lru_cache(maxsize=16384)
def _claim_words(text: str, matcher: TermMatcher) -> frozenset[str]:
    """Content words and concept keys of what a claim asserts (not of what it sets against it:
    'reduces memory (rather than spending memory to save compute)' asserts 'reduces memory')."""
    canon = _CONTRAST_TAIL.sub("", clean_for_matching(text, matcher))
    canon = _SIZE_NAMING.sub(r"\1", canon)  # 'squeezes the big model down': 'big' names the model, it asserts nothing
    return frozenset(content_words(canon)) | matcher.keys_in(canon)


_SIZE_NAMING = re.compile(r"\b(the|its|a|an|this|that|their) (?:big|large|small|huge|tiny|little|giant)\b(?= [a-z])")


def _first_claim(text: str) -> str:
    """A correction's main statement: what comes before its first ';' (the rest adds context)."""
    return text.split(";")[0]


_BECAUSE = re.compile(r"^(?:because|since|as|by|due to|thanks to|so(?! that)|which means|that means|meaning)\b")
_NEG_WORDS = re.compile(r"\b(?:not|no|never|n't|without|cannot|none)\b")
_CONTRAST_START = re.compile(r"^(?:but|however|though|although|yet|except)\b")
# A verdict that what was just described does not work: 'but that doesn't help', 'but it won't fix anything'
# (the whole clause: 'but it doesn't help if the disk is slow' limits the claim, it does not reject it).
_USELESS = re.compile(r"^(?:but|however|yet)\b,?\s+(?P<subject>doing (?:that|so)|(?:this|that) approach|[\w-]+(?: [\w-]+)?)\s+"
                      r"(?:(?:does|do|did|will|would)\s*(?:n'?t|not)|won'?t|never)\s+(?:really\s+|actually\s+)?"
                      r"(?:help|work|fix|solve)(?:\s+(?:anything|at all|much|here|in practice))?\s*$")
_DEMONSTRATIVE = frozenset({"that", "this", "it", "doing that", "doing so", "this approach", "that approach"})


def _judged_useless_later(w: _Window, by_clause: dict[int, _Window], matcher: TermMatcher) -> bool:
    """Whether a later clause of the window's sentence (within three) judges what came before it
    useless: the approach described, with its reasons, is set up to be rejected. Its subject is a
    pronoun ('that', 'it'), or what such a pronoun was read as: the concept the clause before it
    opens on."""
    for j in range(w.clauses[-1] + 1, w.clauses[-1] + 4):
        c = by_clause.get(j)
        if c is None or c.sentence != w.sentence:
            return False
        m = _USELESS.match(c.text)
        if m:
            subject, prev = m.group("subject"), by_clause.get(j - 1)
            found = _concepts_at(prev.text, matcher) if prev is not None else ()
            return subject in _DEMONSTRATIVE or bool(found) and matcher.keys.get(subject) == found[0][1]
    return False


def _detect_misconception(m, windows, sims, cp_sim, m_refs, corr_ref, matcher, tuning, cp_seqs, ref_texts, prompt_words=frozenset(),
                          cp_texts: Sequence[str] = (), topics: frozenset[str] = frozenset(), pred_ref: int | None = None) -> tuple[MisconceptionHit, int] | None:
    """The wrong claim ``m`` where a window asserts it; ``topics``: the subjects of the rubric's
    checkpoints; ``pred_ref``: the claim's predicate without its subject, for windows that name
    no other concept first and none of the subject's siblings."""
    m_claims = (m.text, *m.examples)
    m_canons = [clean_for_matching(t, matcher) for t in m_claims]  # each phrasing, canonical
    m_canon = m_canons[0]
    m_terms = [_key_terms(t, matcher) for t in m_claims]  # the claim's words, in each of its phrasings
    m_words, m_keys = m_terms[0]
    # What the wrong claim says that the question does not: a window must say some of it.
    m_own = set().union(*(_claim_words(t, matcher) for t in m_claims)) - set(prompt_words)
    m_own -= {k for k in m_own if _term_words(k, matcher) and _term_words(k, matcher) <= set(prompt_words)}  # the question's terms
    m_seq = content_words(m_canon)
    m_bind = set().union(*(role_bindings(t, matcher) for t in m_claims))
    m_all_keys = set().union(*(keys for _, keys in m_terms))
    m_dir = direction(m_canon)
    m_denied, m_favoured = _denied_by_claim(m_canon)
    # The correct version to compare with: the correction, else (per window) the closest checkpoint.
    alt_text = clean_for_matching(_first_claim(m.correction), matcher) if m.correction else None
    # What sets the claim apart from its correction besides words: its polarity, the direction of a change.
    m_negated = polarity.negated(m_canon)
    by_polarity = alt_text is not None and m_negated != polarity.negated(alt_text)
    by_direction = bool(m_dir) and alt_text is not None and direction(alt_text) not in (None, m_dir)
    m_changed = _changed(m_canon)
    m_denies = set().union(*(polarity.denied_words(t) for t in m_canons))  # 'never attend'
    m_things = {root(x) for t in m_canons for x in content_words(t)}  # all the claim speaks of
    m_scope = opposed_scopes(m_canon, alt_text) if alt_text else None  # 'a single root GPU' against 'every GPU'
    alt_only = set(content_words(alt_text)) - set(m_seq) if alt_text else set()  # words only the correction has
    m_absolute = any(_ABSOLUTE.search(t) for t in m_canons)
    m_all, m_enough = bool(_ALL.search(m_canon)), bool(_ENOUGH.search(m_canon))
    m_each = any(_EACH.search(t) for t in m_canons)  # 'each GPU ... its traffic grows'
    m_all_things = _all_things(m_canon)
    # 'all the experts' where the right version (the correction, else a checkpoint) limits them ('the top-k experts')
    cp_canons = [clean_for_matching(t, matcher) for t in cp_texts]  # the checkpoints, each the right version where no correction is
    limited = _limited_things(alt_text) if alt_text else set().union(*(_limited_things(t) for t in cp_canons))
    m_some_only = m_all and bool(limited & m_all_things)
    # What the correction says stays as it is ('keeps the same arithmetic'), and what it says is small
    # where no phrasing of the claim does ('little speedup').
    alt_kept = _kept_things(alt_text) if alt_text else set()
    alt_small = _sized(alt_text, _SMALL) - set().union(*(_sized(t, _SMALL) for t in m_canons)) if alt_text else set()
    overclaim_only = m_absolute and not _ABSOLUTE.search(alt_text or "")
    # The claim's subject, and the things its correction says the claim really describes
    # ('assigning whole layers to GPUs is pipeline parallelism').
    m_subjects = _subjects(m_canon, matcher)
    corrected = _subjects(clean_for_matching(m.correction, matcher), matcher) if m.correction else set()
    other_subjects = corrected - m_subjects
    m_subjects = {_first_subject(m_canon, matcher)} - {None}  # what the claim is about: its first concept
    # The techniques the question asks about, each a subject of its own: 'pruning reduces the
    # number of FLOPs' is said of pruning, not of kernel fusion.
    asked_topics = {t for t in topics - m_subjects if _term_words(t, matcher) and _term_words(t, matcher) <= set(prompt_words)}
    # Only its siblings count as 'another subject': terms with the same head noun, as tensor and
    # pipeline parallelism, or structured and unstructured pruning.
    other_subjects = {k for k in other_subjects if any(_same_head(k, s, matcher) for s in m_subjects)}
    foil = _correction_foil(m.correction, matcher) if m.correction else None
    # The concepts the claim's subject stands beside: its siblings, and what the correction names
    # ('all-reduce belongs to tensor parallelism and to data-parallel gradient sync').
    claimed = set().union(*(_subjects(t, matcher) for t in m_canons))
    said_first = _concepts_at(m_canon, matcher)
    claim_opens_on = frozenset({said_first[0][1]} if said_first and _opens_on(m_canon, said_first[0][0]) else ())
    # ... and what the claim likens its subject to ('ZeRO splits each layer's computation like
    # tensor parallelism'): a clause that opens on that and never names the subject is right about it.
    likened = set().union(*(_likened(t, matcher) for t in m_canons))
    peers = (siblings_of(m_subjects, matcher) | (corrected - claimed) | likened) - m_subjects
    # ... but what the claim or its phrasings name is no other subject ('NCHW or NHWC doesn't
    # matter for performance' for 'memory layout does not affect speed').
    asked_topics -= claimed
    # When the correction says what the claim really describes ('assigning whole layers to GPUs is
    # pipeline parallelism'), describing it is only the claim where the answer speaks of its subject.
    contrasted = bool(m_subjects) and foil is not None
    naming = {(v.sentence, v.clauses[0]) for v in windows if len(v.clauses) == 1 and _subjects(v.text, matcher) & m_subjects} if contrasted else set()
    best, best_i = 0.0, None
    windows_by_clause: dict[int, _Window] = {}
    for w in windows:  # the clause as said: a clause read without its reason comes later
        if len(w.clauses) == 1:
            windows_by_clause.setdefault(w.clauses[0], w)
    # 'All-reduce is basically a reduce': the claim's subject said to be what the correction says
    # the claim really describes ('leaving it on one root is a plain reduce').
    head = _foil_head(m.correction, matcher) if m.correction else None
    equated = _equates_with_foil(frozenset(m_subjects), head, matcher) if head is not None else None
    for i, w in enumerate(windows):
        if equated is not None and len(w.clauses) == 1 and not (w.negated or w.reported or w.supposed) and equated.match(w.text):
            sim = float(sims[i, m_refs].max())
            if sim > best:
                best, best_i = sim, i
            continue
        if w.substance == 0 or w.reported or w.supposed:
            continue  # asserted by the speaker ('people say X', 'imagine X' are not X)
        parts = [windows_by_clause.get(c) for c in w.clauses]
        if len(w.clauses) > 1 and (
            w.hedged or any(p is None or p.negated or p.reported for p in parts) or not _BECAUSE.match(parts[-1].text)
            or _siblings_apart(parts[0].text, parts[-1].text, matcher)
        ):
            continue  # a claim and its reason ('X is fast because it does fewer FLOPs'), both plainly stated
        refs_here = m_refs + [pred_ref] if pred_ref is not None and _may_continue(w.text, m_subjects, matcher) else m_refs
        sims_m = sims[i, refs_here]
        sim = float(sims_m.max())
        if sim < tuning.misconception_sim:
            continue  # not close to the claim at all
        # Polarity of the closest phrasing of the wrong claim: 'X does not Y' vs 'X never Y'.
        ref_text = ref_texts[refs_here[int(sims_m.argmax())]]
        if _opposes(w, _reference_clauses(ref_text, matcher), scoped=False):  # against the part of the claim it speaks to
            continue  # 'fusion does not mainly cut FLOPs' rejects the claim; 'never fully busy' too
        nxt = windows_by_clause.get(w.clauses[-1] + 1)
        if nxt is not None and nxt.negated and _CONTRAST_START.match(nxt.text):
            continue  # 'X shrinks the model, but it does not speed anything up'
        if _judged_useless_later(w, windows_by_clause, matcher):
            continue  # 'people fix a slow loader by raising the batch size, so the GPU has more work, but that doesn't help'
        if not w.words - set(prompt_words):
            continue  # restating the question asserts nothing
        if w.left_out and len(set(content_words(w.left_out)) & alt_only) >= 2:
            continue  # 'compresses the model, using a separate smaller student ...': the means says what the correction says
        w_dir = direction(w.text)
        if m_dir and w_dir and w_dir != m_dir:
            continue  # 'the fused kernel does the same FLOPs' states the opposite of 'fewer FLOPs'

        k_near = int(cp_sim[i].argmax())
        alternative = content_words(alt_text) if alt_text else cp_seqs[k_near]
        if foil is not None and foil.match(w.text):
            continue  # 'a reduce leaves the result on the root': what the correction says the claim describes
        if _opens_on_a_peer(w.text, m_subjects, peers | asked_topics, matcher):
            continue  # 'pruning reduces the number of FLOPs' is said of pruning, not of kernel fusion
        if _about_another_subject(w, windows_by_clause.get(w.clauses[0] - 1), m_subjects, other_subjects, matcher):
            continue  # 'pipeline parallelism puts whole layers on GPUs' is right about pipeline parallelism
        if _inherits_another_topic(w, windows_by_clause.get(w.clauses[0] - 1), m_subjects, topics, matcher, claim_opens_on, frozenset(claimed),
                                   _sentence_opening(w, windows_by_clause)):
            continue  # 'quantization moves weights to INT8, so ... the math is faster' is said of quantization
        if contrasted and not _speaks_of(w, naming, m_subjects, matcher):
            continue  # 'one way: every GPU gets whole layers' describes pipeline parallelism, unnamed
        counts = _scope_side(w, m_scope)
        # (a concept that the closest correct point about the claim's subject names itself marks no
        # wrong claim: 'on the GPU' for 'DALI decodes and augments on the GPU', where a phrasing of
        # the claim says 'faster on the GPU'; the point about another subject does not count:
        # all-reduce is right for tensor parallelism, and still the mark of a pipeline claim)
        near_keys = _subject_keys(cp_texts[k_near], frozenset(m_subjects), matcher) - m_subjects if cp_texts else frozenset()
        structure = _structure(w, m_bind, m_all_keys, m_words, alt_text or (cp_canons[k_near] if cp_texts else None),
                               matcher, m_own, m_absolute, counts, near_keys)
        if structure < 0:
            continue  # the window states the correct version (roles, or the right mechanism)
        if m_denied and not w.negated and m_denied <= w.words and not m_favoured & w.words:
            continue  # 'the kernel's arithmetic intensity' affirms what 'a property of the GPU rather than of the kernel' denies
        if m_enough and _REQUIRES.search(w.text) and not _ENOUGH.search(w.text):
            continue  # 'you need pinned memory for the copy to overlap' is not 'the async call is enough'
        if m_all and (_LIMITED.search(w.text) or _counted_things(w.text) & m_all_things) and not _ALL.search(w.text):
            continue  # 'each token goes to its top one or two experts' is not 'to all the experts'
        if m_each and _TOTAL.search(w.text) and not _EACH.search(w.text) and not _ONE_OF_THEM.search(w.text):
            continue  # 'the total traffic over all GPUs grows linearly' is not 'each GPU's traffic grows linearly'

        correct = float(cp_sim[i].max())
        if corr_ref is not None:
            correct = max(correct, float(sims[i, corr_ref]))
        # A structural match (the claim's roles or its distinctive concept) carries a claim that
        # the embeddings alone cannot tell from the correct one; otherwise it must be clearly closer.
        # A change of what the correction says stays the same ('far fewer arithmetic operations' where
        # the correction says 'keeps the same arithmetic') is the claim's own structure.
        own_change = not w.negated and bool(_changed(w.text, kinds=("up", "down"), ratios=False) & alt_kept - _kept_things(w.text) - _changed(w.text, kinds=("same",)))
        margin = tuning.misconception_margin if structure == 0 and not own_change else -tuning.misconception_margin
        if structure == 0 and sim >= tuning.misconception_close_sim and alt_text and not w.words & alt_only:
            margin = 0.0  # all but a restatement of the claim, and none of the correction's own words
        # (with no correction, the closest checkpoint stands for it: 'saves memory without any extra compute'
        # against 'trades compute for memory: about one extra forward pass')
        near_polarity = alt_text is None and m_negated and bool(cp_texts) and not polarity.negated(cp_canons[k_near])
        if structure == 0 and (by_polarity or near_polarity) and w.negated == m_negated and not _NOT_BUT.search(w.text):
            # Where the claim and its correction differ in polarity ('INT8 never loses accuracy'
            # against '... can cost accuracy'), a clause with the claim's polarity ('you don't lose any
            # accuracy') need only be as close to the claim as to the correct statements.
            margin = min(margin, 0.0)
        if sim - correct < margin:
            continue
        named = w.keys | {k for x in w.words if (k := _head_key(x, matcher))}  # 'the pipeline' speaks of pipeline parallelism
        if max(_overlap(words, keys, w.words, frozenset(named), w.near) for words, keys in m_terms) < 0.2:
            continue  # close in style, but not about the same things
        correct_words = set(alternative) | set(cp_seqs[k_near])
        overclaims = overclaim_only and _ABSOLUTE.search(w.text)
        # the claim's own place roles ('TP across nodes') say what it says, in the correction's words
        own_roles = alt_text is not None and role_bindings(w.text, matcher) & (m_bind - role_bindings(alt_text, matcher))
        # ... and so does the claim's own polarity ('layout does not affect speed' against '... can change speed a lot')
        own_polarity = by_polarity and w.negated == m_negated and not _NOT_BUT.search(w.text)  # 'not the result, only the speed'
        # ... and its direction ('more precise' where the correction says 'less precise'), of the same thing ('more range' is not)
        # (with no correction, the closest checkpoint is the right version: 'the cache costs memory that grows')
        opposite = by_direction or (bool(m_dir) and alt_text is None and bool(cp_texts)
                                    and direction(cp_canons[k_near]) not in (None, m_dir))
        own_direction = opposite and direction(w.text) == m_dir and bool(_changed_things(w.text, matcher) & m_changed) and w.negated == m_negated
        # ... and how many of a thing it speaks of ('onto one master GPU' where the correction says 'every GPU')
        # (or, where the right version names only some of them, 'every one of them' for the claim's 'all the experts')
        own_scope = counts > 0 or (m_some_only and bool(_EVERY_ONE.search(w.text)) and not _LIMITED.search(w.text))
        says_own = (w.words | w.keys) & (m_own - correct_words) - _modifier_parts(w.text, m_own) - _said_of_other_things(w.text, m_canons, m_own)
        # ... said the claim's way up: 'tokens attend to each other' does not say 'tokens never attend'
        says_own = {x for x in says_own if x not in m_denies or x in polarity.denied_words(w.text)}
        says_own -= _SETTING_WORDS  # 'a memory optimization for training' says nothing of 'saving the model weights so training can resume'
        says_own -= m_subjects  # naming what the claim is about ('you can try torch.cuda.empty_cache()') says nothing of it
        if says_own and all(_is_direction_word(x) for x in says_own) and not _changed(w.text, before=True) & m_things:
            says_own = set()  # 'lowers the cost per request' is not 'lowers the latency': a change of something the claim never names
        # ... and how much of a thing it says there is ('a big speedup' where the correction says 'little speedup')
        own_size = not w.negated and bool(_sized(w.text, _BIG) & alt_small)
        if not says_own and not (overclaims or own_roles or own_polarity or own_direction or own_scope or own_size or own_change):
            continue  # on the topic, but says nothing the wrong claim says and the right one does not ('never', 'at all' do)
        # (in the claim's order, or in that of the phrasing it is closest to: 'each GPU runs its own
        # group of whole layers')
        if structure == 0 and not (own_scope or own_size or own_change) and not any(follows_order(content_words(w.text), seq, alternative)
                                      for seq in (m_seq, content_words(clean_for_matching(ref_text, matcher)))):
            continue  # the window states the correct version, with the roles the right way round
        if sim > best:
            best, best_i = sim, i
    if best_i is None:
        return None
    w = windows[best_i]
    return MisconceptionHit(m.id, (Span(w.start, w.end),), round(best, 3)), best_i


_COMPOUND = re.compile(r"\b([a-z0-9]+)-([a-z0-9]+)\b")


def _all_things(text: str) -> set[str]:
    """The things ``text`` says all of: 'every token goes to all the experts' -> {'expert'}."""
    return {root(x.group(1)) for x in re.finditer(r"\ball (?:the |of the )?([a-z][\w-]*)", text) if x.group(1) not in STOPWORDS}


_BIG = r"big|large|huge|massive|significant|substantial|major|real|direct|dramatic|considerable"
_SMALL = r"little|small|tiny|negligible|minor|marginal|no|limited|modest"


def _sized(text: str, sizes: str) -> set[str]:
    """The things ``text`` gives a size of that kind: 'you get a big speedup straight away' -> {'speedup'}."""
    return {root(x.group(1)) for x in re.finditer(rf"\b(?:{sizes})\s+([a-z][\w-]*)", text) if x.group(1) not in STOPWORDS}


def _kept_things(text: str) -> set[str]:
    """What ``text`` says stays as it is: 'fusion keeps the same arithmetic' -> {'arith'}, 'the FLOPs
    stay the same' -> {'flop'}."""
    out = {root(x.group(1)) for x in re.finditer(r"\b(?:keeps?|keeping|kept|leaves?|leaving|does|do|did|is|are|performs?|with) (?:exactly |just )?the same (?:amount of |number of )?([a-z][\w-]*)", text)}
    out |= {root(x.group(1)) for x in re.finditer(r"\b([a-z][\w-]*) (?:stays?|stayed|remains?|remained|is|are) (?:exactly |roughly |about )?(?:the same|unchanged)\b", text)}
    return {x for x in out if x not in STOPWORDS}


def _counted_things(text: str) -> set[str]:
    """The things ``text`` counts with a small number: 'a weighted mix of those two experts' -> {'expert'}."""
    return {root(x.group(1)) for x in re.finditer(r"\b(?:one|two|three|four|[1-4])\s+([a-z][\w-]*)", text) if x.group(1) not in STOPWORDS}


def _limited_things(text: str) -> set[str]:
    """The things ``text`` says only some of: 'picks the top-k experts', 'only goes through k experts'."""
    out = set()
    for x in re.finditer(_LIMITED.pattern + r"|\bonly (?:\w+ ){0,2}?(?:k|one|two|\d+)\b", text):
        for word in re.findall(r"[a-z][\w-]*", text[x.end():])[:2]:
            if word not in STOPWORDS and not word.isdigit():
                out.add(root(word))
                break
    return out


def _modifier_parts(text: str, claim_words: Container[str]) -> set[str]:
    """Words of ``text`` said only as half of a hyphenated compound whose other half the claim does
    not say: 'a memory-saving technique' does not say the 'saving' of 'saving the weights to disk',
    while 'memory-bound' says both words of 'is memory bound'.

    >>> sorted(_modifier_parts("checkpointing is a memory-saving technique", {"sav", "weight", "disk"}))
    ['sav']
    >>> sorted(_modifier_parts("the fused kernel is memory-bound", {"memory", "bound"}))
    []
    """
    alone = set(content_words(_COMPOUND.sub(" ", text)))  # said on their own too
    parts = set()
    for a, b in _COMPOUND.findall(text):
        sa, sb = (content_words(a) or [""])[0], (content_words(b) or [""])[0]
        for x, other in ((sa, sb), (sb, sa)):
            if x and x in claim_words and other not in claim_words and x not in alone:
                parts.add(x)
    return parts


# Words that name the setting of nearly every answer here, not what a claim says about it.
_SETTING_WORDS = frozenset(content_words("model models train training network networks"))


@memo_for_short(1000, 8192)
def _word_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """Each word of ``text`` as a content word ('' for a stopword), with the word after it."""
    words = [(content_words(x) or [""])[0] for x in re.findall(r"[a-z0-9][a-z0-9'-]*", text)]
    return tuple(zip(words, words[1:] + [""]))


def _said_of_other_things(text: str, claims: Sequence[str], claim_words: Container[str]) -> set[str]:
    """Words that every phrasing of the claim says right before a word of its own ('its full
    tensor') and ``text`` says only right before another word the claim never says ('continues
    with the full activation'): a modifier of something else.

    >>> sorted(_said_of_other_things("every gpu continues with the full activation", ["each gpu sends its full tensor"], {"full", "tensor"}))
    ['full']
    >>> sorted(_said_of_other_things("each gpu sends the full buffer", ["each gpu sends its full tensor"], {"full", "tensor", "buffer"}))
    []
    """
    here = _word_pairs(text)
    out = set()
    for x in {a for a, _ in here if a in claim_words}:
        followers = {b for t in claims for a, b in _word_pairs(t) if a == x}
        said = {b for a, b in here if a == x}
        if followers and "" not in followers and "" not in said and not said & followers and not said & set(claim_words):
            out.add(x)
    return out


_GOES_ON = re.compile(r"^(?:(?:and\s+)?so|which|meaning|that means|i\.e\.|thus|hence|that(?:'s| is) why|therefore)\b")  # 'which means' too


def _clause_texts(windows: list[_Window]) -> dict[int, str]:
    """Each clause's text as read, by its index (from the windows that hold one clause)."""
    return {w.clauses[0]: w.text for w in windows if len(w.clauses) == 1}


def _said_again(said: set[int], windows: list[_Window]) -> set[int]:
    """The clauses that repeat one of ``said`` word for word: a wrong claim said twice is wrong twice."""
    text = _clause_texts(windows)
    wrong = {text[c] for c in said if c in text}
    return {c for c, t in text.items() if t in wrong}


def _what_follows_from(wrong: set[int], clauses: list[Clause], windows: list[_Window], topics: frozenset[str], matcher: TermMatcher,
                       answer: str) -> set[int]:
    """The clauses that draw a consequence from a wrong claim in the same sentence ('TP gives each
    GPU whole layers, so the tensors of a layer live on one device'), or spell it out after a
    colon ('all-reduce is basically a reduce: all GPUs send their results to rank 0'): they stand
    or fall with it. A clause that turns to a topic of the rubric the claim did not name is a
    claim of its own. ``answer``: the text the clauses' offsets point into."""
    text = _clause_texts(windows)
    out = set()
    for c in sorted(wrong):
        nxt = c + 1
        named = _subjects(text.get(c, ""), matcher)
        while nxt < len(clauses) and nxt in text and nxt not in wrong and (clauses[nxt].sentence == clauses[c].sentence or (
                # 'onto one master GPU, which adds them up; that GPU then has the complete output': what it points back to
                nxt == c + 1 and clauses[nxt].sentence == clauses[c].sentence + 1 and re.search(r"[;:]", answer[clauses[c].end:clauses[nxt].start])
                and _points_back(text[nxt], text.get(c, "")))):
            t = text[nxt]
            if _REASON.match(t) and not (_subjects(t, matcher) & topics) - named:
                nxt += 1  # the claim's reason, which may be true, and then what is drawn from both
                continue
            spelt_out = nxt == c + 1 and ":" in answer[clauses[c].end:clauses[nxt].start]
            if not (_GOES_ON.match(t) or spelt_out or _points_back(t, text.get(c, ""))) or (_subjects(t, matcher) & topics) - named:
                break
            out.add(nxt)
            nxt += 1
    return out


_REASON = re.compile(r"^(?:(?:and|but)\s+)?(?:because|since)\b")


def _points_back(clause: str, before: str) -> bool:
    """Whether a clause opens on 'that' / 'this' / 'the same' and a noun the clause before says
    ('that GPU then has the complete output' after '... onto one master GPU')."""
    m = re.match(r"(?:(?:and|so|then)\s+)?(?:that|this|the same|this same|such an?)\s+([a-z][\w-]*)", clause)
    return bool(m) and not re.search(r"\b(?:actually|really|instead|rather|but|should|wrong)\b", clause) and m.group(1) not in STOPWORDS and root(m.group(1)) in {root(x) for x in re.findall(r"[a-z][\w-]*", before)}


def _what_it_spells_out(wrong: set[int], clauses: list[Clause], windows: list[_Window], topics: frozenset[str], matcher: TermMatcher,
                        answer: str) -> set[int]:
    """The clause a wrong claim spells out after a colon, saying what it is ('arithmetic intensity
    is a hardware spec: it's the GPU's peak FLOP/s divided by its bandwidth'): the headline says in
    short what the claim says in full, and stands or falls with it. Not when the claim turns to a
    topic of the rubric the headline did not name, nor when the colon opens a claim of its own
    ('PP splits the layers into stages: every GPU is busy all the time'). ``answer``: the text the
    clauses' offsets point into."""
    text = _clause_texts(windows)
    out = set()
    for c in sorted(wrong):
        head = c - 1
        if head < 0 or head in wrong or head not in text or c not in text or clauses[head].sentence != clauses[c].sentence:
            continue
        if (":" in answer[clauses[head].end:clauses[c].start] and _spells_out(clauses[c].text.lower(), text[head])
                and _COPULA.search(text[head])
                and not (_subjects(text[c], matcher) & topics) - _subjects(text[head], matcher)):
            out.add(head)
    return out


def _spells_out(said: str, head: str) -> bool:
    """Whether a clause after a colon says in full what the headline before it says in short."""
    if _SPELLED_OUT.match(said):
        return True
    m = _SPELLED_OUT_AS_DOING.match(said)
    return bool(m) and root(m.group(1)) in {root(word) for word in re.findall(r"[a-z]{5,}", _COPULA.split(head, maxsplit=1)[0])}


# A headline that says what its subject is ('X is a hardware spec'), and what a colon opens that
# says it in full ('...: it's the GPU's peak FLOP/s divided by its bandwidth'), not a claim of its
# own ('...: every GPU is busy all the time', '...: that is why it runs across nodes', '...: it
# also cuts the FLOPs').
_COPULA = re.compile(r"\b(?:is|are)\b")
_SPELLED_OUT = re.compile(r"(?:it|this|they)(?:'s| is|'re| are) (?!(?:why|because|also|not|just|still|then)\b)")
# ... or that says, in the second person, how one does what the headline names: 'distillation is a
# compression trick: you distill the teacher by ...' (not any claim that opens on 'you': 'pruning is
# removing weights: you get a 2x speedup ...' makes a claim of its own).
_SPELLED_OUT_AS_DOING = re.compile(r"(?:you|we) ([a-z]{5,})")
_CLAIM_DENIES = re.compile(r"\b(?:rather than|instead of|as opposed to)\b")


@lru_cache(maxsize=1024)
def _denied_by_claim(canon: str) -> tuple[frozenset[str], frozenset[str]]:
    """What a wrong claim sets itself against and what it puts in its place ('... a property of
    the GPU rather than of the kernel' denies the kernel for the GPU): the content words after its
    contrast, not said before it, and the word after the same preposition before it.

    >>> [sorted(x) for x in _denied_by_claim("arithmetic intensity is a property of the gpu (its ratio of peak flop/s) rather than of the kernel")]
    [['kernel'], ['gpu']]
    """
    m = _CLAIM_DENIES.search(canon)
    if not m:
        return frozenset(), frozenset()
    denied = set(content_words(canon[m.end():])) - set(content_words(canon[: m.start()]))
    if not 0 < len(denied) <= 3:
        return frozenset(), frozenset()
    favoured = set()
    prep = re.match(r"\s*(of|by|on|in|for|to|with|from)\b", canon[m.end():])
    if prep:
        said = re.sub(r"\([^()]*\)", " ", canon[: m.start()])  # not inside an aside: '(its ratio of peak FLOP/s ...)'
        last = list(re.finditer(rf"\b{prep.group(1)} (?:the |a |an |its |their )?([\w-]+)", said))
        if last:
            favoured = set(content_words(last[-1].group(1)))
    return frozenset(denied), frozenset(favoured)


def _siblings_apart(first: str, then: str, matcher: TermMatcher) -> bool:
    """Whether two clauses are about sibling concepts ('tensor parallelism needs an all-reduce, so
    pipeline stages just hand on their activations'): not one claim and its reason."""
    a, b = _first_subject(first, matcher), _first_subject(then, matcher)
    return a is not None and b is not None and a != b and _same_head(a, b, matcher)


def _inherits_another_topic(w: _Window, before: "_Window | None", m_subjects: set[str], topics: set[str], matcher: TermMatcher,
                            claim_opens_on: frozenset[str] = frozenset(), claimed: frozenset[str] = frozenset(),
                            opening: "_Window | None" = None) -> bool:
    """Whether a clause that names none of the rubric's topics ('so the model is smaller and the
    math is faster') goes on from one in its sentence about another topic than the wrong claim's.
    ``claim_opens_on``: the concept the claim opens on, if any; ``claimed``: the concepts any
    phrasing of the claim names; ``opening``: the sentence's first clause, which, opening on the
    claim's subject, makes the sentence about it ('Kernel fusion is the other big one: when TensorRT
    fuses conv and ReLU, ... so there are fewer FLOPs')."""
    if not m_subjects or len(w.clauses) != 1 or before is None or before.sentence != w.sentence:
        return False
    if opening is not None and opening is not before:
        said = _concepts_at(opening.text, matcher)
        if said and said[0][1] in m_subjects and _opens_on(opening.text, said[0][0]) and not opening.negated:
            return False
    named = _subjects(w.text, matcher)
    if named & topics:
        return False
    # A concept deep in the claim that is no topic of the rubric ('GPU' in 'zeroing weights makes GPU
    # inference faster') is its setting: a clause that names it may still go on about its sentence's
    # topic, where no phrasing of the claim names that topic.
    if named & m_subjects & claim_opens_on:
        return False
    strict = not named & m_subjects
    found = _concepts_at(before.text, matcher)
    unclaimed = lambda key: key not in m_subjects and not any(_same_head(key, c, matcher) or key == c for c in claimed)  # noqa: E731
    if found and found[0][1] in topics and _opens_on(before.text, found[0][0]) and (unclaimed(found[0][1]) if not strict else found[0][1] not in m_subjects):
        return True
    # ... or that ends on it, as what comes next is about ('the biggest thing is quantization: you convert the weights to INT8')
    last = next(((pos, key) for pos, key in reversed(found) if key in topics), None)
    return last is not None and unclaimed(last[1]) and not content_words(before.text[last[0]:])[1:] and not before.negated \
        and not any(not unclaimed(key) for _, key in found if key != last[1]) \
        and bool(re.search(r"\b(?:is|are|was|were)\s+(?:(?:the|a|an|probably|definitely|clearly|really|just)\s+)?$", before.text[:last[0]]))


def _sentence_opening(w: _Window, by_clause: dict[int, _Window]) -> "_Window | None":
    """The window of the first clause of ``w``'s sentence."""
    first, c = None, w.clauses[0] - 1
    while (v := by_clause.get(c)) is not None and v.sentence == w.sentence:
        first, c = v, c - 1
    return first


def _subjects(canon: str, matcher: TermMatcher) -> set[str]:
    """Concepts a text names, by their term or by its head word ('pipeline')."""
    return {key for _, key in _concepts_at(canon, matcher)}


def _term_words(key: str, matcher: TermMatcher) -> frozenset[str]:
    """The content words of the glossary term behind a concept key."""
    return _key_words(matcher).get(key, frozenset())


@lru_cache(maxsize=8)
def _key_words(matcher: TermMatcher) -> dict[str, frozenset[str]]:
    return {key: frozenset(content_words(canonical)) for canonical, key in matcher.keys.items()}


def _same_head(a: str, b: str, matcher: TermMatcher) -> bool:
    """Whether two concept keys name terms with the same head noun (their last word)."""
    heads = _head_nouns(matcher)
    return a != b and heads.get(a) is not None and heads.get(a) == heads.get(b)


@lru_cache(maxsize=8)
def _head_nouns(matcher: TermMatcher) -> dict[str, str]:
    return {key: canonical.split()[-1] for canonical, key in matcher.keys.items() if " " in canonical}


@lru_cache(maxsize=4096)
def _point_subject(text: str, matcher: TermMatcher) -> tuple[str | None, frozenset[str]]:
    """A checkpoint's subject (its first concept) and the sibling concepts it does not itself
    name ('tensor parallelism' and the other kinds of parallelism): a window about one of those
    and not about the subject speaks of something else. No siblings for a point that compares
    two of them ('TP within a node, PP across nodes')."""
    canon = clean_for_matching(text, matcher)
    subject = _first_subject(canon, matcher)
    if subject is None:
        return None, frozenset()
    siblings = {k for k in matcher.keys.values() if _same_head(k, subject, matcher)}
    if siblings & _subjects(canon, matcher):
        return subject, frozenset()
    return subject, frozenset(siblings)


@lru_cache(maxsize=512)
def _sibling_contrasts(rubric: Rubric, matcher: TermMatcher) -> tuple[tuple[tuple[str, frozenset[str], frozenset[str], frozenset[str]], ...], ...]:
    """Per checkpoint, what it binds to which concept against what else: (concept, the concepts
    it stands against, the words only this binding says, the words only the other says), words
    by their first five letters, the concepts' own names left out.

    - Against a checkpoint about a sibling of its subject: its whole text and aliases, against
      the sibling's ('TP splits each weight matrix' / 'PP splits the layers into stages').
    - Inside a checkpoint that sets two siblings, the two concepts the question contrasts, or two
      kinds of one thing that open its parallel parts, side by side: what follows each name,
      against what follows the other ('TP communicates often ...; PP communicates less ...';
      'Nsight Systems shows the timeline ..., and Nsight Compute analyzes individual kernels').
    """
    subjects = [_point_subject(p.text, matcher) for p in rubric.checkpoints]
    topics = {s for s, _ in subjects if s}
    names = frozenset().union(*(_term_words(s, matcher) for s in topics))

    def words(text: str) -> frozenset[str]:
        return _word_marks(text, names)

    pair = contrasted_pair(rubric.prompt, matcher)
    asked = {concept_key(t) for t in pair} if pair else set()
    # Two things the question sets side by side in plain words ('differ between training and
    # inference'), named by a word: '~train', '~infer'.
    plain = () if pair else _plain_pair(clean_for_matching(rubric.prompt, matcher))
    texts = [clean_for_matching(" ".join((core_text(p.text), *p.aliases)), matcher) for p in rubric.checkpoints]
    whole = [words(t) for t in texts]
    cores = [clean_for_matching(core_text(p.text), matcher) for p in rubric.checkpoints]
    # the numbered part a checkpoint opens on ('Stage 1 splits ...'), if any
    leads = [parts[0][1] if (parts := _numbered_parts(c)) and parts[0][0] == 0 else None for c in cores]
    out = []
    for k, (subject, siblings) in enumerate(subjects):
        bindings = [(subject, siblings, whole[k] - whole[j], whole[j] - whole[k]) for j, (other, _) in enumerate(subjects)
                    if subject and other in siblings and other != subject]
        canon = cores[k]
        keys = list(dict.fromkeys(key for _, key in _concepts_at(canon, matcher) if key in topics))
        pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :] if _same_head(a, b, matcher) or {a, b} == asked]
        if len(pairs) != 1 and plain and all(_mentions(canon, {key}, matcher) for key in plain):
            pairs = [plain]
        if len(pairs) != 1:
            openers = _parallel_openers(canon, matcher)
            if len(openers) == 2 and _term_words(openers[0], matcher) & _term_words(openers[1], matcher):
                pairs = [tuple(openers)]  # two kinds of one thing: 'Nsight Systems ..., and Nsight Compute ...'
        parts = _numbered_parts(canon)
        numbered = list(dict.fromkeys(key for _, key in parts))
        if len(pairs) != 1 and len(numbered) >= 2:
            # Numbered parts side by side: 'stage 1 shards optimizer states, stage 2 also shards
            # gradients, and stage 3 also shards parameters'.
            said = {key: frozenset() for key in numbered}
            for i, (pos, key) in enumerate(parts):
                end = next((q for q, other in parts[i + 1 :] if other != key), len(canon))
                said[key] |= words(_NUMBERED.sub(" ", canon[pos:end]))
            for key in numbered:
                rest = frozenset().union(*(said[o] for o in numbered if o != key))
                bindings.append((key, frozenset(numbered) - {key}, said[key] - rest, rest - said[key]))
        elif (key := leads[k]) is not None:
            # A point about one numbered part, beside points about the others ('Stage 1 splits the
            # optimizer states ...' / 'Stage 3 also splits the parameters ...').
            others = {j: lead for j, lead in enumerate(leads) if j != k and lead is not None and lead != key
                      and lead.rstrip("0123456789") == key.rstrip("0123456789")}
            if others:
                mine = _word_marks(_NUMBERED.sub(" ", texts[k]))  # (what the parts hold are no names to leave out)
                rest = frozenset().union(*(_word_marks(_NUMBERED.sub(" ", texts[j])) for j in others))
                bindings.append((key, frozenset(others.values()), mine - rest, rest - mine))
        if len(pairs) == 1:
            keys = list(pairs[0])
            named = _mentions(canon, set(keys), matcher)
            said = {key: frozenset() for key in keys}
            own_names = {key[1:5] for key in keys if key.startswith("~")} | {w[:4] for key in keys for w in _term_words(key, matcher)}
            for i, (pos, key) in enumerate(named):
                end = next((q for q, other in named[i + 1 :] if other != key), len(canon))
                said[key] |= {w for w in words(canon[pos:end]) if w[:4] not in own_names}  # 'sorting' is no word of its side
            a, b = keys
            bindings += [(a, frozenset({b}), said[a] - said[b], said[b] - said[a]), (b, frozenset({a}), said[b] - said[a], said[a] - said[b])]
        out.append(tuple(bindings))
    return tuple(out)


_PARALLEL = re.compile(r";|,\s*(?:and|while|whereas|but)\s+|\b(?:while|whereas)\b")


def _parallel_openers(canon: str, matcher: TermMatcher) -> list[str]:
    """The concepts that open the parallel parts of a statement ('Nsight Systems shows the
    timeline ..., and Nsight Compute analyzes individual kernels'), in order, each once."""
    out = []
    for part in _PARALLEL.split(canon):
        found = _concepts_at(part, matcher)
        if found and _opens_on(part, found[0][0]) and found[0][1] not in out:
            out.append(found[0][1])
    return out


@lru_cache(maxsize=4096)
def _listed_subjects(text: str, in_prompt: frozenset[str], matcher: TermMatcher) -> frozenset[str]:
    """The things a checkpoint runs through in turn, each opening a part of its own ('TensorRT
    optimizes the graph ...; cuDNN supplies tuned primitives ...; DALI moves data loading ...'),
    less those the question itself names (``in_prompt``: its concept keys)."""
    return frozenset(k for k in _parallel_openers(clean_for_matching(core_text(text), matcher), matcher) if k not in in_prompt)


_PLAIN_PAIR = re.compile(r"\b(?:between (?:the )?([a-z][a-z0-9-]{3,}) and (?:the )?([a-z][a-z0-9-]{3,})|([a-z][a-z0-9-]{3,}) (?:vs\.?|versus) ([a-z][a-z0-9-]{3,}))\b")


def _plain_pair(prompt: str) -> tuple[str, str] | tuple[()]:
    """The two things a question sets side by side in plain words, by their first five letters
    after a '~'.

    >>> _plain_pair("how do optimization goals differ between training and inference?")
    ('~train', '~infer')
    >>> _plain_pair("how does it move data between gpus?")
    ()
    """
    m = _PLAIN_PAIR.search(prompt)
    if m is None:
        return ()
    a, b = (g for g in m.groups() if g)
    if a in STOPWORDS or b in STOPWORDS or a[:5] == b[:5]:
        return ()
    return "~" + a[:5], "~" + b[:5]


def _mentions(text: str, keys: set[str], matcher: TermMatcher, concepts: list[tuple[int, str]] | None = None) -> list[tuple[int, str]]:
    """(offset, key) of every mention of the given concepts (or '~' plain words, or '#' numbered
    parts) in a text; ``concepts``: the text's ``_concepts_at``, when already found."""
    found = [(pos, key) for pos, key in (_concepts_at(text, matcher) if concepts is None else concepts) if key in keys]
    found += [(m.start(), key) for key in keys if key.startswith("~") for m in re.finditer(rf"\b{re.escape(key[1:])}", text)]
    if any(key.startswith("#") for key in keys):
        found += [(pos, key) for pos, key in _numbered_parts(text) if key in keys]
    return sorted(found)


_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "first": "1", "second": "2", "third": "3"}
_NUMBERED = re.compile(r"\b(stage|phase|level|tier)[\s-]*(\d|one|two|three|four|five)\b|\b(first|second|third) (stage|phase|level|tier)\b")


def _numbered_parts(text: str) -> list[tuple[int, str]]:
    """(offset, key) of each numbered part a text names: 'stage 1', 'stage one', 'the third
    stage' are all '#stage3'-like keys.

    >>> _numbered_parts("stage 1 shards optimizer states, stage two also shards gradients")
    [(0, '#stage1'), (33, '#stage2')]
    """
    out = []
    for m in _NUMBERED.finditer(text):
        head, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        out.append((m.start(), f"#{head}{_NUMBER_WORDS.get(number, number)}"))
    return out


# A verb of copying: what stands before it copies what stands after it ('the student mimics the
# teacher'), unless it is passive ('the teacher is mimicked by the student').
# ('match' and 'copy' are left out: 'the weights match', 'a full copy of the weights' copy no one)
_IMITATES = re.compile(r"\b(?:mimic(?:s|ked|king)?|imitat(?:e|es|ed|ing)|reproduc(?:e|es|ed|ing)|learn(?:s|ed|t|ing)? from)\b")
_PASSIVE_BY = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got)\s+(?:\w+ed|copied|reproduced)\s+by\b")


def _copy_sides(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The words before and after the first verb of copying in ``text`` (copier, copied), or None."""
    m = _IMITATES.search(text)
    if m is None:
        return None
    # (within the stretch of the statement the verb is in: between the marks around it)
    start = max(text.rfind(mark, 0, m.start()) for mark in ",;.:") + 1
    end = re.search(r"[,;.:]|$", text[m.end() :]).start() + m.end()
    before, after = frozenset(content_words(text[start : m.start()])), frozenset(content_words(text[m.end() : end]))
    if _PASSIVE_BY.search(text, max(0, m.start() - 12), m.end() + 4):
        before, after = after, before
    return before, after


@lru_cache(maxsize=1024)
def _imitation_sides(canon: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """A checkpoint's copier and copied words, each only on its own side."""
    sides = _copy_sides(canon)
    if sides is None:
        return None
    before, after = sides
    return before - after, after - before


def _copies_the_other_way(text: str, copier: tuple[frozenset[str], frozenset[str]]) -> bool:
    """Whether ``text`` has what the checkpoint's copied side holds copying what its copier side
    holds: a word of each on the other side of the verb.

    >>> sides = _imitation_sides("a smaller student model is trained to mimic a large teacher's outputs")
    >>> _copies_the_other_way("the large teacher is trained to mimic the small student", sides)
    True
    >>> _copies_the_other_way("the small student learns to imitate the teacher's soft labels", sides)
    False
    >>> _copies_the_other_way("the teacher's outputs are mimicked by the student", sides)
    False
    """
    sides = _copy_sides(text)
    if sides is None:
        return False
    before, after = sides
    ours, theirs = copier
    return bool(before & theirs) and bool(after & ours)


# Co-variation: how one quantity moves as another does ('the bubble shrinks as the number of
# micro-batches grows'). Words of change by direction, past _DIRECTION's: verbs of rising and
# falling ('rises', 'falls'), of adding and removing, and comparatives ('bigger', 'shorter').
_UP_WORD = re.compile(r"ris(?:e|es|en|ing)|rose|grow(?:s|n|ing)?|grew|bigger|longer|greater|add(?:s|ed|ing)?|doubl(?:e|es|ed|ing)|climb(?:s|ed|ing)?")
_DOWN_WORD = re.compile(r"fall(?:s|en|ing)?|fell|shr[iu]nk\w*|shrank|shorter|remov(?:e|es|ed|ing)|halv(?:e|es|ed|ing)|declin(?:e|es|ed|ing)")
_COMPARATIVE = r"(?:more|fewer|less|bigger|larger|smaller|greater|higher|lower|longer|shorter)(?!\s+\w+ly\b)"  # not 'more importantly'
_CHANGE_VERB = (r"(?:(?:increas|decreas|reduc|lower|rais|ris|grow|grew|shrink|shrank|shrunk|drop|fall|fell|declin|climb|doubl|halv|cut|add|remov)"
                r"[a-z]*(?:\s+(?:up|down))?|(?:go|goes|going|went|gone)\s+(?:up|down))(?![\w-])")  # not 'reduce-scatter'
# An optional negation, then a change: a verb ('grows', 'goes down', 'is reduced') or a light verb
# and a comparative ('gets smaller', 'is lower').
_CHANGE = (rf"(?P<neg>(?:(?:does|do|did|will|would|can|is|are)\s+not|never|no longer)\s+)?"
           rf"(?:(?:gets?|getting|becomes?|becoming|grows?|is|are|stays?)\s+(?:much\s+|even\s+|far\s+|a lot\s+)?(?P<cmp>{_COMPARATIVE})\b|"
           rf"(?:(?:is|are|gets?)\s+)?(?P<verb>{_CHANGE_VERB}))")
_OPENER = r"^(?:(?:and|so|but|then|thus|hence|therefore|because|since|also|basically|which means|that means|meaning|while|whereas)\s+)*"
_QUANTITY = r"(?:the\s+)?(?P<dep>(?:[\w'-]+\s+){0,6}?[\w'-]+)"
_DIRECTED_GERUND = r"(?:adding|increasing|decreasing|reducing|raising|lowering|doubling|halving|removing)"
_STATEMENT_END = r"(?=$|,|\s+(?:and|so|but|which)\b)"
_TRENDS = (
    # 'the bubble shrinks as you add more micro-batches', 'latency grows with the number of steps',
    # 'the bubble is reduced by using more micro-batches', 'it gets smaller the more micro-batches you use'
    re.compile(rf"{_OPENER}{_QUANTITY}\s+{_CHANGE}(?:\s+[a-z]+ly)?,?\s+(?P<how>as|when|whenever|with|by|the(?=\s+{_COMPARATIVE}\b))\s+(?P<ind>.+)$"),
    # 'as micro-batches grow, the bubble shrinks'; 'with more micro-batches the bubble is smaller'
    re.compile(rf"{_OPENER}(?P<how>as|when|whenever|with)\s+(?P<ind>[^,]+?)(?:,\s*|\s+(?=the\s))(?:then\s+)?{_QUANTITY}\s+{_CHANGE}{_STATEMENT_END}"),
    # 'the more micro-batches, the smaller the bubble'
    re.compile(rf"{_OPENER}the\s+(?P<ind>{_COMPARATIVE}\s+[^,]+?),?\s+the\s+(?P<cmp>{_COMPARATIVE})\s+(?P<obj>.+)$"),
    # 'larger batches reduce throughput', 'adding more stages makes the bubble bigger'
    re.compile(rf"{_OPENER}(?P<ind>(?:(?:adding|using|having|{_DIRECTED_GERUND})\s+)?(?:the\s+)?(?:{_COMPARATIVE}|{_DIRECTED_GERUND})(?:\s+[\w'-]+){{1,5}}?)\s+"
               rf"(?P<neg>(?:does|do|did|will|would|can)\s+not\s+|never\s+)?(?:(?P<verb>{_CHANGE_VERB})\s+(?P<obj>.+)|"
               rf"(?:makes?|leaves?|keeps?)\s+(?P<dep2>.+?)\s+(?P<cmp>{_COMPARATIVE}){_STATEMENT_END}|"
               rf"(?:means?|gives?|leads? to|results? in|causes?)\s+(?:an?\s+)?(?P<cmp2>{_COMPARATIVE})\s+(?P<obj3>.+))"),
    # 'the bubble is inversely proportional to the number of micro-batches', 'memory scales with batch size'
    re.compile(rf"{_OPENER}{_QUANTITY}\s+(?:is|are)\s+(?:(?!inversely)\w+ly\s+)?(?P<inv>inversely\s+)?(?P<how>proportional)\s+to\s+(?P<ind>.+)$"),
    re.compile(rf"{_OPENER}{_QUANTITY}\s+(?P<how>scales?)\s+(?:(?!inversely)\w+ly\s+)?(?P<inv>inversely\s+)?(?:\w+ly\s+)?with\s+(?P<ind>.+)$"),
)
# Where a quantity's phrase ends: what follows measures it against something else ('micro-batches
# relative to stages', 'the ratio of stages to micro-batches') or goes on to another claim.
_QUANTITY_END = re.compile(r",|\b(?:relative to|compared (?:to|with)|than|per|over|divided by|to|versus|vs|and|so|which|because|since|but|whereas|while|"
                           r"although|though|meaning|thus|hence|if|unless|until|you want|we want)\b")
# What a quantity is measured against ('micro-batches relative to stages'): it moves the other way.
_RATIO = re.compile(r"(?:relative to|compared (?:to|with))\s+(?P<of>.+)$")
# Words that name no quantity of their own: 'the number of micro-batches you use' is micro-batches.
_NO_QUANTITY = frozenset(content_words("number amount count total level degree lot bit overall whole use have push put run pass become keep leave"))
_PRONOUN = re.compile(r"^(?:it|this|that|they|these|those|which)$")
_UP_OR_DOWN = {"up": 1, "down": -1}
# A subject with a verb or a pronoun in it is a clause, not a quantity: 'the problem is it is huge like it'.
_CLAUSE_WORD = re.compile(r"\b(?:is|are|was|were|be|been|you|we|i|they|that|which|who|it)\b")


def _trend(word: str) -> int:
    """+1 for a word of growth ('grows', 'more', 'adding'), -1 for one of lessening, else 0."""
    d = _direction_of_word(word)
    if d == "<up>" or _UP_WORD.fullmatch(word):
        return 1
    if d == "<down>" or _DOWN_WORD.fullmatch(word):
        return -1
    return 0


def _quantity(phrase: str) -> tuple[frozenset[str], int]:
    """A quantity's content words, up to where its phrase ends, with no words of change, and the
    one direction those words state (0: none, or both). A compound is one word: 'micro-batches'
    is not 'batches', and 'all-reduce' no word of lessening.

    >>> _quantity("you add more micro-batches relative to the stages")
    (frozenset({'micro-batch'}), 1)
    """
    tokens = re.findall(r"[a-z0-9]+(?:[-'][a-z0-9]+)*", _QUANTITY_END.split(phrase, maxsplit=1)[0])
    signs = {_trend(t) for t in tokens} - {0}
    words = frozenset("-".join(content_words(t)) for t in tokens if not _trend(t)) - {""} - _NO_QUANTITY
    return words, signs.pop() if len(signs) == 1 else 0


@lru_cache(maxsize=16384)
def covariations(text: str) -> tuple[tuple[frozenset[str], frozenset[str], int], ...]:
    """(dependent words, independent words, sign) for each co-variation ``text`` states: sign +1
    when the two move together, -1 when one falls as the other rises. Negated, the sign turns:
    'does not grow with' is read as the opposite trend, which is all it is weighed against. A
    pronoun for the dependent stands for the plain subject of the clause before it.

    >>> [(sorted(d), sorted(i), s) for d, i, s in covariations("the bubble shrinks as the number of micro-batch grows relative to the stages")]
    [(['bubble'], ['micro-batch'], -1), (['bubble'], ['stage'], 1)]
    >>> signs = lambda text: [s for _, _, s in covariations(text)]
    >>> signs("the bubble grows as you add more micro-batch"), signs("the more micro-batch, the smaller the bubble")
    ([1], [-1])
    >>> signs("latency grows with the number of steps"), signs("larger batches reduce throughput")
    ([1], [-1])
    >>> signs("adding more stages makes the bubble smaller"), signs("the bubble does not shrink as you add micro-batch")
    ([-1], [1])
    >>> signs("latency goes up as the number of steps grows"), signs("throughput falls as latency rises")
    ([1], [-1])
    >>> signs("as micro-batch grow, the bubble shrinks"), signs("it gets smaller the more micro-batch you use")
    ([-1], [])
    >>> signs("the bubble is inversely proportional to the micro-batch count"), signs("the cost is proportional to the length")
    ([-1], [1])
    >>> [(sorted(d), s) for d, _, s in covariations("the bubble fraction is about p-1 over m+p-1, so it shrinks as micro-batch grow")]
    [(['bubble', 'fraction'], -1)]
    >>> covariations("so you want as few as possible"), covariations("it reduces memory as well as compute")
    ((), ())
    """
    out = []
    for sentence in re.split(r"[;:.!?](?:\s+|$)", text):
        subject: frozenset[str] = frozenset()
        for piece in re.finditer(r"[^,]+", sentence):
            for dep, ind, sign in _covariation(sentence[piece.start() :].strip()):
                if dep or subject:
                    out.append((dep or subject, ind, sign))  # 'the bubble fraction is about ..., so it shrinks as ...'
            subject = _subject_words(piece.group()) or subject
    return tuple(out)


_SUBJECT = re.compile(_OPENER + r"(?:the\s+)?(?P<subj>(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+(?:is|are|was|were|has|have)\b")


def _subject_words(clause: str) -> frozenset[str]:
    """The content words of a clause's subject, where it is plainly one: 'the bubble fraction is ...'."""
    m = _SUBJECT.match(clause.strip())
    return frozenset(content_words(m["subj"])) - _NO_QUANTITY if m and not _PRONOUN.match(m["subj"]) else frozenset()


def _covariation(statement: str) -> list[tuple[frozenset[str], frozenset[str], int]]:
    """The co-variation a statement opens with (dependent words, empty for a pronoun), and the
    opposite one with what its independent is measured against, if anything."""
    for rx in _TRENDS:
        m = rx.match(statement)
        if m is None:
            continue
        g = m.groupdict()
        # (a dependent before its change is all one quantity; one after it, up to where it ends)
        dep_phrase = g.get("dep") or g.get("dep2") or _QUANTITY_END.split(g.get("obj") or g.get("obj3") or "", maxsplit=1)[0]
        if _PRONOUN.match(dep_phrase):
            dep_phrase = ""
        elif _CLAUSE_WORD.search(dep_phrase):
            return []
        dep, dep_sign = _quantity(dep_phrase)
        ind, ind_sign = _quantity(g["ind"])
        change = (g.get("cmp") or g.get("cmp2") or g.get("verb") or "").split()
        moves = (_trend(change[0]) or _UP_OR_DOWN.get(change[-1], 0)) if change else 0  # 'goes down' is down
        if g.get("how") in ("proportional", "scale", "scales"):
            moves, ind_sign = (-1 if g["inv"] else 1), 1
        elif g.get("how") == "with" and not ind_sign:
            ind_sign = 1  # 'grows with the number of steps': with more of them
        if not moves or not ind_sign or dep_sign or not ind or (dep and not dep - ind):
            return []
        sign = moves * ind_sign * (-1 if g.get("neg") else 1)
        # 'shrinks as micro-batches grow relative to stages': it grows as the stages do
        end = _QUANTITY_END.search(g["ind"])
        ratio = _RATIO.match(g["ind"], end.start()) if end else None
        against = _quantity(ratio["of"])[0] - ind if ratio else frozenset()
        return [(dep, ind, sign)] + ([(dep, against, -sign)] if against else [])
    return []


def _against_trend(text: str, trends: tuple[tuple[frozenset[str], frozenset[str], int], ...]) -> bool:
    """Whether ``text`` states one of a checkpoint's co-variations (see ``covariations``) the other
    way round: of the same quantity (the words of one independent all among the other's: 'steps'
    for 'sequential steps'; not 'larger batches' for 'micro-batches'), of a dependent sharing a
    word, with the opposite sign.

    >>> trends = covariations("the bubble fraction is about p-1 over m+p-1, so it shrinks as the number of micro-batch grows")
    >>> _against_trend("the pipeline bubble grows as you add more micro-batch", trends)
    True
    >>> _against_trend("the more micro-batch you push through, the smaller the bubble", trends)
    False
    >>> _against_trend("the bubble grows as you add more stages", trends), _against_trend("larger batches make the bubble bigger", trends)
    (False, False)
    >>> _against_trend("utilization grows with more micro-batch", trends)
    False
    """
    return any(s != cs and (ci <= i or i <= ci) and d & cd for d, i, s in covariations(text) for cd, ci, cs in trends)


def _word_marks(text: str, names: frozenset[str] = frozenset()) -> frozenset[str]:
    """The content words of ``text`` by their first five letters, and each two neighbouring ones
    as a phrase ('whole+layer'), the ``names`` left out.

    >>> sorted(_word_marks("each GPU holds whole layers"))
    ['gpu', 'gpu+hold', 'hold', 'hold+whole', 'layer', 'whole', 'whole+layer']
    """
    found = [w[:5] for w in content_words(text) if w not in names]
    return frozenset(found) | frozenset(f"{a}+{b}" for a, b in zip(found, found[1:]))


def _bound_to_sibling(text: str, bindings, matcher: TermMatcher) -> bool:
    """Whether what the text says right after naming a concept (up to the next concept it stands
    against) is made of what the rubric binds to that other concept and nothing of what it binds
    to this one: two or more of the other's own words, none of this one's. A condition binds
    nothing ('if the TP group spans nodes, ...')."""
    text = _IF_CLAUSE.sub("", text)
    concepts = _concepts_at(text, matcher)
    for subject, others, ours, theirs in bindings:
        found = _mentions(text, {subject, *others}, matcher, concepts)
        for i, (pos, key) in enumerate(found):
            if key != subject:
                continue
            end = next((q for q, k in found[i + 1 :] if k != subject), len(text))
            said = _word_marks(text[pos:end])  # word beginnings: 'matrix', 'matrices'; and phrases: 'whole layers'
            if len(said & theirs) >= 2 and not said & ours:
                return True
    return False


def _speaks_of_sibling(w: _Window, before: "_Window | None", subject: str, siblings: frozenset[str], matcher: TermMatcher) -> bool:
    """Whether the window's subject, named at its start, is a sibling of ``subject`` and the
    window does not name ``subject`` itself; a window that names neither (a pronoun: 'it
    splits each layer') takes its subject from the clause before it in the same sentence.

    'In pipeline parallelism each stage holds whole layers' speaks of pipeline parallelism;
    '... sum the partial results every layer and pipeline parallelism is ...' does not (a
    run-on spoken clause that reaches the sibling only at its end)."""
    found = [(pos, key) for pos, key in _concepts_at(w.text, matcher) if key == subject or key in siblings]
    if not found:
        return before is not None and before.sentence == w.sentence and _speaks_of_sibling(before, None, subject, siblings, matcher)
    if subject in {key for _, key in found}:
        return False
    pos, key = found[0]
    return key in siblings and _opens_on(w.text, pos)


def _opens_on(text: str, pos: int) -> bool:
    """Whether what stands at ``pos`` opens the text, as its subject would: at most one content
    word before it ('in pipeline parallelism ...', 'so tensor parallelism ...')."""
    return len(content_words(text[:pos])) <= 1


@memo_for_short(1000, 8192)  # several checks ask about the same clause
def _concepts_at(canon: str, matcher: TermMatcher) -> tuple[tuple[int, str], ...]:
    """(offset, key) of every concept a text names, by its term or by its head word, in order."""
    found = matcher.key_positions(canon)
    if matcher.heads:
        found += [(m.start(), matcher.heads[m.group()]) for m in _heads_regex(matcher).finditer(canon)]
    return tuple(sorted(found))


def _first_subject(canon: str, matcher: TermMatcher) -> str | None:
    found = _concepts_at(canon, matcher)
    return found[0][1] if found else None


# 'leaving it on one root is a plain reduce': the thing the wrong claim really describes.
_IS_REALLY = re.compile(r"\b(?:is|are) (?:an? |the )?(?:plain |simple |ordinary |regular |normal )?([a-z0-9][a-z0-9\- ]{1,40}?)\s*$")


@lru_cache(maxsize=1024)
def _foil_head(correction: str, matcher: TermMatcher) -> str | None:
    """What the correction says the claim really describes ('... is a plain reduce' -> 'reduce')."""
    for part in re.split(r"[;.]", clean_for_matching(correction, matcher)):
        m = _IS_REALLY.search(part.strip())
        if m and len(m.group(1).split()) <= 3 and m.group(1).split()[0] not in STOPWORDS:
            return m.group(1)
    return None


@lru_cache(maxsize=1024)
def _correction_foil(correction: str, matcher: TermMatcher) -> re.Pattern | None:
    """A pattern for a clause that opens on what the correction says the claim describes
    ('... is a plain reduce' -> 'a reduce leaves the sum on the root GPU')."""
    head = _foil_head(correction, matcher)
    if head is None:
        return None
    return re.compile(rf"^(?:(?:and|but|so|while|whereas)\s+)?(?:with |in |for )?(?:an? |the )?(?:plain |simple |ordinary |regular |normal )?{re.escape(head)}\b(?![\-])")


@lru_cache(maxsize=1024)
def _equates_with_foil(m_subjects: frozenset[str], head: str, matcher: TermMatcher) -> re.Pattern | None:
    """A pattern for a clause that says the claim's subject is the foil and nothing more ('the
    all-reduce is basically a reduce', 'all-reduce is just a plain reduce')."""
    names = [c for c, k in matcher.keys.items() if k in m_subjects]
    if not names:
        return None
    subject = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"^(?:(?:and|but|so)\s+)?(?:the |an? )?(?:{subject}) (?:is|are) (?:(?:basically|just|really|simply|essentially|actually|only|"
                      rf"nothing (?:more )?than|no more than) )*(?:an? |the )?(?:plain |simple |ordinary |regular |normal )?{re.escape(head)}\s*$")


def siblings_of(keys: set[str], matcher: TermMatcher) -> set[str]:
    """Concepts whose terms share a head noun with one of ``keys`` (tensor / pipeline parallelism)."""
    return set(_siblings(frozenset(keys), matcher))


@lru_cache(maxsize=1024)
def _siblings(keys: frozenset[str], matcher: TermMatcher) -> frozenset[str]:
    # A wrong claim's subjects against the whole glossary: the same for every answer.
    return frozenset(k for k in matcher.keys.values() if any(_same_head(k, s, matcher) for s in keys))


def _may_continue(text: str, m_subjects: set[str], matcher: TermMatcher) -> bool:
    """Whether a clause may say something of the claim's subject without naming it: it opens on
    no other concept and names none of the subject's siblings ('across nodes I'd use pipeline
    parallelism' speaks of pipeline parallelism, not of tensor parallelism)."""
    found = _concepts_at(text, matcher)
    keys = {k for _, k in found}
    if keys & m_subjects:
        return True
    if found and _opens_on(text, found[0][0]):
        return False
    return not any(_same_head(k, s, matcher) for k in keys for s in m_subjects)


@lru_cache(maxsize=4096)
def _subject_keys(point: str, subjects: frozenset[str], matcher: TermMatcher) -> frozenset[str]:
    """The concepts a point names, if it is about one of ``subjects`` (its first concept), else none."""
    canon = clean_for_matching(point, matcher)
    return frozenset(matcher.keys_in(canon)) if _first_subject(canon, matcher) in subjects else frozenset()


# A likeness: 'like tensor parallelism', 'just like DDP', 'as in data parallelism', 'the same as X';
# what follows it in a claim, and what a clause opens on after it ('unlike X, it ...' too).
_LIKE = r"as in|as with|the same (?:thing )?as|similar to|equivalent to|identical to|(?:just |exactly |much )?"
_LIKENESS = re.compile(rf"\b(?:{_LIKE}like)\s+([^,;:.!?()]{{1,60}})")
_AFTER_LIKENESS = re.compile(rf"\b(?:{_LIKE}(?:like|unlike))\s+$")


@lru_cache(maxsize=1024)
def _likened(canon: str, matcher: TermMatcher) -> frozenset[str]:
    """The concepts a wrong claim likens its subject to ('... like tensor parallelism').

    >>> m = TermMatcher.build([("tensor parallelism", ["tp"], []), ("ZeRO", [], [])])
    >>> sorted(_likened("zero splits each layer's computation across gpus like tensor parallelism", m))
    ['tensorparallelism']
    """
    return frozenset(key for like in _LIKENESS.finditer(canon) for _, key in _concepts_at(like.group(1), matcher))


def _opens_on_a_peer(text: str, m_subjects: set[str], peers: set[str], matcher: TermMatcher) -> bool:
    """Whether a clause opens on a peer of the claim's subject and never names the subject."""
    found = _concepts_at(text, matcher)
    if not found or not m_subjects or {k for _, k in found} & m_subjects:
        return False
    # A setting said first is not the subject: 'between nodes pipeline parallelism is the choice'.
    # Nor is what the clause likens its subject to: 'like tensor parallelism, it splits ...'.
    first = next(((pos, key) for pos, key in found if key in peers), None)
    return first is not None and _opens_on(text, first[0]) and not _AFTER_LIKENESS.search(text, 0, first[0])


def _speaks_of(w: _Window, naming: set[tuple[int, int]], subjects: set[str], matcher: TermMatcher) -> bool:
    """Whether the window, or a clause before it in its sentence or the sentence before, names one
    of ``subjects``; ``naming``: (sentence, clause) of the clauses that do."""
    if _subjects(w.text, matcher) & subjects:
        return True
    return any(s == w.sentence - 1 or (s == w.sentence and c < w.clauses[0]) for s, c in naming)


def _about_another_subject(w: _Window, before: "_Window | None", m_subjects: set[str], others: set[str], matcher: TermMatcher) -> bool:
    """Whether the window (or, when it names no subject, the clause before it in the same
    sentence) speaks of what the correction names instead of the claim's subject."""
    if not others:
        return False
    said = _subjects(w.text, matcher) & (m_subjects | others)
    if not said and before is not None and before.sentence == w.sentence:
        said = _subjects(before.text, matcher) & (m_subjects | others)
    return bool(said & others) and not said & m_subjects


def _structure(w: _Window, m_bind: set, m_keys: set[str], m_words: set[str], alt_text: str | None, matcher: TermMatcher,
               m_own: set[str] = frozenset(), m_absolute: bool = False, counts: int = 0, near_keys: frozenset[str] = frozenset()) -> int:
    """+1 when the window's structure matches the wrong claim and not its correction, -1 the
    other way round, 0 when structure does not tell.

    Five structures: place roles ('TP across nodes' vs 'TP within a node'); how many of a thing
    ('on one GPU' vs 'on every GPU'); the claim's
    distinctive concept (a pipeline claim with 'all-reduce' where the correction says
    'point-to-point'); overclaiming ('every GPU is busy all the time' where the truth is 'more
    stages are busy'); and the wrong claim's own wording ('compresses the teacher's own
    weights') with none of the correction's. ``counts``: how the window counts, from _scope_side."""
    if m_absolute and not _ABSOLUTE.search(w.text) and _GRADED.search(w.text):
        return -1  # 'keeps more GPUs busy', 'costs almost no accuracy': a matter of degree, not 'always' or 'never'
    if alt_text is None:
        return 0
    if counts:
        return counts  # 'gathers the results onto one master GPU' where the truth is 'on every GPU' (_scope_side)
    alt_bind = role_bindings(alt_text, matcher)
    w_bind = role_bindings(w.text, matcher)
    claim_only, alt_only = w_bind & (m_bind - alt_bind), w_bind & (alt_bind - m_bind)
    if claim_only and not alt_only:
        return 1
    if alt_only and not claim_only:
        return -1
    alt_keys = matcher.keys_in(alt_text)
    # A term is distinctive when the other side does not name it, not even by its head word
    # ('pipeline stages' names pipeline parallelism).
    alt_heads = {_head_key(h, matcher) for h in re.findall(r"[a-z0-9]+", alt_text)} - {None}
    alt_words = set(content_words(alt_text))
    # ... nor by its words ('fusion keeps ... kernel launches' names kernel fusion).
    named = {k for k in m_keys if _term_words(k, matcher) and _term_words(k, matcher) <= alt_words}
    distinct_m, distinct_alt = m_keys - alt_keys - alt_heads - named - near_keys, alt_keys - m_keys
    # About the same subject: a concept or content word the claim and its correction share.
    shared = (m_keys & alt_keys) | (m_words & set(content_words(alt_text)))
    if distinct_m and distinct_alt and (w.keys | w.words) & shared:
        if w.keys & distinct_m and not w.keys & distinct_alt:
            return 1
        if w.keys & distinct_alt and not w.keys & distinct_m:
            return -1
    if m_absolute and _ABSOLUTE.search(w.text) and not _ABSOLUTE.search(alt_text):
        return 1
    own = w.words & (m_own - alt_words) - _RELATION_WORDS
    if len(own) >= 2 and not w.words & (alt_words - m_own - m_words):
        return 1
    return 0


_RELATION_WORDS = frozenset({"within", "inside", "intra", "across", "between", "inter", "among", "span", "spanning"})

# Overclaiming words: a wrong claim often makes a hedged truth absolute.
# 'all the experts', 'all of the GPUs' against 'its top two experts', 'only a few of them'.
_ALL = re.compile(r"\ball (?:the |of the )?(?!the\b|of\b)[a-z]")
# ... said of things named before: 'each token goes through every one of them', 'all of them'
_EVERY_ONE = re.compile(r"\b(?:(?:every|each) (?:single )?one|all|each and every one) of (?:them|these|those|the \w+)\b|\ball (?:the )?\w+s\b")
# A claim about each of several things against a statement about them all together.
_EACH = re.compile(r"\b(?:per|each|every)\b")
# ('the total traffic over all GPUs', 'the aggregate bandwidth across the nodes'; not 'overall, ...',
# 'the combined gradients', 'the total traffic a GPU sends')
_TOTAL = re.compile(r"\b(?:total|aggregate|combined|cumulative|summed)\s+(?:[\w-]+\s+){0,2}?(?:over|across|of)\s+(?:all|the|every|n)\b")
_ONE_OF_THEM = re.compile(r"\b(?:a|one|a single|any one|each single)\s+(?:gpu|device|rank|node|card|worker|replica)\b")
_LIMITED = re.compile(r"\b(?:top[- ]?(?:k|\d+|one|two|three)|one or two|two or three|a few|only (?:one|two|\d+|k|some|a subset)|"
                      r"\d+ (?:out )?of (?:the |its )?\d+|a subset|a handful)\b")
# A claim that something suffices ('the async call is enough, whatever memory'; 'its accuracy can be
# assumed to be unchanged') against a clause that states a requirement ('you need pinned memory',
# 'you still have to check the accuracy').
_ENOUGH = re.compile(r"\b(?:is|are|was) (?:enough|sufficient)|\benough (?:to|for)\b|\bwhatever\b|\bregardless\b|\bby itself\b|\bon its own\b|"
                     r"\b(?:can|may) (?:safely )?be (?:safely )?assumed\b")  # '... can be assumed unchanged': no check needed
_REQUIRES = re.compile(r"(?<!\bonly )(?<!\bjust )(?<!\ball you )(?<!\bno )(?<!n't )(?<!\bnot )(?<!\bnever )\b(?:needs?|needed|must|requires?|required|has to|have to)\b|"
                       r"\bonly (?:works|helps|if|when)\b")  # 'you just need X' says X suffices
_NOT_BUT = re.compile(r"\b(?:only|just|but|except|merely)\b")
_TOWARD = ("toward", "towards", "close to", "approaches", "approach", "tends to")  # 'shrinks toward zero'
# ("the more streams, the faster": a trend stated outright, no hedge)
_GRADED = re.compile(r"\b(?:(?<!\bthe )(?:more|fewer|less)|most|almost|nearly|virtually|practically|mostly|largely|rarely|seldom|usually|often|typically|"
                     r"little|some|slightly|a bit|a few|partly|partially|much of|(?<=not )always|(?<=n't )always|sometimes|"
                     r"(?:" + "|".join(_TOWARD) + r") zero)\b")
# 'Almost nothing', 'nearly always', 'shrinks toward zero' are matters of degree; 'free to run' is not 'for free'; ZeRO
# (canonically 'zero') is no absolute where a verb follows it: 'zero shards the parameters'.
_ABSOLUTE = re.compile(
    r"(?<!almost )(?<!nearly )(?<!virtually )(?<!practically )(?<!not )(?<!n't )"
    r"\b(?:always|never|guaranteed|all the time|at all|" + "".join(rf"(?<!{w} )" for w in (*_TOWARD, "near", "nearly")) +
    # ('to zero' sets a value, 'prunes half the weights to zero', unless a change goes there: 'the bubble drops to zero')
    r"(?<!\bto )zero\b(?!\s*(?:stage|redundancy|optimi|offload|-?\d|\+|(?:is|was|can|does|also)\b|" + _THIRD_PERSON + r"\b))|for free|is free(?! to\b)|"
    r"(?:drops?|dropped|falls?|fell|goes|went|go|shrinks?|shrank|reduces?|reduced|cuts?|brings?|brought|down|all the way)\s+(?:\w+\s+){0,3}?to zero\b|"
    r"without any|no (?:extra|additional)|nothing|entirely|completely|100 ?%|"
    # to nothing: 'eliminates the bubble', 'gets rid of the idle time', 'no GPU is ever idle'
    r"(?:eliminat\w*|gets? rid of|getting rid of)(?! (?:most|some|much|part|many|a lot|half) of)|"
    r"no (?:\w+ ){1,2}(?:is|are|was|were|sits?|stays?) ever|(?:anymore|any more)(?=\s*(?:$|[,.;:!?])))"
)
