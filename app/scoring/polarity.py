"""Stance: does a clause say the same thing as a reference, or its opposite?

A negation word alone does not tell: "terminal 4 and the battery have no gap between them"
agrees with "they are connected", and "unstructured pruning does not speed up dense kernels"
agrees with a checkpoint that says exactly that. Stance compares the two texts on pairs of
opposite words (connected / separated, same / different, more / fewer ...), each side's sign
flipped by its own negation; when no pair speaks, it compares their negations.

General language, not domain terms: the domain's own words live in the glossary (content/).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import OSA

from app.scoring.spelling import english_words
from app.scoring.text import IDLE_IDIOM, content_words, root

# (one side, the other side): word stems that state opposite things about the same subject.
# Words that are also names ('positive terminal', 'tensor parallel') are left out on purpose, and
# so are more / less: 'reduces launches' and 'more throughput' are about different things, and a
# clause often says both (the misconception check reads the direction of a change on its own).
OPPOSITES: tuple[tuple[str, str], ...] = (
    (r"connect(?:ed|s|ing|ion)?|linked|attached|joined", r"disconnect\w*|separat\w*|unconnected|isolated|detached|broken|gaps?|interrupt\w*"),
    (r"open(?:ed|s)?", r"closed?|shut"),
    (r"same|identical|equal|unchanged", r"different|differs?|unequal|changes?|changed"),
    (r"faster|quicker|fastest|quickest|speeds? (?:it |things |everything )?up", r"slower|slowest|slows? (?:it |things |everything )?down"),
    (r"always|every time", r"sometimes|occasionally"),
    (r"correct|right|true|accurate", r"incorrect|wrong|false|inaccurate"),
    (r"exact|lossless", r"approximat\w*|lossy"),
    (r"dense", r"sparse"),
    (r"structured", r"unstructured"),
    (r"static", r"dynamic"),
    (r"synchronous|synchronously", r"asynchronous|asynchronously"),
    (r"idle|waiting", r"busy"),
    (r"cheap|cheaper|inexpensive", r"expensive|costly|costlier"),
    (r"good|better|best", r"bad|worse|worst"),
    (r"possible|able", r"impossible|unable"),
    (r"present|exists?", r"absent|missing"),
    (r"full|complete", r"empty|incomplete|partial"),
    # Things done one after another, or all together: 'checks the draft tokens one at a time, with a
    # separate forward pass for each' against 'checks all of them in one forward pass'.
    # ('in parallel', 'at the same time' say no more than that things may overlap: 'streams have no
    # ordering and may run at the same time' takes no side against 'one after the other')
    (r"one at a time|one by one|one after (?:the )?other|sequentially|serially|(?:a )?separate (?:forward |backward )?pass(?:es)?",
     r"(?:all )?at once|in (?:one|a single) (?:forward |backward |batched )?(?:pass|go|batch)"),
)
# A path or circuit with a gap in it, or a broken or incomplete one, is an open one; a complete
# one is closed. Read only where both texts speak of a path, a circuit or a switch: 'the complete
# timeline' has nothing to do with 'idle gaps', nor 'the critical path' with a circuit.
_PATH_PAIR = (r"open(?:ed|s)?|gaps?|broken|breaks|incomplete", r"closed|closes|complete|completes|completed")
OPPOSITES += (_PATH_PAIR,)
# The pairs read only in a text about some thing's state: pair index -> what the text must speak of.
_ONLY_ABOUT = {OPPOSITES.index(_PATH_PAIR): re.compile(
    r"\b(?<!critical )(?:path|paths|pathway|pathways|circuit|circuits)\b|\b(?:the|a|each|every|this|that|its) switch\b|"
    r"\bswitch(?:es)? (?:[a-z]|[0-9]+)\b(?! ?[a-z0-9])")}
_SIDES = [(re.compile(rf"\b(?:{a})\b"), re.compile(rf"\b(?:{b})\b")) for a, b in OPPOSITES]
# Where a side of any pair may start, overlapping starts included (zero width): each side is
# tried only there, and most clauses, which have none, are done with after this one scan.
_SIDE_STARTS = re.compile(r"(?=\b(?:" + "|".join(f"{a}|{b}" for a, b in OPPOSITES) + r")\b)")


def _matches_at(rx: re.Pattern, text: str, starts: list[int]) -> list[re.Match]:
    """``rx.finditer(text)`` where its matches can only begin at ``starts``: one anchored try at
    each start, not a scan of the whole text per pattern (36 of them)."""
    out, end = [], 0
    for start in starts:
        if start >= end and (m := rx.match(text, start)):
            out.append(m)
            end = m.end()
    return out


# A word that turns a statement around. 'no' and 'not' and friends; 'without' too.
# Words after which 'that' is no relative pronoun: 'I know that doesn't work', 'if that doesn't help'.
_NOT_RELATIVE = ("know knew think thought say says said mean means meant believe guess show shows showed claim claims note notice "
                 "find found see saw argue assume hope out sure true fact so and but or because if when whether unless since though "
                 "although once is was are were").split()
# 'Free' as the adjective of a cost, not the verb ('free the buffers', 'frees up memory') nor 'free to choose'.
_FREE_AFTER = r"free\b(?!\s+(?:up|to|from|memory|them|it|the|its|their|space|buffers?|gpus?|ranks?)\b)"
# 'Free' said of a cost, a denial of the cost: 'it comes for free', 'basically free', 'free in compute'
# (not 'free slots', 'the buffer is free': what is free there is available).
COSTLESS = (rf"(?:(?:comes?|came|coming|get|gets|got) )?for\s+free\b(?!\s+(?:slots?|pages?|blocks?|space|memory)\b)|"
            r"(?:basically|essentially|almost|practically|totally|completely|entirely|virtually|effectively|pretty much)\s+free\b|"
            # the idioms: 'it's basically a free lunch', 'a free win'
            r"(?<!\bno )(?<!\bthe )(?:an? )?free (?:lunch|win|ride|upgrade|speedup)\b|"
            r"free\s+(?:in|of)\s+(?:terms of\s+)?(?:compute|communication|memory|time|speed|latency|cost|charge|overhead|accuracy)\b")
# Phrases with a negation word that negate nothing: 'no matter how large N is', 'not only X'.
NOT_NEGATIONS = re.compile(
    # a cost denied is a cost: 'stage 3 is not free in communication', 'it isn't free'
    rf"(?:\bnot|n't|\bnever)\s+(?:(?:really|entirely|completely|totally|exactly|quite|actually|always|so|that|come|comes|for)\s+){{0,3}}{_FREE_AFTER}|"
    r"\bno free (?:lunch|ride|win)\b|"  # 'there is no free lunch': a cost
    r"\b(?:no matter|(?:does|do|did)(?:n'?t| not) matter (?=how|what|which|whether|if)|not only|not just|no doubt|whether or not|if not more|not least|nothing but|no longer than|with or without|"
    # the other side of a comparison: 'uses less memory than one without'
    r"(?:than|compared (?:with|to)|versus|vs) (?:a |an |the |one |those |ones |it |them |models? |runs? )?without)\b|"
    # an idiom of idleness: 'the upper stages have nothing to do' (read as 'idle', text.plain_idioms)
    rf"{IDLE_IDIOM}|"
    # a denial inside a relative clause of the subject, before the main verb: 'the activations that
    # weren't kept are recomputed' says they are recomputed; not 'bf16, which doesn't need scaling',
    # nor 'the kind that doesn't send activations', 'a path that isn't closed' (the clause is the claim)
    r"(?<=[a-z0-9] )" + "".join(rf"(?<!\b{v} )" for v in _NOT_RELATIVE) +
    r"\b(?:that|which|who) (?:(?:is|are|was|were|do|does|did|has|have|had|could|would|should) ?(?:n'?t|not)|can'?t|can not|cannot|won'?t|will not|never|not) "
    r"(?:[\w-]+ ){1,4}?(?=(?:is|are|was|were|gets?|got|can|will|must|should|stays?|remains?|needs?|has|have|goes|becomes?|takes?|sits?)\b)"
)
# Two denials that cancel: 'none of this should ship without an accuracy check' requires the check.
# Not across a second clause: 'gradients are never averaged and each replica works without it'.
_DOUBLE_DENIAL = re.compile(r"\b(no|none|never|nothing|not|cannot|\w+n't)\b((?:(?!\b(?:and|but|or|so|while|whereas)\b)[^,;.]){0,60}?)\b(without)\b")

# A word that every phrase of the two above contains ('no', 'not', 'nothing', 'never', 'without',
# 'cannot', "isn't", 'dont', 'isnot' ...): a text without one is left as it is, unsearched (the relative
# clause's look-behinds make NOT_NEGATIONS slow on every text).
_MAY_BLANK = re.compile(r"\bno|\bnever\b|\bwithout\b|cannot|(?:is|are|was|were|do|does|did|has|have|had|could|would|should|ca|wo) ?(?:n'?t|not)\b")


def blank_non_negations(text: str) -> str:
    """``text`` (lower case) with the negation words that deny nothing blanked, at the same length:
    'no matter how', 'not only', a denial inside the subject's relative clause, two that cancel.

    >>> blank_non_negations("none of this should ship without a check").split()
    ['of', 'this', 'should', 'ship', 'a', 'check']
    """
    if not _MAY_BLANK.search(text):
        return text
    text = NOT_NEGATIONS.sub(lambda m: " " * len(m.group()), text)
    return _DOUBLE_DENIAL.sub(lambda m: " " * len(m.group(1)) + m.group(2) + " " * len(m.group(3)), text)


# Words that deny nearly as 'not' does: 'rarely speeds up', 'barely changes the FLOPs'.
NEAR_NEGATORS = r"hardly|rarely|seldom|barely|scarcely|ignores|ignored|ignoring"
# The words of negation (reading.py adds its verdict words, 'myth', 'a bad idea', to them).
NEGATION_WORDS = (rf"not|no|never|none|nothing|neither|nor|cannot|without|{NEAR_NEGATORS}|{COSTLESS}|doesn'?t|don'?t|isn'?t|aren'?t|wasn'?t|"
                  r"weren'?t|won'?t|can'?t|shouldn'?t|wouldn'?t|didn'?t|hasn'?t|haven'?t")
NEGATORS = re.compile(rf"\b(?:{NEGATION_WORDS})\b")

AGREE, OPPOSE, UNKNOWN = 1, -1, 0

# The written forms of the opposite words, for reading misspellings of them ('seperated').
_LEXICON = tuple(
    """connected connection disconnected separated separate unconnected isolated detached interrupted different identical
    unchanged changed synchronous asynchronous complete incomplete possible impossible absent missing correct
    incorrect accurate inaccurate approximate expensive""".split()
)


# Plain words that say the same thing, for matching an answer's words with a rubric's: the
# single-word members of each side of OPPOSITES, plus a few everyday pairs.
SYNONYM_GROUPS: tuple[frozenset[str], ...] = (
    frozenset({"connected", "linked", "attached", "joined"}),
    frozenset({"disconnected", "separated", "unconnected", "isolated", "detached", "broken", "gap"}),
    frozenset({"same", "identical", "equal", "unchanged"}),
    frozenset({"faster", "quicker"}),
    frozenset({"slower"}),
    frozenset({"idle", "waiting", "wait", "waits", "stall", "stalls", "stalled"}),
    frozenset({"busy", "occupied"}),
    frozenset({"cheap", "cheaper", "inexpensive"}),
    frozenset({"expensive", "costly", "costlier"}),
    frozenset({"exact", "lossless"}),
    frozenset({"approximate", "lossy"}),
    frozenset({"full", "complete"}),
    frozenset({"big", "large", "huge"}),
    frozenset({"small", "tiny"}),
)


@lru_cache(maxsize=65536)
def spelled(text: str) -> str:
    """``text`` with one-slip misspellings of the opposite words (6+ letters) spelled right;
    real English words are left alone ('collected' is not 'connected').

    >>> spelled("the terminal is not seperated from terminal 6, they collected it")
    'the terminal is not separated from terminal 6, they collected it'
    """
    known = english_words()
    if not len(known):
        return text  # no word list: nothing tells a slip from a real word
    words = {w for w in re.findall(r"[a-z]{6,}", text) if w not in known} - set(_LEXICON)
    if not words:
        return text
    fixes = {}
    for w in words:
        # One slip (a letter wrong, missing, extra or two swapped): 'collected' is not 'connected'.
        hit = process.extractOne(w, _LEXICON, scorer=OSA.distance, score_cutoff=1)
        if hit is not None:
            fixes[w] = hit[0]
    if not fixes:
        return text
    return re.sub(r"[a-z]{6,}", lambda m: fixes.get(m.group(), m.group()), text)


# A negation right before a word (at most three words between): 'never idle', 'zero idle time',
# 'not fully separated'; and a verb of doing away with it: 'gets rid of the idle time', 'removes the gap'.
_NEGATOR = (rf"(?:\b(?:not|no|never|zero|without|cannot|nothing|none|nobody|{NEAR_NEGATORS}|eliminat(?:e|es|ed|ing|ion)|"
            rf"remov(?:e|es|ed|ing|al)|avoid(?:s|ed|ing)?|(?:get|gets|getting|got) rid of|"
            # 'prevents the path from being closed', 'keeps the bulb from lighting' (not 'keeps the
            # accuracy from the full model': from a source)
            rf"(?:prevent(?:s|ed|ing)?|keeps?|kept|keeping|stops?|stopped|stopping)(?:\s+[\w-]+){{0,3}}?\s+from(?=\s+\w+ing\b))|n't)\b")
_LOCAL_NEGATION = re.compile(rf"{_NEGATOR}(?:\s+[\w-]+){{0,3}}\s+$")
_NEGATOR_TOKEN = re.compile(_NEGATOR)
# A doing away that a denial just before it turns back: 'does not get rid of'.
_DOING_AWAY = re.compile(r"eliminat|remov|avoid|(?:get|gets|getting|got) rid of")
_DENIED_JUST_BEFORE = re.compile(r"(?:\b(?:not|never|no)|n't)\s+(?:\w+\s+)?$")


@lru_cache(maxsize=65536)
def signs(text: str, is_negated: bool | None = None) -> tuple[tuple[int, int], ...]:
    """(pair index, +1 or -1) for each opposite pair the text takes one side of, turned round
    when the text is negated (by default: when it has a negation word).

    >>> signs("terminal 4 and the battery are not separated")
    ((0, 1),)
    >>> signs("the switch is open and the path is closed")  # both sides: says nothing either way
    ()
    """
    text = spelled(text.lower())
    # (Found before blanking, which keeps offsets and only ever takes whole words away.)
    starts = [m.start() for m in _SIDE_STARTS.finditer(text)]
    if not starts:
        return ()
    # 'no doubt', 'not only' negate nothing, near a word or not (same length: offsets stay).
    text = blank_non_negations(text)
    if is_negated is None:
        is_negated = negated(text)
    flip = -1 if is_negated else 1
    # 'X is in a closed path and not affected by Y': the denial turns round only what follows it.
    second = _SECOND_PREDICATE_DENIED.search(text) if is_negated else None
    denial_from = second.end() if second else 0
    out = []
    for i, (a, b) in enumerate(_SIDES):
        if i in _ONLY_ABOUT and not _ONLY_ABOUT[i].search(text):
            continue
        # Each mention's side, turned round by a negation just before it ('zero idle time' is on
        # the side of 'busy'); mentions that all agree give the text's side of the pair.
        mentions, local = [], False
        for rx, side in ((a, 1), (b, -1)):
            for m in _matches_at(rx, text, starts):
                near = _LOCAL_NEGATION.search(text, max(0, m.start() - 30), m.start())
                local |= bool(near)
                # 'does not get rid of the idle time', 'never removes the gap': two turn it back
                flips = 0
                if near:
                    flips = len(_NEGATOR_TOKEN.findall(text, near.start(), m.start()))
                    flips += bool(_DOING_AWAY.match(text, near.start()) and _DENIED_JUST_BEFORE.search(text, max(0, near.start() - 20), near.start()))
                mentions.append((-side if flips % 2 else side, m.start() >= denial_from))
        # A negation already read next to a word is not read again for the whole text.
        sides = {side * (flip if after and not local else 1) for side, after in mentions}
        if len(sides) == 1:
            out.append((i, sides.pop()))
    return tuple(out)


# Two alternatives, one or the other: to say one is to deny the other.
ALTERNATIVES = [(re.compile(r"\bpositive\b"), re.compile(r"\bnegative\b")),
                (re.compile(r"\b(?:within|inside|intra)\b"), re.compile(r"\b(?:across|between|inter)\b"))]


def _other_alternative(clause: str, reference: str, alternatives=ALTERNATIVES) -> bool:
    """Whether the clause names one of two alternatives and the reference only the other."""
    c, r = clause.lower(), reference.lower()
    return any((a.search(c) and not b.search(c) and b.search(r) and not a.search(r)) or
               (b.search(c) and not a.search(c) and a.search(r) and not b.search(r)) for a, b in alternatives)


# 'X only runs faster if Y' limits the claim as 'X does not run faster unless Y' does.
RESTRICTIVE = re.compile(r"\bonly (?:\w+ ){0,4}?(?:if|when|unless)\b|\bunless\b")


@lru_cache(maxsize=65536)
def negated(text: str) -> bool:
    text = blank_non_negations(text.lower())
    return bool(NEGATORS.search(text) or RESTRICTIVE.search(text))


def stance(clause: str, reference: str, *, clause_negated: bool | None = None) -> int:
    """AGREE, OPPOSE or UNKNOWN: how ``clause`` stands to ``reference`` on opposite words.

    >>> stance("there is no gap, they are not separated", "the terminals are connected")
    1
    >>> stance("terminal 1 was connected to the positive terminal", "terminal 1 and the positive terminal are separated")
    -1
    >>> stance("pruning makes it faster", "quantization helps")
    0
    """
    ref = dict(signs(reference))
    votes = [s * ref[i] for i, s in signs(clause, clause_negated) if i in ref]
    if votes and all(v > 0 for v in votes):
        return AGREE
    if votes and all(v < 0 for v in votes):
        return OPPOSE
    return UNKNOWN


# Words that say something is avoided or made smaller. 'all-reduce', 'reduce-scatter' and 'an
# element-wise reduction' name operations.
LESSENS = re.compile(
    r"(?<![-\w])(?<!all )(?:avoid(?:s|ed|ing)?|reduc(?:e|es|ed|ing)(?![-\w])(?! scatter)|(?<!-wise )(?<!elementwise )(?<!element wise )reduction(?![-\w])|fewer|less|lower(?:s|ed|ing)?|"
    r"sav(?:e|es|ed|ing)|eliminat\w*|skip(?:s|ped|ping)?|shrinks?|decreas\w*|minimi[sz]\w*|gets? rid of|getting rid of|remov(?:e|es|ed|ing))\b"
)


def _lessens(text: str) -> bool:
    return bool(LESSENS.search(text.lower()))


# What a denial of a lessening can also say: that nothing is made smaller ('doesn't compress the
# teacher's weights') or that nothing changes at all ('barely changes the FLOPs' denies 'reduces
# the FLOPs'). Only under a negation: a reference that compresses or changes something is no
# lessening of its own ('distillation compresses the teacher' is denied by 'does not touch it').
_CHANGES = re.compile(r"\b(?:compress(?:es|ed|ing)?|chang(?:e|es|ed|ing)|alter(?:s|ed|ing)?)\b")


@lru_cache(maxsize=4096)
def _lessening_denied(text: str) -> bool:
    """Whether a word of avoiding or lessening, or of any change, falls under one of the text's
    negations ('does not reduce the traffic', 'barely changes the FLOPs'), not beside it ('not
    writing intermediates and launching fewer kernels': both say that something is avoided).

    >>> _lessening_denied("fusion doesn't reduce memory traffic"), _lessening_denied("not writing intermediates and launching fewer kernels")
    (True, False)
    >>> _lessening_denied("distillation doesn't compress the teacher's weights"), _lessening_denied("fusion barely changes the flops")
    (True, True)
    >>> _lessening_denied("batching lowers the latency without changing the hardware")
    False
    """
    low, spans = _denials(text)
    lessens = _Found(LESSENS, low) if spans else None
    if any(lessens.within(after, stop) for _, after, stop in spans):
        return True
    # A denied change counts where it is a verb's own denial ('doesn't change', 'barely alters'),
    # not a side remark ('eliminates the bubble without changing the memory'), and where the clause
    # makes no lessening or change of its own outside its denials ('compresses the teacher ...
    # without changing its architecture' still compresses).
    changes = _Found(_CHANGES, low) if spans else None
    if not any(low[a:after].strip() != "without" and changes.within(after, stop) for a, after, stop in spans):
        return False
    denied = lambda pos: any(after <= pos < stop for _, after, stop in spans)  # noqa: E731
    return all(denied(m.start()) for rx in (LESSENS, _CHANGES) for m in rx.finditer(low))


# A counterfactual: 'without fusion each op writes its output to memory' says what fusion spares.
# Its 'without' denies nothing: a clause that speaks of something else ('fusion also cuts
# launches') does not oppose it; one that says the same happens with fusion does ('fused kernels
# still write every intermediate to memory').
_COUNTERFACTUAL = re.compile(r"^(?:(?:and|but|so|because|since)\s+)?without\s+(?:(?:the|a|an|any|its|their|this|that|such)\s+)?"
                             r"([\w-]+(?:\s+(?!every\b|each\b|only\b|all\b|the\b|a\b|an\b|you\b|we\b|it\b|they\b|there\b|one\b)[\w-]+)?)")


def _stance_of_either(clause: str, reference: str, clause_negated: bool) -> int:
    """``stance``, but the opposite word said of the other of two terminals agrees: 'separated
    from the negative terminal' says 'connected to the positive one' ('a gap between the bulb and
    the battery' is no other place than 'within a path': only the terminals count)."""
    s = stance(clause, reference, clause_negated=clause_negated)
    return AGREE if s == OPPOSE and _other_alternative(clause, reference, ALTERNATIVES[:1]) else s


def _against_counterfactual(clause: str, reference: str, absent: str, clause_negated: bool) -> bool:
    """Whether the clause says that what happens without ``absent`` happens with it as well."""
    s = _stance_of_either(clause, reference, clause_negated)
    if s != UNKNOWN:
        return s == OPPOSE
    missing, words = set(content_words(absent)), set(content_words(clause))
    return not clause_negated and bool(missing & words) and len((set(content_words(reference)) - missing) & words) >= 2


@lru_cache(maxsize=4096)
def plain_statement(reference: str) -> bool:
    """Whether a reference statement denies nothing and is no counterfactual ('without X, ...'):
    then only a clause that takes a side of an opposite pair, or that waits for all of something,
    can contradict it (see ``contradicts``)."""
    return not negated(reference) and not _COUNTERFACTUAL.match(reference)


@lru_cache(maxsize=65536)
def takes_no_side(clause: str) -> bool:
    """Whether an affirmed clause takes no side of any opposite pair and waits for nothing: it
    contradicts no ``plain_statement`` (so the grader need not weigh it against each one)."""
    return not signs(clause, False) and not _WAIT_FOR_ALL.search(clause.lower())


@lru_cache(maxsize=65536)
def contradicts(clause: str, reference: str, *, clause_negated: bool, scoped: bool = True) -> bool:
    """Whether the clause says the opposite of the reference: by opposite words when they speak,
    else when exactly one of the two is negated. With ``scoped``, a clause that denies only its
    second predicate opposes only a statement about what it denies; without, any difference in
    polarity counts (for a wrong claim: a clause that says less than the claim does not make it).

    >>> contradicts("unstructured pruning does not speed up dense kernels", "unstructured sparsity does not make dense kernels faster", clause_negated=True)
    False
    >>> contradicts("tensor cores are not used", "tensor cores run the matmuls", clause_negated=True)
    True
    >>> contradicts("the output is not written back to memory", "fusion avoids memory round trips", clause_negated=True)
    False
    >>> contradicts("bulb a is in a closed path and not affected by switch y", "bulb a is still in a closed path", clause_negated=True)
    False
    >>> contradicts("terminals 4, 5 and 6 are connected to the positive terminal", "terminals 4, 5 and 6 are not connected to the negative terminal", clause_negated=False)
    False
    >>> contradicts("the kv cache stores keys and values", "without the cache every step would reprocess the whole prefix", clause_negated=False)
    False
    >>> contradicts("it avoids writing the whole attention matrix out to hbm", "so the n x n matrix is never written to hbm", clause_negated=False)
    False
    >>> contradicts("fusion reduces the flops", "fusion does not reduce the flops", clause_negated=False)
    True
    """
    cf = _COUNTERFACTUAL.match(reference)
    if cf:
        return _against_counterfactual(clause, reference, cf.group(1), clause_negated)
    ref_negated = negated(reference)
    if clause_negated != ref_negated and _other_alternative(clause, reference):
        return False  # 'connected to the positive terminal' says 'not connected to the negative one'
    s = _stance_of_either(clause, reference, clause_negated)
    if s != UNKNOWN:
        return s == OPPOSE
    if not ref_negated and _PROMPT.search(reference.lower()):
        if clause_negated and _WAIT_DENIED.search(clause.lower()):
            return False  # 'doesn't wait for the whole backward pass before sending' says 'as soon as ... ready'
        if not clause_negated and _WAIT_FOR_ALL.search(clause.lower()):
            return True  # 'waits for the whole backward pass to finish before sending' says the opposite
    # 'you don't go back out to memory' agrees with 'avoids / reduces memory traffic': a word of
    # avoiding or lessening counts as one more negation on its side.
    if clause_negated and not ref_negated and _DENIES_EFFECT.search(clause.lower()):
        return True  # 'overlapping doesn't help here', 'tuning it makes no difference': the remedy is denied
    if clause_negated and not ref_negated and _lessens(reference) and not _lessening_denied(clause) and not _denies_its_verb(clause, reference):
        return False
    # ... and the other way round: 'it avoids writing the matrix out to HBM' agrees with 'the matrix
    # is never written to HBM' (not where the reference denies a lessening: 'does not reduce the FLOPs').
    if ref_negated and not clause_negated and _lessens(clause) and not _lessens(reference):
        return False
    if clause_negated == ref_negated or not scoped:
        return clause_negated != ref_negated
    # Denying a harm claims a good: 'it isn't a quality trade-off', 'no accuracy loss' do not deny
    # a statement that speaks of no harm ('the output is exactly the target model's').
    if clause_negated and not ref_negated and _denies_a_harm(clause) and not HARMS.search(reference.lower()):
        return False
    # A denial on a second predicate speaks against a statement only about what it denies:
    # 'bulb A is in a closed path and not affected by switch Y' does not deny that bulb A is in a
    # closed path. (A statement that denies something, answered by a clause that does not, stays
    # opposed: measured on SemEval's Beetle split, the answer that leaves out the denial is more
    # often wrong than right.)
    if clause_negated and _SECOND_PREDICATE_DENIED.search(clause.lower()):
        denied = denied_words(clause)
        return bool(denied) and bool(denied & set(content_words(reference)))
    return True


# Where what a negation denies ends: punctuation or a word that opens another statement.
_SCOPE_END = re.compile(r"[,;:.!?()]|\b(?:but|so|because|since|while|whereas|although|though|which|and|then|if|when)\b")
# A negation on a second, coordinated predicate: '... and not affected by Y', '..., but doesn't Z'.
_SECOND_PREDICATE_DENIED = re.compile(
    r"\b\w+\W+(?:\w+\W+)?(?:and|but)\s+(?:(?:it|they|is|are|was|were|does|do|did|has|have|can|will|would|also)\s+){0,2}"
    r"(?:not|never|no|\w+n'?t)\b"
)


class _Found:
    """A pattern's matches in one text, found once (a search from every negation to the end of
    the text is quadratic on hostile input), and asked which lies within a stretch of it."""

    def __init__(self, pattern: re.Pattern, text: str):
        self.matches = list(pattern.finditer(text))
        self.starts = [m.start() for m in self.matches]

    def within(self, start: int, stop: int) -> re.Match | None:
        """The first match inside text[start:stop], as ``pattern.search(text, start, stop)`` finds it."""
        i = bisect_left(self.starts, start)
        return self.matches[i] if i < len(self.matches) and self.matches[i].end() <= stop else None


@lru_cache(maxsize=32)
def _denials(text: str) -> tuple[str, tuple[tuple[int, int, int], ...]]:
    """The lowered text (phrases that negate nothing blanked out) and, for each negation in it,
    where it starts, where it ends and where what it denies ends. (Memoised: a clause is weighed
    against each statement of a point.)"""
    low = blank_non_negations(text.lower())
    spans = []
    ends = None
    for m in NEGATORS.finditer(low):
        if ends is None:  # found once, not searched for again after every negation (quadratic on hostile text)
            ends = [e.start() for e in _SCOPE_END.finditer(low)] + [len(low)]
        # the first end at or after the negation's end (a match may start inside the negation word)
        spans.append((m.start(), m.end(), ends[bisect_left(ends, m.end())]))
    return low, tuple(spans)


_DENIAL_REACH = 240  # characters: six content words and the function words between them


@lru_cache(maxsize=65536)
def denied_words(text: str) -> frozenset[str]:
    """The content words a text denies (from each negation to where its statement ends), less
    those it also says outside a denial.

    >>> sorted(denied_words("the battery is contained in a path in which there is no bulb"))
    ['bulb']
    >>> sorted(denied_words("bulb a is in a closed path and not affected by switch y"))
    ['affect', 'switch']
    """
    low, spans = _denials(text)
    inside = set()
    for a, after, stop in spans:
        # only its first six content words count: read no further than they can reach (a long
        # unpunctuated run of denials would otherwise be read once per denial)
        inside.update(content_words(low[after : min(stop, after + _DENIAL_REACH)])[:6])
    if not spans:
        return frozenset()
    outside, pos = [], 0
    for a, _, b in spans:
        outside.append(low[pos:a])
        pos = max(pos, b)
    outside.append(low[pos:])
    return frozenset(inside - set(content_words(" ".join(outside))))


# Words of harm or loss: what a speaker denies to say that nothing bad happens.
HARMS = re.compile(r"\b(?:loss|losses|lose|loses|losing|lost|hurt|hurts|harm|harms|degrad\w*|trade-?offs?|penalty|penalt\w+|"
                   r"damag\w*|sacrific\w*|compromis\w*|drop|drops|overhead|downside|worse|regress\w*)\b")


@lru_cache(maxsize=4096)
def _denies_a_harm(clause: str) -> bool:
    """Whether the clause's negation falls on a word of harm ('isn't a quality trade-off').

    >>> _denies_a_harm("it isn't a quality trade-off"), _denies_a_harm("it does not split the layers")
    (True, False)
    """
    low, spans = _denials(clause)
    if not spans:
        return False
    harms, lessens = _Found(HARMS, low), _Found(LESSENS, low)
    for _, after, stop in spans:
        harm = harms.within(after, stop)
        if harm and not lessens.within(after, harm.start()):  # 'does not reduce the overhead' denies a remedy
            return True
    return False


_NEGATED_VERB = re.compile(rf"(?:\b(?:not|never|{NEAR_NEGATORS})|n't)\s+(?:(?:do|does|did|really|actually|simply|just|always|even|be|is|are|ever)\s+)*([a-z]{{3,}})")


# Not waiting is starting early: it agrees with a statement of overlap or promptness.
_WAIT_DENIED = re.compile(r"(?:\b(?:not|never)|n't)\s+(?:\w+\s+){0,2}?wait(?:s|ing)?\b|\bwithout (?:any )?waiting\b")
_WAIT_FOR_ALL = re.compile(r"\bwait(?:s|ed|ing)? (?:for|until) (?:the |all (?:the |of the )?)?(?:whole|entire|full|complete|all|every|last)\b")
_PROMPT = re.compile(r"\bas soon as\b|\boverlap|\bconcurrent|\bat the same time\b|\bin parallel\b|\bimmediately\b|\bwhile\b")

# A denial that something works: the clause says a remedy or a method does nothing.
_DENIES_EFFECT = re.compile(
    r"(?:(?:\b(?:not|never)|n't)\s+(?:really\s+|actually\s+|much\s+|even\s+)?(?:help|helps|work|works|matter|matters|improve|improves|pay off|"
    r"benefit|do anything|change anything|make (?:any|a|much of a) difference)\b|\bmakes? (?:no|little) difference\b|"
    r"\b(?:has|have|with) (?:no|little) (?:effect|benefit|impact)\b|\bdoes nothing\b"
    # as a verdict: at the end of its clause or before 'here', 'much' ..., not 'does not work on the whole matrix'
    r")(?=\s*(?:$|[,.;:!?]|(?:here|there|much|at all|in practice|anymore|either|and|but|so|because)\b))"
)
# 'No NVIDIA GPU accelerates ...': a denial by a quantifier on the subject, of the verb after it.
_NO_SUBJECT_VERB = re.compile(r"^\s*(?:no|none of the)\s+(?:[\w:/-]+\s+){1,3}?([a-z]{3,}(?:s|ed))\b"
                              r"(?!\s+(?:is|are|was|were|get|gets|got|be|been|needed|required|stay|stays)\b)")  # 'no extra kernel launches are needed': a noun


def _denies_its_verb(clause: str, reference: str) -> bool:
    """Whether the clause negates the reference's own verb ('distillation does not compress the
    teacher' against 'distillation compresses the teacher into fewer parameters'): then the
    reference's word of lessening does not make the negation agree."""
    m = _NEGATED_VERB.search(clause.lower()) or _NO_SUBJECT_VERB.match(clause.lower())
    if not m:
        return False
    # The reference's own verb, not one it says is avoided: 'not writing intermediates' agrees
    # with 'avoids writing intermediate results'.
    low = reference.lower()
    return any(root(w.group()) == root(m.group(1)) and not _AVOIDED.search(low[: w.start()]) for w in re.finditer(r"[a-z]{3,}", low))


_AVOIDED = re.compile(r"(?:avoid(?:s|ed|ing)?|without|skip(?:s|ped|ping)?|no longer|instead of)\s+(?:[\w-]+\s+)?$")

