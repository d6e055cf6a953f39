"""Reading an answer the way an interviewer does: split it into claims (clauses) with their
character offsets, and note for each claim whether it is negated, admits not knowing,
is retracted a moment later, reports someone else's view, or talks to the grader instead
of answering.

Works on typed prose and on speech transcripts with no punctuation, fillers and
self-corrections.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.scoring.polarity import NEGATION_WORDS, NEGATORS, blank_non_negations
from app.scoring.text import FILLERS, STUTTER, WORD

# Sentence ends: punctuation followed by space, or a line break. 'e.g.' and '1.5' survive.
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\betc)[.!?;]+(?=\s|$)|\n+")

# Words that open a new claim in running speech. Kept with the clause they open. ('a reduce plus a
# broadcast' joins two things in one claim.)
_MARKERS = (
    r"but|however|whereas|although|though|while|so(?!\s+(?:much|many|few|little|far)\b)|because|since|and then|then|which means|that means|"
    r"meaning|okay|ok|alright|anyway|also|plus(?!\s+(?:a|an)\b)|first|firstly|second|secondly|third|next|finally|"
    # ('that is' as 'i.e.' is set off by a comma or a colon; 'it is not the bulb that is damaged' is one claim)
    r"on the other hand|in contrast|for example|for instance|e\.g\.|that is(?=\s*[,:])|and that|and also|and so"
)
# Not after an article or a preposition: 'a third of the layers', 'the next token', 'on the other hand' are not openers.
_NOT_AFTER = r"(?<!\ba)(?<!\ban)(?<!\bthe)(?<!\bof)(?<!\bto)(?<!\bper)(?<!\bevery)(?<!\beach)(?<!\bin)(?<!\bat)"
# Nor after a form of 'be': 'the all-reduce is so efficient', 'the result is then broadcast', 'it is also used'.
_NOT_AFTER += r"(?<!\bis)(?<!\bare)(?<!\bwas)(?<!\bwere)(?<!\bbe)(?<!\bbeen)(?<!'s)"
# Nor at a filler: the split is tried before it, so 'the um next station' stays one phrase.
_NOT_AFTER += r"(?<!\bum)(?<!\buh)(?<!\berm)(?<!\ber)"
# Fillers between the pause and the word that opens the next claim ('..., um, and ...') belong to the pause.
_PAUSES = r"(?:(?:um+|uh+|erm|er)\b,?\s+)*"
# Unpunctuated 'then' before a verb is an adverb of the clause it sits in: 'because the GPU then has fewer multiplications'.
_ADVERB_THEN = r"then\s+(?:has|had|gets|needs|becomes)\b"
_CLAUSE_SPLIT = re.compile(
    # (after a comma, any word may end the clause: 'matmuls you can never get rid of, so ...')
    rf"(?<![\s,]),\s*{_PAUSES}(?=(?:{_MARKERS})\b)|(?=\s){_NOT_AFTER}(?<![\s,])\s+{_PAUSES}(?!{_ADVERB_THEN})(?=(?:{_MARKERS})\b)|,\s+{_PAUSES}(?=and\s)|\s+-\s+|\s*:\s+|\s+\(\s*|\s*\)(?=\s|$)\s*",
    re.I,
)

# ', just Y' / ', only Y' after a denial: what is said in its place.
_ONLY_AFTER_DENIAL = re.compile(r",\s+(?=(?:just|only|merely|simply)\s+\w)", re.I)

# A pronoun and a bare auxiliary: 'it does', 'they are' (and then, if so, its own 'not').
_BARE_VERB = r"(?:it|they|that|this|he|she|we|you)\s+(?:does|do|did|is|are|was|were|can|could|will|would|has|have|had|should|must)"

# A self-correction: the words before it are taken back, the words after it stand.
# Markers that take back a claim outright ('actually no', 'scratch that'), unlike a repair that
# swaps a word ('a shard, sorry, a slice') or an apology ('Sorry, I'm nervous').
_OUTRIGHT = (r"no wait|wait no|no no|actually no|(?:(?<=^)|(?<=[.!?]\s))(?:no,\s*wait|wait,\s*no|no,\s*no|actually,\s*no)\b|scratch that|correction|let me correct (?:that|myself)|i take that back|"
             # 'Layout doesn't matter for speed, well actually it does, ...': a bare 'it does' or
             # 'it doesn't' after 'actually' turns the claim round
             r"(?:(?:well|oh|hmm|um|uh|no)[,\s]+)?actually(?=,?\s+" + _BARE_VERB + r"(?:n't|\s+not)?\s*(?:[,.;:!?]|$))|"
             # 'that's wrong', 'I'm wrong there' opening its clause, not 'the roofline shows why that's wrong'
             r"(?:(?<=^)|(?<=[.!?;:,]\s)|(?<=\bno\s)|(?<=\bwell\s)|(?<=\bhmm\s)|(?<=\bactually\s)|(?<=\bum\s)|(?<=\buh\s)|(?<=\boh\s))"
             r"(?:that'?s (?:wrong|incorrect|backwards|not (?:quite |really |entirely |totally )?(?:true|right|correct))|"
             r"i(?:'m| am| was) wrong(?: there| here| about that| on that)?)")
# Words after which 'wait' is the verb: a subject or an auxiliary ('the GPUs wait', 'have to
# wait'); and, in running speech, a joining word ('sit and wait', 'the ones that wait'), unless a
# comma or a word of repair follows ('or wait, N-1 chunks', 'and wait actually it is large').
_WAITERS = ("to", "ll", "will", "must", "can", "may", "d", "not", "t", "still", "just", "they", "we", "you", "i", "he", "she",
            "which", "who", "should", "would", "could", "might", "stages", "stage", "gpus", "gpu")
_JOINED_WAITERS = ("and", "then", "that")
# Words a phrase cannot end on: what comes before them was cut off.
_UNFINISHED = ("the", "a", "an", "of", "to", "in", "on", "for", "with", "and", "is", "are", "uh", "um", "er", "erm", "its", "their")
_REPAIR_AFTER_WAIT = r"(?=\s*,|\s+(?:no|nope|sorry|actually|i mean|hmm+|let me|scratch)\b)"
_CORRECTION = re.compile(
    rf"(?:,\s*|\s+|^|(?<=[\s,]))(?:{_OUTRIGHT}|"
    # 'wait' as a repair, not the verb: 'a stage has to wait for its input', 'they wait until ...',
    # 'bubbles where GPUs wait.' (the word before is read across the space the prefix took)
    + "".join(rf"(?<!\b{w}\s)" for w in _WAITERS) + "(?:wait" + _REPAIR_AFTER_WAIT + "|"
    + "".join(rf"(?<!\b{w}\s)" for w in _JOINED_WAITERS) +
    r"wait(?!\s+(?:for|until|till|on|around|while|in|at|to|a|an|the|their|its|each|every|idle)\b)(?!\s*(?:[.!?;]|$)))|"
    r"no sorry|sorry|i mean|or rather|no,|"
    # a restart after unfinished words: 'zero partitions the uh well let me put it differently each gpu
    # only keeps a part' (after a finished claim it repeats it: 'let me say that again: everyone gets the total')
    r"(?:" + "|".join(rf"(?<=\b{w}\s)" for w in _UNFINISHED) + r")(?:well\s+)?(?:let me (?:put|say|phrase|explain) (?:it|that|this) "
    r"(?:differently|another way|better|again)|let me rephrase(?: (?:it|that))?|let me start (?:again|over))|"
    # a bare spoken 'no' that starts a repair: '... across nodes no inside the node ...'
    r"no(?=\s+(?:it|it's|its|that|that's|this|the|inside|within|across|between|over|on|in|to|wait|sorry|i think|i mean|i guess|actually)\b))(?=[\s,:]|$)[,:\s]*",
    re.I,
)
# A clause that only says the previous one was wrong.
_RETRACTS_PREVIOUS = re.compile(
    r"\b(?:that'?s (?:wrong|backwards|not right|incorrect|the wrong way (?:round|around))|"
    r"i (?:had|got) (?:it|that) (?:backwards|wrong|the wrong way (?:round|around))|"
    r"(?:the )?other way (?:round|around)|scratch that|i take (?:it|that) back|strike that|"
    r"let me (?:correct|rephrase) (?:that|myself)|ignore what i (?:just )?said|that was wrong)\b",
    re.I,
)
# A sentence that asks: it opens with an interrogative or an auxiliary verb and ends with '?'.
_ASKS = re.compile(
    r"\s*(?:(?:so|and|but|then|ok(?:ay)?|um+|uh+)[\s,]+)*(?:do|does|did|is|are|was|were|can|could|should|would|will|shall|"
    r"may|might|must|have|has|had|isn'?t|aren'?t|doesn'?t|don'?t|didn'?t|wouldn'?t|shouldn'?t|can'?t|"
    r"what|why|how|which|when|where|who|whom|whose)\b",
    re.I,
)
# A clause that opens on 'does/did' and its subject, or on 'do' and a pronoun, asks; 'do the
# all-reduce in buckets' tells, 'and so does the ring' says 'likewise', and '..., then does all the
# backwards' goes on with the subject before it.
_SPOKEN_QUESTION = re.compile(
    r"\s*(?:(?:so|like|okay|ok|wait|um+|uh+)[\s,]+)*(?:(?:does|did)\s+(?:the|a|an|it|they|we|you|i|this|that|these|those|each|every|all|its|their)|"
    r"do\s+(?:you|we|they|i))\s+\S+\s+\S",
    re.I,
)
_LIKEWISE = re.compile(r"(?:and\s+)?(?:so|neither|nor)\s+(?:do|does|did)\s+(?:\S+\s*){1,4}", re.I)
# A clause that is nothing but a 'no' ('Hmm, no.', 'Well, not really.', 'I'm thinking of reduce.'):
# the speaker takes back what they just said.
_BARE_RETRACTION = re.compile(
    r"(?:(?:hmm+|um+|uh+|well|eh|er|oh|ah|actually|wait)[\s,.]*)*"
    r"(?:no+|nope|not (?:really|quite|exactly|right|true)|that'?s not (?:it|right|quite (?:it|right))|"
    r"i(?:'m| am) (?:thinking of|confusing (?:it|that|this) with)(?: [\w/-]+){1,3})[\s.!]*",
    re.I,
)
# Contrast: what follows is what the answer rejects ('memory traffic rather than FLOPs').
# ', not Y' after a claim sets Y against it: 'on every GPU, not just on one root GPU'.
# An unpunctuated 'X not Y' that ends its clause sets a short foil against what was just said
# ('the pitch is higher not lower', 'TP stays inside the node not across nodes'); not after a
# verb or adverb the 'not' belongs to ('it is not lower', 'they usually not', 'or not').
_FOIL_NOT = (r"(?=\s+not\s)(?<!\bis)(?<!\bare)(?<!\bwas)(?<!\bwere)(?<!\bbe)(?<!\bam)(?<!\bdo)(?<!\bdoes)(?<!\bdid)(?<!\bcan)(?<!\bcould)"
             r"(?<!\bwill)(?<!\bwould)(?<!\bshould)(?<!\bshall)(?<!\bmust)(?<!\bmay)(?<!\bmight)(?<!\bhas)(?<!\bhave)(?<!\bhad)"
             r"(?<!\bneed)(?<!\bor)(?<!\bif)(?<!\band)(?<!\bbut)(?<!\bwhy)(?<!\bwhether)(?<!\bthink)(?<!\bhope)(?<!\bguess)"
             r"(?<!\bjust)(?<!\bstill)(?<!\balso)(?<!\beven)(?<!\bever)(?<!\bquite)(?<!ly)(?<![\s,;:])"
             r"(?<!\bum)(?<!\bumm)(?<!\buh)(?<!\ber)(?<!\berm)(?<!\bhmm)(?<!\bwell)(?<!\bno)(?<!\bsorry)"
             r"\s+not\s+(?!only\b|just\b|all\b|every\b|necessarily\b|even\b|much\b|many\b|sure\b|really\b|quite\b|exactly\b|"
             r"too\b|very\b|so\b|yet\b|at all\b|a\b|an\b|that\b)(?=(?:[\w'-]+\s+){0,2}[\w'-]+\s*$)")
_CONTRAST = re.compile(r"\s*,?\s*\b(?:rather than|instead of|as opposed to|not because of)\b\s*|\s*,\s*(?:and\s+)?not\b\s*|" + _FOIL_NOT, re.I)

_CONTRAST_END = re.compile(r",\s+")
_LIST_GOES_ON = re.compile(r"\s*(?:[\w/-]+\s+){0,3}(?:and|or)\b", re.I)

_IGNORANCE = re.compile(
    r"\b(?:i\s+(?:(?:honestly|really|just|genuinely|actually|truly|still)\s+)?(?:do\s*n[o']t|don't|dont|did\s*n[o']t|can\s*not|can't|cannot|could\s*n[o']t|couldn't)\s+"
    r"(?:really\s+|quite\s+|fully\s+|exactly\s+)?(?:know|remember|recall|understand|say|tell|explain|describe|derive|"
    r"walk (?:you )?through)|"
    r"(?:^|\bbut\s+|\band\s+)(?:couldn't|could not|can't|cannot)\s+(?:really\s+)?(?:explain|describe|derive|walk (?:you )?through)|"
    r"not (?:really |totally |entirely |quite |too )?sure|no idea|no clue|i forg[eo]t|"
    r"i(?:'ve| have)? never (?:really |quite |fully )?(?:used|heard|worked with|touched|understood|learned|learnt|figured out|got (?:my head )?(?:round|around))|unsure|i'?m not familiar|not familiar with|"
    r"i(?:'m| am) (?:blanking|fuzzy)|(?:don't|do not) (?:know|remember) (?:much|anything)|"
    # knowing only the name: 'I know the word distillation but not how it works'
    r"i (?:only |just )?know (?:the|its|their) (?:word|name|term)s?|(?:only|just) (?:ever )?heard (?:of |the (?:word|name|term) )|"
    r"\bbut not (?:how|what|why) (?:it|they|that|this) (?:works?|does|do|is|are)|"
    r"(?:not|no|little) (?:much |real |really )?(?:experience|hands-on)|i (?:have ?n[o']?t|haven't) (?:really )?(?:used|tried|worked with|done)(?! (?:it|that) (?:myself|yet))\b)\b",
    re.I,
)
_NEGATION = re.compile(
    rf"\b(?:{NEGATION_WORDS}|myth|false|wrong|"
    r"misconception|incorrect|(?:a |an )?(?:bad|terrible|poor|wrong) (?:idea|choice|fit)|a mistake|"
    # a verdict against the option just described: 'running TP across nodes would be too slow'
    r"(?:way |much |far )?too (?:slow|expensive|costly)|(?:would|will|does|did|can) (?:hurt|kill|tank|cripple)|killed|kills)\b",
    re.I,
)
_HEDGE = re.compile(
    # Doubt about what one knows; not approximation ('roughly 2x', 'something like 150 FLOPs per
    # byte') and not the fillers of speech ('it's kind of like a relay').
    r"\b(?:i think|i guess|i believe|maybe|probably|perhaps|possibly|if i remember|iirc|i'?m guessing|"
    r"not (?:totally|entirely|100%) sure|as far as i know|afaik|i assume|i'?d guess)\b",
    re.I,
)
# Someone else's view, reported rather than asserted: 'people sometimes say ...', 'you might think ...'.
_REPORTED = re.compile(
    r"\b(?:(?:some |many |a lot of |most )?(?:people|folks|others|beginners|some|someone|somebody|(?:a|my|our) (?:colleague|teammate|coworker|manager|lead))"
    r"(?: (?:on|in|at|from) (?:my|our|the|a) \w+)?(?: (?:often|sometimes|usually|commonly|will|might|may|once|always|mix (?:it|this|them|the two) up and|"
    r"get (?:it|this|that) wrong and|confuse (?:them|the two|these) and))? "
    r"(?:say|says|said|think|thinks|thought|claim|claims|claimed|believe|believes|believed|assume|assumes|assumed|argue|argued|"
    r"suggest|suggests|suggested|expect|expects|proposed|wanted to|wants to|tried to|describe|describes|described|call|calls|called|"
    r"explain|explains|explained|picture|pictures|see|sees|read|reads|treat|treats|treated|interpret|interprets|interpreted|"
    r"equate|equates|equated|mistake|mistakes|mistook|confuse|confuses|confused)|"
    r"(?:you|one) (?:might|may|could|would) (?:think|assume|expect|hear|read|be tempted to)|"
    r"you(?:'ll| will| often| sometimes| may| might| frequently)? (?:hear|read|see it (?:said|claimed|written))|"
    r"(?:misreading|misunderstanding|misconception|myth|fallacy) (?:is|would be|being) "
    r"(?:that|to (?:think|assume|believe|say)|thinking|believing|assuming|saying)|"
    r"(?:mistake|pitfall|trap|error) (?:is|would be|being) (?:to (?:think|assume|believe|say)|thinking|believing|assuming|saying)|"
    r"you'?d (?:think|assume|expect|be forgiven for thinking)|(?:it'?s|it is) tempting to (?:think|assume|say|believe)|"
    r"(?:a |the )?naive (?:view|answer|reading|picture|take)|"
    r"(?:it'?s|it is|it was|is|are) (?:often |sometimes |commonly |widely |usually )?(?:said|claimed|assumed|believed|thought)|"
    # 'it is sometimes described as a property of the GPU' (not 'the ratio is called the ridge point')
    r"(?:it'?s|it is|it was|is|are|gets|get) (?:sometimes|wrongly|mistakenly|incorrectly) (?:described|presented|treated|framed|portrayed|explained)|"
    r"(?:it'?s|it is|it was|is|are|gets|get) (?:wrongly|mistakenly|incorrectly) called|"
    r"(?:a |the )?(?:common|popular|usual|naive|classic) (?:claim|belief|assumption|view|idea|story|mistake|misconception|"
    r"misreading|misunderstanding|myth)|"
    # 'a common mix-up is to think ...' (not 'the classic trap with async copies is pageable memory')
    r"(?:common|usual|classic|frequent|typical) (?:mix-?up|confusion|error|pitfall|trap) (?:is|would be) (?:to (?:think|assume|believe|say)|thinking|believing|assuming|that)|"
    # a belief the speaker has since dropped: 'I first thought each GPU sends its whole tensor, but ...'
    r"i (?:first|initially|originally|once|used to) (?:thought|think|believed|believe|assumed|assume)|"
    r"(?:at first|initially|originally) i (?:thought|believed|assumed)|"
    r"(?:a |one |another )?(?:claim|thing|idea|line|argument|take|statement) (?:i'?ve|i have|i|you'?ll|you will|you may|you might|you often) (?:heard|read|seen|hear|read)|"
    r"i'?ve (?:often |sometimes |also )?(?:heard|read|seen) (?:people |folks |it |others )?(?:say|said|claim|claimed|argue|argued|suggest|suggested)|"
    r"(?:some|many|a lot of|most|a few|plenty of) (?:blog posts?|posts|articles|papers|tutorials|sources|websites|sites|threads|forum posts|answers online|books)"
    r" (?:say|said|claim|claimed|suggest|suggested|argue|argued|recommend|recommended|promise|promised)|"
    r"(?:according to|the idea that|the claim that|the belief that))\b",
    re.I,
)
# A supposition set up to be reasoned about, not claimed: 'Imagine each GPU sent its whole tensor
# to every other GPU: that would be quadratic', 'If all-reduce were a plain reduce, ...'. A plain
# 'if' is not one: 'if you use enough micro-batches, PP would keep every GPU busy' claims it.
_SUPPOSE = re.compile(
    r"\s*(?:(?:so|and|but|now|well|ok(?:ay)?|um+|uh+)[\s,]+)*(?:suppose|supposing|imagine|pretend|hypothetically|what if|"
    r"let'?s (?:say|suppose|assume|imagine|pretend)|in a world where|(?:even )?if\b[^,;:]*?\b(?:were|weren'?t)\b|"
    # a past 'if' with a 'would' after it is counterfactual: 'if INT8 never lost accuracy, we wouldn't need calibration'
    r"(?:even )?if\b(?=[^,;:]*?(?<!\bis )(?<!\bare )(?<!\bbe )(?<!\bbeen )\b(?:[a-z]+ed|lost|had|did|got|made|took|kept|ran|sent|knew|gave|went|came|fit)\b)"
    r"(?=[^;:.]*?\b(?:would|wouldn'?t|could(?:n'?t)?)\b)|"
    # a strawman set up to be improved on: 'the naive approach, where each GPU sends ...'
    r"naively\b|(?:(?:in|with|under|for) )?(?:the|a) (?:naive|naïve|brute[- ]force) (?:approach|way|version|method|implementation|scheme|algorithm|solution|design|baseline|plan|idea|option)\b)",
    re.I,
)
_WOULD = re.compile(r"\b(?:would|wouldn'?t|could|couldn'?t|might|'d)\b", re.I)

# Text that speaks to the grader instead of answering. Shared with the LLM grader's quote check.
# Model names count only when addressed ('dear assistant'): 'LLM inference' is a topic, not a plea.
TALKS_TO_GRADER = re.compile(
    r"\b(?:ignore (?:the|all|any|previous|your|prior|above)|disregard (?:the|all|any|previous|your)|"
    r"(?:grader|grading (?:system|model|ai|bot)|evaluator|rubric)\b|"
    r"(?:dear|attention|note to(?: the)?|hey) (?:assistant|language model|llm|ai|model)\b|"
    r"mark (?:this|it|me|my answer|the answer|every|all|each)\b.{0,40}?\b(?:as|covered|correct)\b|full (?:marks|score|credit)|"
    r"(?:give|award|assign) (?:me|this(?: answer)?|it|the answer) (?:full|all|100|a (?:perfect|full|high)|the (?:maximum|max|highest))|"
    r"score (?:of )?100|100 ?/ ?100|system prompt|new instructions?|you (?:are|must|should|will) (?:now )?(?:grade|mark|score|act|give)|"
    r"(?:all|every|each) (?:the |of the )?checkpoints?\b.{0,30}\bcovered\b|checkpoints?\b.{0,20}[\"'\u201c]covered|"
    r"(?:no|zero) misconceptions|please comply|(?:correct|expected|required) output (?:is|should)|"
    r"treat (?:this|my|the) (?:answer|response|text) as|as covering (?:all|every|each|the remaining)|"
    r"(?:interviewer|examiner|assessor|reviewer) (?:has |had )?(?:already )?(?:agreed|confirmed|accepted)|"
    r"(?:remaining|other) (?:points|topics|checkpoints) (?:were|are|as) (?:already )?(?:covered|done|correct))",
    re.I,
)


@dataclass(frozen=True)
class Clause:
    """One claim of the answer: its place in the answer and how it is meant."""

    start: int
    end: int
    text: str
    sentence: int
    negated: bool = False  # says 'not X' (or stands after 'rather than')
    ignorance: bool = False  # 'I don't remember what DALI does'
    retracted: bool = False  # taken back by a later correction
    instruction: bool = False  # talks to the grader
    hedged: bool = False  # 'I think it's something like ...'
    reported: bool = False  # 'people often say ...': someone else's view, not the speaker's claim
    question: bool = False  # 'Does TP split each layer?': asks, does not answer
    supposed: bool = False  # 'Imagine all-reduce left the sum on one GPU': a supposition, not a claim
    framing: bool = False  # 'Sure, good question.', 'Hope that helps!': talk around the answer, no part of it
    swapped: bool = False  # taken back for the words a repair says in its place ('the max' in 'the max no the minimum')

    @property
    def usable(self) -> bool:
        """Whether the clause can earn credit or assert a misconception."""
        return not (self.ignorance or self.retracted or self.instruction or self.question or self.framing)


# A clause that opens on a short denial and goes on to say what holds: 'not all-reduce, it's
# point-to-point sends', 'Not free, but often cheaper than adding GPUs'. Only the denial is negated.
_LEADING_DENIAL = re.compile(
    r"\s*(?:(?:sorry|no|well|and|but|so|oh|um+|uh+)[\s,]+)*not\s+"
    r"(?!only\b|just\b|really\b|quite\b|sure\b|exactly\b|at all\b|every\w*|all(?![\w-])|each\b|any\w*|many\b|much\b|always\b)"  # 'not every GPU ... is busy'
    r"(?:[\w/'-]+\s+){0,3}[\w/'-]+(?=,\s+(?:[\w'-]+\s+){2,}?[\w'-]+)(?!,\s+(?:[\w'-]+\s+){0,5}[\w'-]+,)",  # nor before an aside
    re.I,
)


def _split_leading_denial(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` with each that opens on a short denial cut after it (``_LEADING_DENIAL``).

    >>> t = "not all-reduce, it's just point-to-point sends"
    >>> [t[a:b] for a, b in _split_leading_denial(t, [(0, len(t))])]
    ['not all-reduce', ", it's just point-to-point sends"]
    """
    out = []
    for a, b in spans:
        m = _LEADING_DENIAL.match(text, a, b)
        if m and not _LIST_GOES_ON.match(text, m.end() + 1, b):
            out += [(a, m.end()), (m.end(), b)]
        else:
            out.append((a, b))
    return out


def _spans(text: str, pattern: re.Pattern, start: int, end: int, keep: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """Split text[start:end] at the pattern's matches, except those that touch a span of ``keep``;
    return the non-empty pieces."""
    out, pos = [], start
    for m in pattern.finditer(text, start, end):
        if any(a < m.end() and m.start() < b for a, b in keep):
            continue
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = max(pos, m.end())
    if pos < end:
        out.append((pos, end))
    return out


# A formula in brackets ('(p-1)/m', '2(N-1)/N', '(m+p-1)'): short operands, at least one of them
# a number or a one-letter name, joined by operators. Its brackets are no aside.
_FORMULA = re.compile(r"\(\s*(?=[^()]*(?:\d|\b[a-z]\b))[\w.]{1,6}(?:\s*[-+*/^=]\s*[\w.]{1,6})+\s*\)", re.I)


def _clause_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """text[start:end] split into clauses at _CLAUSE_SPLIT, but not at the brackets of a formula.

    >>> t = "The bubble is about (p-1)/m of the step, so more micro-batches help"
    >>> [t[a:b] for a, b in _clause_spans(t, 0, len(t))]
    ['The bubble is about (p-1)/m of the step', 'so more micro-batches help']
    >>> t = "Each GPU sends 2(N-1)/N of the buffer (the ring) in total"
    >>> [t[a:b] for a, b in _clause_spans(t, 0, len(t))]
    ['Each GPU sends 2(N-1)/N of the buffer', 'the ring', 'in total']
    """
    keep = [(m.start(), m.end()) for m in _FORMULA.finditer(text, start, end)]
    keep += [(m.start(), m.end()) for m in STUTTER.finditer(text, start, end)]  # 'since since Volta' is one 'since'
    out = []
    for a, b in _spans(text, _CLAUSE_SPLIT, start, end, keep=keep):
        # 'not X, just Y': what follows the denial's comma is said, not denied ('you don't redo
        # the whole prompt, just one token's work'; 'it doesn't store the queries, only K and V')
        m = _ONLY_AFTER_DENIAL.search(text, a, b)
        if m and NEGATORS.search(blank_non_negations(text[a : m.start()].lower())):
            out += [(a, m.start()), (m.end(), b)]
        else:
            out.append((a, b))
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and not text[start].isalnum():
        start += 1
    while end > start and not (text[end - 1].isalnum() or text[end - 1] in ")%"):
        end -= 1
    return start, end


def _word_count(text: str) -> int:
    """Words, without fillers and without a stutter's repeats ('the the')."""
    return len(_spoken_words(text, fillers=False))


def _spoken_words(text: str, start: int = 0, end: int | None = None, fillers: bool = True) -> list[re.Match]:
    """The words of text[start:end] without a stutter's repeats ('the the'): a stammer does not
    lengthen a run. Fillers count unless ``fillers`` is false: in a raw transcript an 'um' is a
    pause, and where a long run is cut matters (leaving them out made two labelled decisions
    worse); a punctuated sentence has none left by the time it is cut."""
    out: list[re.Match] = []
    for m in WORD.finditer(text, start, len(text) if end is None else end):
        w = m.group().lower()
        if not (out and out[-1].group().lower() == w) and (fillers or w not in FILLERS):
            out.append(m)
    return out


_CONTRACTED = re.compile(r"(?:n't|'re|'ll|'ve|'d|'m)$|^(?:it|that|there|here|what|he|she|who|where|how|let)'s$", re.I)  # not 'the model's'


def _said_length(words: list[re.Match]) -> int:
    """How many words a run says, a contraction counting as the two it stands for ('don't' is as
    long as 'do not')."""
    return len(words) + sum(bool(_CONTRACTED.search(m.group())) for m in words)

MAX_CLAUSE_WORDS = 28  # longer runs (unpunctuated speech) are cut into overlapping windows


# A filler word with the comma and spaces after it. In a written sentence the punctuation marks
# the pauses, so a filler there is noise, and so is a stutter's repeat; inside a phrase a pause
# changes nothing it says ('the activations that um weren't kept').
_FILLER_WORD = re.compile(r"(?<![\w'-])(?:" + "|".join(sorted(FILLERS)) + r")\b,?[ \t]*", re.I)


def without_written_pauses(text: str) -> tuple[str, list[int]]:
    """``text`` without the fillers and stutters of its punctuated sentences, and for each position
    of the result (and one past its end) the position it came from. A raw transcript keeps them:
    there a pause is where one spoken clause ends and the next begins.

    >>> without_written_pauses("The pages that um weren't touched are the the ones written back later.")[0]
    "The pages that weren't touched are the ones written back later."
    >>> without_written_pauses("so the pages um go back later uh and the log is replayed")[0]
    'so the pages um go back later uh and the log is replayed'
    >>> without_written_pauses("a um b, c.")[1]
    [0, 1, 5, 6, 7, 8, 9, 10]
    """
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for s0, s1 in _spans(text, _SENTENCE_END, 0, len(text)):
        if _unpunctuated(text[s0 : s1 + 1]):
            continue
        drops = [m.span() for m in _FILLER_WORD.finditer(text, s0, s1)]
        drops += [(m.end(1), m.end()) for m in STUTTER.finditer(text, s0, s1)]  # 'the the' -> 'the'
        for a, b in sorted(drops):
            if a < pos:
                continue
            out.append(text[pos:a])
            where.extend(range(pos, a))
            pos = b
    out.append(text[pos:])
    where.extend(range(pos, len(text) + 1))
    return "".join(out), where


def read_answer(answer: str) -> list[Clause]:
    """Split ``answer`` into clauses with offsets and polarity flags. A punctuated sentence is read
    without its fillers and stutters (its punctuation marks the pauses); each clause still points
    at, and quotes, what was written.

    >>> [(c.text, c.negated) for c in read_answer("You sync with events rather um than with a barrier.")]
    [('You sync with events', False), ('with a barrier', True)]

    >>> [c.text for c in read_answer("TP splits layers. PP, no wait, it splits stages")]
    ['TP splits layers', 'PP', 'it splits stages']
    >>> [(c.text, c.negated) for c in read_answer("The pitch is higher not lower. It is not louder.")]
    [('The pitch is higher', False), ('lower', True), ('It is not louder', True)]
    >>> [c.retracted for c in read_answer("TP goes across nodes. No, that's backwards.")]
    [True]
    >>> [(c.text, c.retracted) for c in read_answer("Fusion cuts the FLOPs. Actually no, that's wrong, it saves memory traffic.")]
    [('Fusion cuts the FLOPs', True), ('it saves memory traffic', False)]
    >>> [c.retracted for c in read_answer("It waits to fill a batch and then runs it, no, sorry, that's dynamic batching; it works per step.")]
    [True, True, True, False, False]
    >>> [c.retracted for c in read_answer("TP is cheap. It waits to fill a batch and then runs it... No, sorry, that's dynamic batching.")]
    [False, True, True, True, False]
    >>> [c.retracted for c in read_answer("Each replica trains for an epoch and then they average weights. No, sorry, I'm mixing that up with federated averaging.")]
    [True, True, True, False]
    """
    said, at = without_written_pauses(answer)
    clauses = _read(said)
    if said == answer:
        return clauses
    return [_replace(c, start=at[c.start], end=at[c.end - 1] + 1, text=answer[at[c.start] : at[c.end - 1] + 1]) for c in clauses]


def _read(answer: str) -> list[Clause]:
    clauses: list[Clause] = []
    for s_idx, (s0, s1) in enumerate(_spans(answer, _SENTENCE_END, 0, len(answer))):
        asks = answer[s1 : s1 + 1] == "?" and bool(_ASKS.match(answer, s0, s1))
        first_of_sentence = len(clauses)
        pieces = _spans(answer, _CORRECTION, s0, s1)
        corrected = [False] * len(pieces)
        for i in range(len(pieces) - 1):
            # Pieces are separated only by correction markers, so each one but the last is repaired.
            if (_word_count(answer[pieces[i + 1][0] : pieces[i + 1][1]]) >= 1 and not _apologises(answer, pieces[i], pieces[i + 1])
                    and not _confirms(answer, pieces[i], pieces[i + 1])):
                corrected[i] = True
        # 'Well, sorry, ...' or 'No wait, ...' at the start of a sentence takes back the sentence before.
        opener = answer[s0 : pieces[0][1]] if pieces else ""
        opens_on_marker = bool(pieces) and pieces[0][0] > s0 and bool(_CORRECTION.match(answer, s0))
        if opens_on_marker and clauses and _confirms(answer, (clauses[-1].start, clauses[-1].end), pieces[0]):
            opens_on_marker = False  # '... to choose the scales. Actually it does, that's the whole point.'
        starts_with_fix = opens_on_marker or (len(pieces) > 1 and corrected[0] and _word_count(opener) <= 2)
        if not pieces and clauses and _takes_back(answer[s0:s1]):
            _retract_sentence_end(answer, clauses, len(clauses), premise=True)  # 'Scratch that.' on its own
        if starts_with_fix and clauses:
            after = pieces[0] if opens_on_marker else pieces[1]
            if _REATTRIBUTES.match(answer, *after):  # '... No, sorry, that's dynamic batching.'
                _retract_from(clauses, next(j for j, c in enumerate(clauses) if c.sentence == clauses[-1].sentence))
            else:
                _retract_sentence_end(answer, clauses, len(clauses), premise=_takes_back(answer[s0 : pieces[0][0]]))
        for n_piece, ((p0, p1), retracted) in enumerate(zip(pieces, corrected)):
            first_new = len(clauses)
            for c0, c1 in _split_leading_denial(answer, _clause_spans(answer, p0, p1)):
                contrast = _spans(answer, _CONTRAST, c0, c1)
                set_aside = {m.end() for m in _CONTRAST.finditer(answer, c0, c1)}
                pieces_ = []
                for k, (x0, x1) in enumerate(contrast):
                    after = x0 in set_aside  # also 'Instead of X, Y' at the start of a clause
                    # What is set aside runs to the next comma: 'instead of waiting for the batch,
                    # the server adds requests' goes on to say what is claimed. Not when a bare
                    # subject stands before the aside ('PP, as opposed to TP, is ...': the claim
                    # would lose its subject), nor through a list ('..., as opposed to X, Y or Z').
                    comma = _CONTRAST_END.search(answer, x0, x1) if after else None
                    rest = answer[comma.end() : x1] if comma else ""
                    # (a subject set off by the aside's commas: 'one launch instead of three, intermediates
                    # stay on chip' has no comma before the aside and goes on to a claim of its own)
                    bare_subject = (k > 0 and _word_count(answer[contrast[k - 1][0] : contrast[k - 1][1]]) <= 3
                                    and "," in answer[contrast[k - 1][1] : x0])
                    if comma and _word_count(rest) >= 3 and not bare_subject and not _LIST_GOES_ON.match(rest):
                        pieces_ += [(x0, comma.start(), True), (comma.end(), x1, False)]
                    elif after and k == 0 and not comma:
                        pieces_.append((x0, x1, False))  # 'instead of X Y' unpunctuated: cannot tell where X ends
                    else:
                        pieces_.append((x0, x1, after))
                for x0, x1, after_contrast in pieces_:
                    x0, x1 = _trim(answer, x0, x1)
                    if x1 <= x0 or _word_count(answer[x0:x1]) == 0:
                        continue
                    for w0, w1 in _windows(answer, x0, x1):
                        clauses.append(_make_clause(answer, w0, w1, s_idx, False, after_contrast))
            # A repair ('..., no wait, ...', 'sorry', 'I mean') takes back what was said just before
            # it, not the whole run: in unpunctuated speech the 'sentence' can be the whole answer.
            if retracted and len(clauses) > first_new:
                marker = answer[p1 : pieces[n_piece + 1][0]]
                if _REATTRIBUTES.match(answer, *pieces[n_piece + 1]):
                    _retract_from(clauses, first_new)  # '..., no, sorry, that's dynamic batching'
                else:
                    if not _takes_back(marker):
                        _split_swapped_tail(answer, clauses, first_new)
                    _retract_sentence_end(answer, clauses, len(clauses), first_new, premise=_takes_back(marker))
                    _split_swapped_words(answer, clauses, first_new, pieces[n_piece + 1][0])
        if asks:  # a question put to the interviewer answers nothing, whatever terms it names
            clauses[first_of_sentence:] = [_replace(c, question=True) for c in clauses[first_of_sentence:]]
    _merge_fragments(answer, clauses)
    # 'X, not because it's more precise but ...': the reason after a bare 'not' is denied.
    for i in range(len(clauses) - 1):
        c, n = clauses[i], clauses[i + 1]
        if c.sentence == n.sentence and re.search(r"\bnot\s*$", c.text, re.I) and re.match(r"\s*because\b", n.text, re.I):
            clauses[i + 1] = _replace(n, negated=True)
    _carry_reported(answer, clauses)
    _mark_suppositions(answer, clauses)
    _mark_restated_question(clauses)
    # A clause that only says "that's wrong / the other way round" retracts the one before it.
    for i, c in enumerate(clauses):
        if i and (_RETRACTS_PREVIOUS.search(c.text) or _BARE_RETRACTION.fullmatch(c.text.strip())):
            if clauses[i - 1].sentence == c.sentence:
                clauses[i - 1] = _replace(clauses[i - 1], retracted=True)
            else:
                _retract_sentence_end(answer, clauses, i, premise=True)
    return clauses


# A clause that draws a consequence ('..., so more streams means more speed') stands on the one
# before it: when it is taken back, so is its premise.
_CONSEQUENCE = re.compile(r"\s*(?:and\s+)?(?:so|which means|that means|meaning|hence|therefore|thus)\b", re.I)


# A correction that is nothing but an outright take-back (or a bare 'no').
_TAKE_BACK = re.compile(rf"[\s,.!?;:\u2026-]*(?:(?:{_OUTRIGHT}|no|nope)[\s,.!?;:\u2026-]*)+", re.I)


# What follows a repair and names what the words before it really described.
_REATTRIBUTES = re.compile(r"\s*(?:(?:actually|well|oh|sorry|um+|uh+|hmm+)[\s,]+)*(?:that'?s|that is|this is|i(?:'m| am| was) (?:describing|thinking of|talking about)|i meant|"
                           r"i(?:'m| am| was) (?:mixing|mixed|confusing|confused|mixing up) (?:it|that|this|them|the two|things|those)(?: up)? with|"
                           r"i (?:mixed|confused) (?:it|that|this|them|the two|those)(?: up)? with)\s+"
                           r"(?!wrong\b|not\b|right\b|correct\b|incorrect\b|backwards\b|true\b|it\b|the wrong\b|the other way\b|"
                           # an elaboration: 'that's why it's faster', 'that's the whole idea of ...'
                           r"why\b|how\b|what\b|because\b|basically\b|exactly\b|(?:the|a) (?:whole |main |key |basic |big |real )?"
                           r"(?:idea|point|trick|reason|gist|benefit|advantage|catch|goal|purpose)\b)", re.I)


# 'pruning I haven't really, not much experience there, sorry': 'sorry' right after admitting not
# knowing (_IGNORANCE, in the last few words before it) is an apology, not a repair.
_LAST_WORDS = re.compile(r"(?:[\w'-]+\W+){0,7}[\w'-]+\W*$")


# 'actually' and a bare verb repair only where the verb turns the claim round: 'layout doesn't
# matter, well actually it does' takes it back; 'fusion helps, actually it does, by a lot' confirms it.
_ACTUAL_VERB = re.compile(r"[\s,]*" + _BARE_VERB + r"(n't|\s+not)?\b", re.I)


def _confirms(text: str, before: tuple[int, int], after: tuple[int, int]) -> bool:
    """Whether the marker between two pieces is 'actually' with a bare verb that says the piece
    before it again, with the same polarity."""
    if "actually" not in text[before[1] : after[0]].lower():
        return False
    verb = _ACTUAL_VERB.match(text, after[0], after[1])
    if verb is None:
        return False
    claim_negated = _says_not(_as_said(text[before[0] : before[1]]))
    return bool(verb.group(1)) == claim_negated


def _apologises(text: str, before: tuple[int, int], after: tuple[int, int]) -> bool:
    if text[before[1] : after[0]].strip(" \t\n,.;:!?-").lower() != "sorry":
        return False
    tail = _LAST_WORDS.search(text, before[0], before[1])
    return bool(tail and (_IGNORANCE.search(tail.group()) or _REPAIRED.search(tail.group())))


# 'you need an all produce uh all reduce sorry to sum up the partial results': the slip is mended
# before the apology (the word said again after a filler), so 'sorry' takes nothing back.
# (The word said again is no article or preposition: 'a reduce uh a broadcast sorry' swaps two words.)
_REPAIRED = re.compile(r"(?<![\w'-])(?!(?:a|an|the|to|of|in|on|at|and|or|is|it)(?![\w'-]))([\w'-]+)(?:\s+[\w'-]+){0,2}\s+"
                       r"(?:um+|uh+|erm|er|i mean)\s+\1(?![\w'-])(?:\s+[\w'-]+){0,2}\W*$", re.I)


# A claim, then 'and' and the first words of the next one, cut off by a repair: 'TensorRT does all
# that and uh DeepStream, no sorry, DALI does the data loading' swaps only the words after 'and'.
_CUT_OFF_TAIL = re.compile(r"\s+and\s+(?:(?:um+|uh+|erm|er)\s+)?(?:[\w'-]+\s*){1,3}(?:(?:um+|uh+|erm|er)\s*)*$", re.I)


def _split_swapped_tail(text: str, clauses: list[Clause], first: int) -> None:
    """Split the last clause before a word-swapping repair at a final 'and' that opens a claim
    the repair restarts, so that only those words are taken back, not the claim before them.

    >>> [(c.text, c.retracted) for c in read_answer("tensorrt does all that and uh deepstream no sorry dali does the data loading")]
    [('tensorrt does all that', False), ('and uh deepstream', True), ('dali does the data loading', False)]
    """
    if len(clauses) <= first:
        return
    c = clauses[-1]
    tail = _CUT_OFF_TAIL.search(text, c.start, c.end)
    if tail is None or _word_count(text[c.start : tail.start()]) < 3:
        return
    head_end = _trim(text, c.start, tail.start())[1]
    tail_start = _trim(text, tail.start(), c.end)[0]
    # What the clause was set against ('rather than ...') stays set aside in both parts.
    contrast = c.negated and not _make_clause(text, c.start, c.end, c.sentence, False, False).negated
    clauses[-1:] = [_replace(_make_clause(text, c.start, head_end, c.sentence, False, contrast), retracted=c.retracted),
                    _replace(_make_clause(text, tail_start, c.end, c.sentence, False, contrast), retracted=c.retracted)]


_NUMBER = r"(?:\d[\d.,]*|zero|one|two|three|four|five|six|seven|eight|nine|ten|twelve|sixteen|thirty-two|sixty-four|half|twice|double)"
_FIRST_WORD = re.compile(rf"\W*(?:(?:um+|uh+|er+m?|i mean|sorry|like)\W+)*({_NUMBER}\b|[a-z]+\b)", re.I)


# A verb within the first words after a repair's first word: it restarts with a claim of its own.
_NEW_STATEMENT = re.compile(r"(?:\s+[\w'-]+){0,3}?\s+(?:is|are|was|were|does|do|did|has|have|can|will|would|only|just|also|"
                            r"costs?|takes?|needs?|runs?|means|gives?|keeps?|makes?|sends?|splits?|holds?)\b", re.I)


def _split_swapped_words(text: str, clauses: list[Clause], first: int, after: int) -> None:
    """Take back only the words a repair swaps when it restarts on the same word (or a number for a
    number): 'you take the max no the minimum of ...', 'holds a shard, sorry, a slice'. The
    clause's words before them stand, and join what the repair says (``Clause.swapped``).

    >>> [(c.text, c.retracted, c.swapped) for c in read_answer("the roofline is you take the max no the minimum of the two")]
    [('the roofline is you take', False, False), ('the max', True, True), ('the minimum of the two', False, False)]
    """
    if len(clauses) <= first or not clauses[-1].retracted:
        return
    c = clauses[-1]
    marker = text[c.end : after]
    # Set off by commas, a bare 'no' takes the claim back ('... for the model, no, the recompute
    # costs ...'); a word swap is said in one breath, or with 'sorry', 'I mean'.
    if re.search(r"[,.;:!?]", marker) and not re.search(r"\b(?:sorry|i mean|or rather)\b", marker, re.I):
        return
    m = _FIRST_WORD.match(text, after)
    if m is None or _NEW_STATEMENT.match(text, m.end()):
        return  # the repair says a claim of its own: 'no the recompute costs one more forward pass'
    restart = m.group(1).lower()
    same = re.compile(_NUMBER if re.fullmatch(_NUMBER, restart, re.I) else re.escape(restart), re.I)
    words = list(WORD.finditer(text, c.start, c.end))
    # the swapped words: at most the last four, from the restart's own word (or a number for a number)
    for k in range(len(words) - 1, max(len(words) - 5, 2), -1):
        if same.fullmatch(words[k].group()) and text[words[k].start() - 1].isspace():  # a word, not part of '2(N-1)'
            head_end = _trim(text, c.start, words[k].start())[1]
            clauses[-1:] = [_replace(_make_clause(text, c.start, head_end, c.sentence, False, False), negated=c.negated),
                            _replace(_make_clause(text, words[k].start(), c.end, c.sentence, True, False), swapped=True)]
            return


def _retract_from(clauses: list[Clause], start: int) -> None:
    """A repair that names what the words before it described (``_REATTRIBUTES``) takes back all
    of them, from ``start``, not only the last."""
    clauses[start:] = [_replace(c, retracted=True) for c in clauses[start:]]


def _takes_back(marker: str) -> bool:
    return bool(_TAKE_BACK.fullmatch(marker.lstrip(" \t\n,.!?;:\u2026-")))


def _retract_sentence_end(text: str, clauses: list[Clause], end: int, first: int | None = None, *, premise: bool = False) -> None:
    """Mark as taken back what a correction refers to: the clause before ``end``, and, when the
    correction takes it back outright (``premise``) and that clause only draws a consequence,
    the claim it follows from (not before ``first``).

    >>> [c.retracted for c in read_answer("TP is cheap. Streams always run in parallel, so more streams is faster... actually no.")]
    [False, True, True]
    >>> [c.retracted for c in read_answer("PP splits the layers into stages, and stages all-reduce activations. Scratch that.")]
    [False, True]
    """
    first = 0 if first is None else first
    k = end - 1
    clauses[k] = _replace(clauses[k], retracted=True)
    if k > first and clauses[k - 1].sentence == clauses[k].sentence and _word_count(clauses[k - 1].text) <= 2:
        k -= 1  # a stray 'and' between them
        clauses[k] = _replace(clauses[k], retracted=True)
    # Written text only ('X, so Y'): in unpunctuated speech 'so' is as often a filler.
    if premise and k > first and clauses[k - 1].sentence == clauses[k].sentence and _CONSEQUENCE.match(clauses[k].text) and (
        "," in text[clauses[k - 1].end : clauses[k].start]
    ):
        clauses[k - 1] = _replace(clauses[k - 1], retracted=True)


# Openers of the speaker's own reply to a view they reported: 'People think X, but ...'.
_REPLY = re.compile(r"\s*(?:(?:and|so)\s+)?(?:but|however|whereas|although|though|while|yet|instead|actually|in fact|"
                    r"in reality|really|in practice|that'?s|this is|which is|the (?:truth|reality|difference|real|right|correct)|"
                    r"(?:it|that|this)(?:'s| is| does)(?:\s+(?:true|right|correct|so))?\s*$)", re.I)
_AGREES = re.compile(r"\b(?:actually|in fact|true|right|correct|indeed)\b", re.I)


def _carry_reported(text: str, clauses: list[Clause]) -> None:
    """A reported view runs on to the end of its sentence ('The usual mistake is thinking you
    then only need memory for ...'), until the speaker's reply: a contrast ('but ...'), a
    negation ('..., which isn't true'), or what follows a colon after a full clause.

    >>> [c.reported for c in read_answer("People think fusion cuts FLOPs, so it is faster, but it saves memory traffic.")]
    [True, True, False]
    """
    for i in range(len(clauses) - 1):
        c, n = clauses[i], clauses[i + 1]
        if not c.reported or n.reported or n.sentence != c.sentence or n.retracted:
            continue
        gap = text[c.end : n.start]
        if _REPLY.match(n.text) or _AGREES.search(n.text) or n.negated or (":" in gap and _word_count(c.text) > 4) or "(" in gap or ")" in gap:
            continue
        if re.match(r"\s*so\b", n.text, re.I) and "," not in gap:
            continue  # unpunctuated 'so' may start the speaker's own conclusion
        clauses[i + 1] = _replace(n, reported=True)


# A word of knowing takes what follows as its object, across a pause: 'i don't know um what cudnn
# does', 'not sure uh how the ring works', 'i don't remember um the exact formula'.
_KNOWING = "".join(rf"(?<!\b{w})" for w in ("know", "remember", "recall", "understand", "sure", "idea", "clue", "explain", "forget", "forgot"))
# In a long unpunctuated run (speech), 'and' or a filler before a new subject opens a new claim:
# '... each gpu gets some of the layers and um the output goes to the next one um and there's the bubble'.
# Where a pause may split: before whitespace (tested first, for speed), not right after 'and' or a filler.
_PAUSE_POINT = r"(?=\s)(?<!\band)(?<!\bum)(?<!\buh)(?<!\ber)"
_SPEECH_CLAUSE = re.compile(
    _PAUSE_POINT + _KNOWING + r"\s+(?=(?:(?:and|um+|uh+|erm|er)\s+)+(?:then|there(?:'s| is| are)?|the|you|it|it's|that's|that is|this|we|they|i|i'd|i'm|"
    r"each|every|because|but|so)\b)",
    re.I,
)
# A pause inside a phrase is no new topic: after a word the phrase goes on from ('each um gpu has',
# 'the um tensor is', 'how um large n is'), or before one that carries it on ('the weight matrix um of
# each layer is split').
_MID_PHRASE = "".join(rf"(?<!\b{w})" for w in ("the", "a", "an", "its", "their", "each", "every", "this", "that", "these", "those", "how",
                                                "of", "on", "in", "to", "at", "by", "for", "from", "with", "into", "over",
                                                "between", "across", "within", "through", "than", "is", "are", "was", "were"))
_MID_PHRASE += _KNOWING  # 'i don't know um what cudnn does'
_CARRIES_ON = r"(?:of|on|in|to|at|by|for|from|with|into|over|than|as|which|who|whose)\b"
# 'there is', 'it is' name no new topic (and read as 'there's', 'it's' do).
_EXPLETIVE = r"(?:there|it|that|this|here)\s+(?:is|are|was|were)\b"
# A filler before a new topic and its verb opens a new claim however short the run:
# '... so you use micro batches um tensor parallelism is ...', '... soft labels um kernel fusion is ...',
# '... i don't remember the details um and kernel fusion is ...'.
_FILLER_TOPIC = re.compile(
    _PAUSE_POINT + _MID_PHRASE + r"\s+(?=(?:(?:and\s+)?(?:um+|uh+|erm|er)|(?:um+|uh+|erm|er)\s+and)\s+(?!and\b|so\b|" + _CARRIES_ON + r"|" + _EXPLETIVE + r")(?:(?:[\w'-]+\s+){1,3}?(?:is|are|means|uses|does|has|was|were)|(?:[\w'-]+\s+){0,2}?i (?:haven'?t|have not|don'?t|do not|didn'?t|did not|can'?t|cannot))\b)",
    re.I,
)
MIN_SPEECH_CLAUSE_WORDS = 4


def _mark_suppositions(text: str, clauses: list[Clause]) -> None:
    """Mark a supposition and what is reasoned from it in the same sentence ('that would be
    quadratic traffic'); a plain conditional ('if you have 8 GPUs, the ring sends ...') claims its
    consequence, and the speaker's own reply ('..., which is why it leaves the sum on every GPU')
    is a claim.

    >>> [c.supposed for c in read_answer("Imagine each GPU sent its whole tensor to every other GPU: that would be quadratic. The ring avoids it.")]
    [True, True, False]
    >>> [c.supposed for c in read_answer("If you have 8 GPUs, each one sends about twice its buffer.")]
    [False]
    >>> [c.supposed for c in read_answer("If all-reduce were a plain reduce, the others would wait; that is why every GPU gets the sum.")]
    [True, False]
    >>> [c.supposed for c in read_answer("If you use enough micro-batches, PP would keep every GPU busy all the time.")]
    [False]
    >>> [c.supposed for c in read_answer("If INT8 never lost accuracy we wouldn't need calibration, but it does lose some.")]
    [True, False]
    """
    for i, c in enumerate(clauses):
        if _SUPPOSE.match(c.text):
            clauses[i] = _replace(c, supposed=True)
        elif i and clauses[i - 1].supposed and clauses[i - 1].sentence == c.sentence and _WOULD.search(c.text) and not _REPLY.match(c.text):
            clauses[i] = _replace(c, supposed=True)  # what would follow from it


_MARK = re.compile(r"[.,;:!?]")


def _unpunctuated(sentence: str) -> bool:
    """Whether a sentence reads as a raw speech transcript: no punctuation, or a mark for more
    than 30 words (typed answers in the labelled set have one every 1-18 words, transcripts every
    99 or more)."""
    marks = len(_MARK.findall(sentence))
    return marks == 0 or _word_count(sentence) > 30 * marks


def _windows(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The clause itself, or for a long run (unpunctuated speech) its spoken clauses, and for a
    clause still too long, overlapping windows. (Only a raw transcript has fillers by now: a
    punctuated sentence is read without them.)

    >>> t = "you cut the model into stages so each gpu gets some of the layers um and the output goes from one gpu to the next one um and there's the bubble problem at the start"
    >>> [t[a:b] for a, b in _windows(t, 0, len(t))]
    ['you cut the model into stages so each gpu gets some of the layers', 'um and the output goes from one gpu to the next one', "um and there's the bubble problem at the start"]
    """
    topics: list[tuple[int, int]] = []
    for a, b in _spans(text, _FILLER_TOPIC, start, end):
        # A stub of a phrase before the pause ('the thing | um you care about is ...') or after it
        # says nothing on its own: it belongs with its neighbour.
        if topics and (_word_count(text[a:b]) < 3 or _word_count(text[topics[-1][0] : topics[-1][1]]) < 3):
            topics[-1] = (topics[-1][0], b)
        else:
            topics.append((a, b))
    topics = [_trim(text, a, b) for a, b in topics]
    if len(topics) > 1:
        return [w for a, b in topics for w in _windows(text, a, b)]
    if _said_length(_spoken_words(text, start, end)) <= MAX_CLAUSE_WORDS:
        return [(start, end)]
    pieces: list[tuple[int, int]] = []
    for a, b in _spans(text, _SPEECH_CLAUSE, start, end):
        if pieces and (_word_count(text[a:b]) < MIN_SPEECH_CLAUSE_WORDS or _word_count(text[pieces[-1][0] : pieces[-1][1]]) < MIN_SPEECH_CLAUSE_WORDS):
            pieces[-1] = (pieces[-1][0], b)
        else:
            pieces.append((a, b))
    return [w for a, b in pieces for w in _fixed_windows(text, *_trim(text, a, b))]


def _fixed_windows(text: str, start: int, end: int) -> list[tuple[int, int]]:
    words = _spoken_words(text, start, end)
    if _said_length(words) <= MAX_CLAUSE_WORDS:
        return [(start, end)]
    size, stride = 20, 12
    out = []
    for i in range(0, len(words), stride):
        chunk = words[i : i + size]
        out.append((chunk[0].start(), chunk[-1].end()))
        if i + size >= len(words):
            break
    return out


# Talk around an answer: a greeting, praise for the question, thanks, an offer to say more.
_FRAMING = re.compile(
    r"(?:(?:sure|okay|ok|alright|right|yes|yeah|so|well|great|good|nice|cool|thanks|thank you|hi|hello|hey|um+|uh+)\b[\s,!.]*+)*"
    r"(?:(?:that'?s |that is |what |this is |it'?s )?(?:a |an |such a )?(?:really |very )?(?:good|great|nice|interesting|fair|tough|fun|excellent) question|"
    r"(?:i )?hope (?:that|this|it) (?:helps|answers (?:it|that|the question|your question))|thanks?(?: you)?(?: for (?:asking|the question|listening))?|"
    r"that'?s (?:all|it|about it|everything)(?: (?:i (?:have|know|can think of)|from me|for now))?|let me think(?: about (?:it|that|this))?(?: for a (?:second|moment))?|"
    r"(?:i'?m |i'?d be )?happy to (?:elaborate|go deeper|explain more|say more|answer (?:questions|follow-ups))(?: on any of (?:it|this|that))?)?[\s,!.]*+",
    re.I,
)

# A sentence that says what the question is ('So the question is about the all-reduce: what it
# computes, how the data moves ...', 'you're asking how TP and PP differ') answers none of it.
_RESTATES_QUESTION = re.compile(
    r"(?:(?:so|okay|ok|well|right|alright|basically|and)[\s,]+)*"
    r"(?:(?:the|this|your) question (?:here )?(?:is|was)(?: (?:basically|essentially|really|just|asking|really asking))?"
    r"(?: about| whether| if| how| what| why| where| which)\b|(?:the|this|your) question asks\b|"
    r"(?:you(?:'re| are) )?asking (?:me )?(?:about|how|what|whether|why|where|which)\b)",
    re.I,
)
# ... and the parts of it listed after: 'what it computes', 'and how that determines ...'; not
# a pseudo-cleft that answers one ('what it computes is that every GPU ...').
_QUESTION_PART = re.compile(r"(?:(?:and|or|plus|also)[\s,]+)?(?:what|how|why|where|whether)\b", re.I)
_ANSWERS_PART = re.compile(r"\b(?:is|are|was|were)\s+(?:that|the|a|an|to|because|just|basically|about|not|no|only|how|what|where|when|\d)\b", re.I)


def _only_asks(text: str, opener: int = 0) -> bool:
    """Whether ``text`` after ``opener`` names the question and its parts and nothing more: short,
    and each piece after a comma another part ('how the data moves') or a bare noun phrase of up
    to three words ('its cost'), not a claim ('which is the sum of every GPU's tensor')."""
    rest = text[opener:]
    if _word_count(rest) > 12 or _ANSWERS_PART.search(rest):
        return False
    return all(_QUESTION_PART.match(p.strip()) or _word_count(p) <= 3 for p in rest.split(",")[1:])


def _mark_restated_question(clauses: list[Clause]) -> None:
    """Set aside a sentence's opening clause that only says what the question is, and the parts
    of the question it goes on to list, as talk around the answer.

    >>> [c.framing for c in read_answer("So the question is about the all-reduce: what it computes, and how it is placed. It sums the tensors.")]
    [True, True, True, False]
    >>> [c.framing for c in read_answer("The question is whether TP fits in a node: it does, since NVLink is fast.")]
    [True, False]
    >>> [c.framing for c in read_answer("so the question is about all reduce and basically every gpu contributes its tensor and the sum ends up on every gpu")]
    [False]
    >>> [c.framing for c in read_answer("So the question is about the all-reduce: what it computes is that every GPU ends up with the sum.")]
    [True, False]
    """
    i = 0
    while i < len(clauses):
        c = clauses[i]
        said = _as_said(c.text).strip()
        opens = _RESTATES_QUESTION.match(said) if i == 0 or clauses[i - 1].sentence != c.sentence else None
        if opens and _only_asks(said, opens.end()):
            clauses[i] = _replace(c, framing=True)
            while i + 1 < len(clauses) and clauses[i + 1].sentence == c.sentence:
                part = _as_said(clauses[i + 1].text).strip()
                if not (_QUESTION_PART.match(part) and _only_asks(part)):
                    break
                i += 1
                clauses[i] = _replace(clauses[i], framing=True)
        i += 1


# The speaker's own standing with a topic, with nothing said of the topic itself: 'I've mostly
# worked with Megatron's tensor parallelism', 'I can explain pipeline parallelism', 'tensor
# parallelism I only know superficially'. ('I know NCCL implements it as a ring' says something.)
# Such a clause is no evidence, but it still names what the next clause speaks of.
_ABOUT_ME_LEAD = r"(?:(?:so|and|but|well|yeah|yes|okay|ok|honestly|personally|like|now)[\s,]+)*(?:i think |i guess |i'd say |i would say )?"
# How well one knows a topic ('a bit', 'less well', 'superficially'); not 'less' or 'more' alone,
# which also say how a thing behaves ('I know PP communicates less').
_DEGREE = (r"(?:(?:a lot |much |far |way |only |just |pretty |quite |really |very )?"
           r"(?:better|best|well|less well|a bit|a little|superficially|vaguely|somewhat|partly|in detail|in depth|inside out))")
# A short noun phrase: no clause ('that TP needs ...'), purpose ('TensorRT to fuse layers') or
# common verb ('pipeline parallelism is better') in it.
_NOT_IN_OBJECT = (r"(?!(?:that|how|why|what|where|when|whether|if|to|which|because|so|since|by|for|and|but|while|"
                  r"is|are|was|were|be|been|has|have|had|does|do|did|can|will|would|should|must|gets?|makes?|needs?)\b)")


def _noun_phrase(most: int) -> str:
    return rf"(?:{_NOT_IN_OBJECT}[\w'./=-]+\s+){{0,{most - 1}}}?{_NOT_IN_OBJECT}[\w'./=-]+"


_WHERE = r"(?:in|at|on|inside) (?:[\w'./=-]+\s+){0,2}?[\w'./=-]+"  # 'in production', 'in Hugging Face'
_ABOUT_ME = re.compile(
    _ABOUT_ME_LEAD + r"(?:"
    rf"i(?:'ve| have)? (?:mostly |mainly |only |also |personally |just |already |often )?(?:worked with|used|played with|tried) {_noun_phrase(5)}"
    rf"(?: (?:a lot|a bit|before|too|as well|myself|once|twice|with (?:[\w'./=-]+\s+){{0,2}}?[\w'./=-]+|{_WHERE}))?|"
    # having seen a thing somewhere: 'I've seen the flag in Hugging Face' (not 'I've seen the bubble shrink with ...')
    rf"i(?:'ve| have)? (?:only |also |just |already |often )?(?:seen|read about|looked at) {_noun_phrase(3)} {_WHERE}|"
    rf"i (?:can|could) (?:explain|describe|talk about|walk (?:you )?through) {_noun_phrase(4)}(?: {_DEGREE})?|"
    rf"i (?:only |also |really )?know (?:{_noun_phrase(3)} )?{_DEGREE}|"
    rf"{_noun_phrase(4)} i (?:think i |guess i )?(?:only |also |really )?know(?: it)? {_DEGREE}|"
    rf"i(?:'m| am) (?:more |most |quite |pretty |very )?(?:familiar|comfortable) with {_noun_phrase(5)}"
    r")[\s.!]*",
    re.I,
)


@lru_cache(maxsize=16384)
def about_me(text: str) -> bool:
    """Whether a clause only says how the speaker stands with a topic (``_ABOUT_ME``)."""
    return bool(_ABOUT_ME.fullmatch(_as_said(text).strip()))


def _as_said(body: str) -> str:
    """A clause without its fillers and stutters, for reading its flags: 'the activations that um
    weren't kept' is the relative clause 'that weren't kept', 'i i don't remember' an admission."""
    return STUTTER.sub(r"\1", _FILLER_WORD.sub("", body))


def _says_not(said: str) -> bool:
    """Whether a clause, read without its fillers, has a negation that negates."""
    return bool(_NEGATION.search(blank_non_negations(said.lower())))


def _make_clause(text: str, start: int, end: int, sentence: int, retracted: bool, contrast: bool) -> Clause:
    body = text[start:end]
    said = _as_said(body)
    return Clause(
        start=start,
        end=end,
        text=body,
        sentence=sentence,
        negated=contrast or _says_not(said),
        ignorance=bool(_IGNORANCE.search(said)),
        retracted=retracted,
        instruction=bool(TALKS_TO_GRADER.search(said)),
        hedged=bool(_HEDGE.search(said)),
        reported=bool(_REPORTED.search(said)),
        framing=bool(_FRAMING.fullmatch(body)),
        # a spoken question has no question mark: 'so like does the ring do reduce-scatter first'
        question=bool(_SPOKEN_QUESTION.match(said)) and not _LIKEWISE.fullmatch(body.strip()),
    )


def _replace(c: Clause, **changes) -> Clause:
    return Clause(**{**c.__dict__, **changes})


# A bracketed gloss: only '(' between the clause and the piece, and ')' right after the piece.
_OPENS_ASIDE = re.compile(r"\s*\(\s*")
_CLOSES_ASIDE = re.compile(r"\s*\)")


_DASH_BREAK = re.compile(r"\s-\s")  # (long dashes are ' - ' once the typography is tidied)


def _merge_fragments(text: str, clauses: list[Clause]) -> None:
    """Glue one- or two-word pieces ('so', 'first') onto the next clause of the same sentence; a
    short bracketed gloss ('at certain points (the checkpoints) and ...') onto the clause it glosses.

    >>> [c.text for c in read_answer("You keep activations at certain points (the checkpoints) and recompute the others.")]
    ['You keep activations at certain points (the checkpoints)', 'and recompute the others']
    """
    i = 0
    while i < len(clauses):
        c = clauses[i]
        if i and _word_count(c.text) <= 2 and not c.retracted and (p := clauses[i - 1]).sentence == c.sentence and not p.retracted:
            closes = _CLOSES_ASIDE.match(text, c.end)
            if closes and _OPENS_ASIDE.fullmatch(text, p.end, c.start):
                clauses[i - 1] = _replace(_make_clause(text, p.start, closes.end(), p.sentence, False, p.negated), question=p.question)
                del clauses[i]
                i -= 1  # the glossed clause may itself be a fragment
                continue
        i += 1
    i = 0
    while i < len(clauses) - 1:
        c, n = clauses[i], clauses[i + 1]
        # A word set aside by a contrast ('..., rather than FLOPs, which ...') stays on its own.
        # (A dash between them ends the fragment as a semicolon would: 'since Volta - then quantization'.)
        if (_word_count(c.text) <= 2 and c.sentence == n.sentence and not c.retracted and not n.retracted and not (c.negated and not n.negated)
                and not _DASH_BREAK.search(text, c.end, n.start)):
            merged = _make_clause(text, c.start, n.end, n.sentence, False, n.negated and not c.negated)
            clauses[i + 1] = _replace(merged, question=c.question or n.question)  # still part of the question it was in
            del clauses[i]
        else:
            i += 1
