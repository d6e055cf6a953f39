"""Text normalisation and tokenisation shared by every part of the grader.

Pure functions only. ``normalize`` is idempotent: ``normalize(normalize(s)) == normalize(s)``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache, wraps

DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"), "-")
_APOSTROPHES = {ord(c): "'" for c in "\u2018\u2019\u201a\u201b\u02bc\u2032\u00b4\uff07"}
_DOUBLE_QUOTES = {ord(c): '"' for c in "\u201c\u201d\u201e\u201f\u2033\uff02"}
QUOTES = _APOSTROPHES | _DOUBLE_QUOTES
_SPACE = re.compile(r"\s+")
WORD = re.compile(r"[a-z0-9]+(?:['.:/][a-z0-9]+)*", re.I)
# A stutter: a word said again right after itself ('the the', 'since since').
STUTTER = re.compile(r"\b(\w+)(?:\s+\1\b)+", re.I)

# Function words: they carry the relations between concepts, not the concepts themselves.
STOPWORDS = frozenset(
    """a an the and or but if then else so because as of to in on at by for with without from into onto
    over under between across within through per via than that this these those there here it its itself
    is are was were be been being am do does did done doing have has had having can could should would
    will shall may might must not no nor only also just very too more most less least much many some any
    each every all both either neither other another such same own which who whom whose what when where
    why how i you he she we they me him her us them my your our their mine yours ours theirs one ones
    about up down out off again further once while until before after above below during around
    usually often typically generally basically really actually like well yeah okay ok um uh erm hmm
    get gets got make makes made use uses used using way ways thing things lot lots kind sort e.g i.e etc
    """.split()
)

FILLERS = frozenset({"um", "uh", "erm", "er", "hmm", "mm", "uhm", "umm", "ah", "eh"})


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def replace_lone_surrogates(text: str) -> str:
    """Half of a UTF-16 pair ('\\ud800' from JSON) cannot be stored or encoded as UTF-8; it
    becomes U+FFFD, one character for one, so offsets into the text stay valid.

    >>> replace_lone_surrogates("a \\ud800 b") == "a \\ufffd b"
    True
    """
    return _LONE_SURROGATE.sub("\ufffd", text)


_LONG_DASHES = "\u2013\u2014\u2015\u2212"  # of DASHES, those that part clauses (not the hyphens)
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad")  # zero-width spaces and joiners, soft hyphens
_LINE_JOIN = re.compile(r"[a-z0-9,:)]")
_WRAP_WIDTH = 50  # a line at least this long that breaks mid-sentence was wrapped
_LAST_WORD = re.compile(r"(?<![\w'-])[\w'-]+$")
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)([^\W\d_][\w'-]*)")
# Words no sentence ends on: articles, prepositions, conjunctions, auxiliaries.
_CANNOT_END = frozenset("""a an the of to in on at by for with from into onto over across between within inside through via
    and or but nor so than that which who whose whom where when while because since if as is are was were be been has have
    had do does did can could will would should must may might its their our your my his her this these those each every""".split())
_NEXT_WORD = re.compile(r"\S*")


# Markup a reader looks through: list markers, headings and quote marks that open a line, and the
# marks around **bold**, *italic*, _italic_ and `code` (not the underscore inside no_sync).
_MARKUP = re.compile(
    r"^[ \t]*(?:[-*+\u2022\u25e6\u25aa]|\d{1,2}[.)]|#{1,6}(?![ \t]+of\b)|>)[ \t]+(?![-+]?\d)|^[ \t]*```\w*[ \t]*$|"
    # (not a dunder name, '__init__.py', 'model.__call__'; bounded, so hostile runs of marks stay linear)
    r"(?<![\w*.])(\*\*|__|\*|_)(?=[^\s*_])(?:(?!\1)[^\n]){0,300}?(?<=[^\s*_])\1(?![\w*(]|\.\w)|(`)[^`\n]{1,300}`",
    re.M,
)


# A transcriber's commas around a filler ('the layers, um, and the output ...') mark a pause, no
# more than the bare filler does in an unpunctuated transcript.
# (A comma before a filler with none after it stays: 'large batches, um optimizer states'.)
# Nor before a contrast, which reads on its comma: 'splits each layer, um, not whole layers'.
_FILLER_COMMAS = re.compile(r"(?:(,)[ \t]*(?:um+|uh+|erm|er|hmm+|ah)[ \t]*(,)|\b(?:um+|uh+|erm|er|hmm+|ah)[ \t]*(,))"
                            r"(?![ \t]*(?:not|rather|instead|but|except|which|unlike)\b)", re.I)


def _markup(text: str) -> set[int]:
    """Positions of markup characters in ``text``, to be read past."""
    drop = {m.start(g) for m in _FILLER_COMMAS.finditer(text) for g in (1, 2, 3) if m.group(g)}
    for m in _MARKUP.finditer(text):
        mark = m.group(1) or m.group(2)
        if mark:  # the marks at both ends; what they enclose stays
            drop.update(range(m.start(), m.start() + len(mark)))
            drop.update(range(m.end() - len(mark), m.end()))
        else:  # a line's opening marker
            drop.update(range(m.start(), m.end()))
    return drop


def _starts_sentences_with_capitals(text: str) -> bool:
    """Whether the writer starts sentences with a capital letter (words that are capitals anyway,
    'I' and acronyms, tell nothing).

    >>> _starts_sentences_with_capitals("Pipeline parallelism splits the layers. it is simple"), _starts_sentences_with_capitals("I think TP splits layers")
    (True, False)
    """
    starts = [w for w in _SENTENCE_START.findall(text[:5000]) if w != "I" and not w.startswith("I'") and not (len(w) > 1 and w.isupper())]
    return bool(starts) and 2 * sum(w[0].isupper() for w in starts) >= len(starts)


def tidy_typography(text: str) -> tuple[str, list[int]]:
    r"""``text`` as the reader expects it, with, for each position of the result (and one past
    its end), the position in ``text`` it came from. Typed and pasted answers differ in ways
    that change nothing for a reader: curly quotes, long dashes between clauses (spaced or
    not), runs of spaces or non-breaking spaces, invisible characters pasted along (zero-width
    spaces, soft hyphens), lines wrapped inside a sentence, and Markdown
    (list markers, headings, **bold**, `code`). A line break that ends a sentence or starts an item stays one.

    >>> tidy_typography("Tensor parallelism doesn\u2019t  split\u00a0whole layers\u2014it splits each layer.\n- PP")[0]
    "Tensor parallelism doesn't split whole layers - it splits each layer.\nPP"
    >>> tidy_typography("ring, all-gather\nsum on all ranks")[0]
    'ring, all-gather\nsum on all ranks'
    >>> tidy_typography("Tensor parallelism splits each layer and its all-reduce runs over\nNVLink inside a node, while pipeline parallelism sends its\nactivations to the next stage.")[0]
    'Tensor parallelism splits each layer and its all-reduce runs over NVLink inside a node, while pipeline parallelism sends its activations to the next stage.'
    >>> tidy_typography("Tensor parallelism splits the weight matrices of every layer across\nthe GPUs of a node.")[0]
    'Tensor parallelism splits the weight matrices of every layer across the GPUs of a node.'
    >>> tidy_typography("I do not remember how tensor parallelism splits the work across GPUs\nPipeline parallelism sends activations between stages")[0]
    'I do not remember how tensor parallelism splits the work across GPUs\nPipeline parallelism sends activations between stages'
    >>> tidy_typography("## TP\n1. It **splits** each layer\n* it calls `all_reduce` (no_sync aside)")[0]
    'TP\nIt splits each layer\nit calls all_reduce (no_sync aside)'
    >>> tidy_typography("Um, so the layers, uh, go on GPUs, um and the output, erm, moves on.")[0]
    'Um so the layers uh go on GPUs, um and the output erm moves on.'
    >>> tidy_typography("a\u2014b")[1]
    [0, 1, 1, 1, 2, 3]
    """
    text = text.translate(QUOTES)
    out: list[str] = []
    where: list[int] = []

    def put(piece: str, at: int) -> None:  # every character of ``piece`` comes from position ``at``
        out.append(piece)
        where.extend([at] * len(piece))

    i, n = 0, len(text)
    lines = text.split("\n")
    # Hard wrapping is systematic: at least two long lines break off mid-sentence. One line that
    # ends without a full stop is a line of its own ('I do not remember X\nPP sends ...').
    broken = [len(x.rstrip()) for x in lines[:-1] if len(x.rstrip()) >= _WRAP_WIDTH and _LINE_JOIN.match(x.rstrip()[-1:].lower())]
    hard_wrapped = len(broken) >= 2
    capitals: bool | None = None  # whether the writer capitalises sentence starts: read only if a lone line break needs it
    drop = _markup(text) | {k for k, c in enumerate(text) if c in _INVISIBLE}
    while i < n:
        ch = text[i]
        if i in drop:
            i += 1
        elif ch.isspace():
            j = i
            while j < n and text[j].isspace():
                j += 1
            breaks = text.count("\n", i, j)
            wrapped = at_hyphen = False
            if breaks == 1 and 0 < i and j < n and j not in drop:  # (never into the next item of a list)
                line = i - (text.rfind("\n", 0, i) + 1)
                if line >= _WRAP_WIDTH:
                    # A wrapped line: a long line broken after a word (a comma, a colon) before a
                    # lower-case word, or before a word that would not have fitted on it (the width
                    # it was wrapped at: the longest of the other broken lines). Short lines are
                    # items of a list ('ring, reduce-scatter\nall-gather'). Where only one long line breaks
                    # (a short answer wraps once), the next line must go on in lower case, and the line must
                    # end on a comma or a word no sentence ends on, unless the writer starts sentences with capitals.
                    width = max((b for b in broken if b != line), default=line)
                    next_word = _NEXT_WORD.match(text, j)
                    if hard_wrapped:
                        wrapped = bool(_LINE_JOIN.match(text[i - 1].lower())) and (text[j].islower() or line + 1 + len(next_word.group()) > width)
                    else:  # no systematic wrapping: a line broken mid-sentence before a lower-case word, where
                        # the line cannot end ('... across\nthe GPUs of a node') or the writer starts sentences with capitals
                        last = _LAST_WORD.search(text, max(i - line, i - 40), i)
                        wrapped = bool(_LINE_JOIN.match(text[i - 1].lower())) and text[i - 1] != ":" and text[j].islower()
                        if wrapped and text[i - 1] != "," and not (last and last.group().lower() in _CANNOT_END):
                            if capitals is None:
                                capitals = _starts_sentences_with_capitals(text)
                            wrapped = capitals
                    # ... or broken at a hyphen ('micro-\nbatches' is 'micro-batches').
                    at_hyphen = i > 1 and text[i - 1] == "-" and text[i - 2].isalnum() and text[j].islower()
            put("" if at_hyphen else "\n" * min(breaks, 2) if breaks and not wrapped else " ", i)
            i = j
        elif ch in _LONG_DASHES and not (ch == "\u2013" and 0 < i < n - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()):
            # A dash between clauses reads as ' - ' (a range '2\u20134' stays one word).
            pad_before = not out or out[-1][-1:] not in (" ", "\n")
            pad_after = i + 1 < n and not text[i + 1].isspace()
            put((" " if pad_before else "") + "-" + (" " if pad_after else ""), i)
            i += 1
        else:
            put(ch, i)
            i += 1
    where.append(n)
    return "".join(out), where


# Contractions spelt out, so 'doesn't' and 'does not' read the same ('it's been', 'what's happened'
# stay: 'has'; 'ain't' stays).
_CONTRACTED = re.compile(r"\b(?:(can)'t|(won)'t|(shan)'t|(?!ain't)(\w+)n't|(\w+)'(re|ve|ll|m)|"
                         r"(it|that|there|here|what|who|where|how)'s(?! (?:been|got|gotten|had|done|become|happened|made|gone|grown)\b))\b")
_FULL = {"re": "are", "ve": "have", "ll": "will", "m": "am"}


def spell_out_contractions(text: str) -> str:
    """Lower-case ``text`` with its contractions spelt out.

    >>> spell_out_contractions("it's fast, doesn't sync and we're done; it's been slow, can't tell, won't")
    "it is fast, does not sync and we are done; it's been slow, cannot tell, will not"
    >>> spell_out_contractions("what's happened ain't news, that's why")
    "what's happened ain't news, that is why"
    """
    def full(m: re.Match) -> str:
        can, won, shan, neg, who, tail, it = m.groups()
        if can:
            return "cannot"
        if won or shan:
            return ("will" if won else "shall") + " not"
        if neg:
            return neg + " not"
        if who:
            return f"{who} {_FULL[tail]}"
        return it + " is"
    return _CONTRACTED.sub(full, text)


# Idioms of idleness said with a negation word: 'the upper stages have nothing to do' says they
# are idle and denies nothing ('has nothing to do with ZeRO' still does).
IDLE_IDIOM = (r"\bnothing (?:left |else |useful |much )?to do\b(?! with)|(?:"
              + "|".join(rf"(?<=\b{v} )" for v in ("sit", "sits", "sat", "stay", "stays")) + r")doing nothing\b")


def plain_idioms(text: str) -> str:
    """``text`` (lower case) with its idioms of idleness read as 'idle'.

    >>> plain_idioms("some stages have nothing to do, the rest sit doing nothing; it has nothing to do with zero")
    'some stages have idle time, the rest sit idle; it has nothing to do with zero'
    """
    return re.sub(IDLE_IDIOM, lambda m: "idle" if m.group().startswith("doing") else "idle time", text)


def normalize(text: str) -> str:
    """Lower-case, unify dashes/quotes/unicode forms and collapse white space.

    >>> normalize("  All\u2013Reduce  over\\nNVLink ")
    'all-reduce over nvlink'
    """
    text = unicodedata.normalize("NFKC", text).translate(DASHES).translate(QUOTES)
    return _SPACE.sub(" ", text).strip().lower()


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    text: str  # lower-case surface form


def tokenize(text: str) -> list[Token]:
    """Word tokens with their character offsets in ``text``."""
    return [Token(m.start(), m.end(), m.group().lower()) for m in WORD.finditer(text)]


def root(word: str) -> str:
    """The first five letters of the stem, for words the crude stemmer leaves apart.

    >>> root("compress") == root("compresses"), root("precise") == root("precision")
    (True, True)
    """
    return stem(word)[:5]


def memo_for_short(limit: int, maxsize: int):
    """Memoise a pure function of a text (its first argument, the rest hashable) for texts of
    at most ``limit`` characters: a clause or a word recurs across checks and checkpoints, but a
    hostile 20,000-character text would only fill the memo. Results must be immutable."""

    def wrap(fn):
        cached = lru_cache(maxsize=maxsize)(fn)

        @wraps(fn)
        def call(text, *rest):
            return cached(text, *rest) if len(text) <= limit else fn(text, *rest)

        return call

    return wrap


@memo_for_short(40, 65536)  # most of an answer's words recur
def stem(word: str) -> str:
    """A deliberately crude suffix stripper: enough to match 'splits'/'split', 'batching'/'batch'.

    >>> [stem(w) for w in ("splits", "batching", "batches", "reduced", "layers", "gpus", "teacher's", "gpus'")]
    ['split', 'batch', 'batch', 'reduc', 'layer', 'gpu', 'teacher', 'gpu']
    """
    w = word.lower()
    w = (w[:-2] if w.endswith("'s") else w).rstrip("'")  # the possessive: 'the teacher's outputs
    if len(w) <= 3 or any(ch.isdigit() for ch in w):
        return w
    for suffix in ("ations", "ation", "ings", "ing", "ies", "es", "ed", "ly", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            base = w[: -len(suffix)]
            if suffix == "ies":
                return base + "y"
            if suffix == "es" and not base.endswith(("ch", "sh", "x", "ss", "z")):
                return w[:-1]
            if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2]:
                base = base[:-1]  # 'splitting' -> 'split'
            if suffix == "ed" and base.endswith("e"):
                return base[:-1]
            return base
    return w


def content_words(text: str) -> list[str]:
    """Stemmed words of ``text`` that are not function words."""
    return list(_content_words(text))


@lru_cache(maxsize=16384)
def _content_words(text: str) -> tuple[str, ...]:
    # Rubric texts are read for every answer: memoised (pure function of the string).
    # (the words straight from the pattern: no Token objects for offsets nobody reads here)
    return tuple(stem(w) for w in map(str.lower, WORD.findall(text)) if w not in STOPWORDS and len(w) > 1)


# A rubric line written about the answer rather than about the subject: 'Explains that ...', 'The
# candidate should mention ...', 'Recognises why ...'. Only the statement after it is the point.
_ANSWER_VERBS = (r"explain|mention|state|note|say|describe|identify|recogni[sz]e|point out|argue|show|discuss|name|list|give|define|"
                 r"know|understand|reali[sz]e|acknowledge|demonstrate|clarify|highlight|cite|indicate|claim|believe|think|assume|suggest")
# Who answers. 'The student' and 'the response' are as often the subject of the point itself (a
# distilled student, a step response), and so are 'you' and 'they' ('you split the layers into
# stages'): they count only before a modal and a verb that opens a clause ('You should explain that').
_ANSWER_SUBJECT = r"(?:(?:the|a|an)\s+)?(?:answer|candidate|interviewee)\s+"
_AMBIGUOUS_SUBJECT = r"(?:(?:(?:the|a|an)\s+)?(?:student|learner|response|respondent|speaker)|you|they)\s+"
_ANSWER_MODAL = r"(?:should|must|needs? to|has to|can|could|will|would|is able to|is expected to)\s+"
_ANSWER_ADVERB = r"(?:(?:correctly|clearly|explicitly|briefly|also|specifically|wrongly|mistakenly)\s+)?"
# A word that opens the clause the point is ('... that X', '... how X'), not 'when to use X', nor a
# relative clause whose verb comes next ('Lists that are long ...').
_CLAUSE_OPENER = (r"(?:that|how|why|what|whether|when|where|which)\b(?!\s+to\b)"
                  r"(?!\s+(?:is|are|was|were|can|could|will|would|must|should|has|have|had|do|does|did|matters?)\b)\s*")
_VERB = rf"{_ANSWER_ADVERB}(?:{_ANSWER_VERBS})(?:s|es|ed)?\s+"
_MEDIATED = re.compile(rf"^(?:{_ANSWER_SUBJECT}(?:{_ANSWER_MODAL})?{_VERB}(?:{_CLAUSE_OPENER})?|{_ANSWER_MODAL}{_VERB}(?:{_CLAUSE_OPENER})?|"
                       rf"{_AMBIGUOUS_SUBJECT}{_ANSWER_MODAL}{_VERB}{_CLAUSE_OPENER})", re.I)
# Alone, a verb in -s may be read past if it is no noun too; one that is ('Claims of linear
# scaling ...', 'States such as ...', 'Notes on ...') must open a clause ('Notes that ...'). A
# gerund must always open one: 'Assuming no overlap, a step takes ...' states a condition.
_BARE_VERB_S = re.compile(rf"^{_ANSWER_ADVERB}(?:(?:explains|describes|identifies|recogni[sz]es|discusses|defines|acknowledges|demonstrates|"
                          rf"clarifies|indicates|argues|believes|thinks|assumes|suggests|understands|reali[sz]es|points out|"
                          rf"(?:mentions|claims|highlights|cites)(?!\s+(?:of|in|on|about|from|to|for|by|are|were|show|made)\b))\s+(?:{_CLAUSE_OPENER})?|"
                          rf"(?:{_ANSWER_VERBS})s?\s+{_CLAUSE_OPENER}|"
                          rf"(?:thinking|believing|claiming|assuming|saying|stating|suggesting|mentioning|explaining|describing|noting|"
                          rf"recogni[sz]ing|identifying)\s+{_CLAUSE_OPENER})", re.I)


# ... or a label that says what kind of line it is: 'Myth: ...', 'Common mistake: ...' on a wrong
# claim; 'Key point: ...', 'Note: ...' on a point. (Not the other way round: 'Error: the difference
# between a measured and a true value' defines the error.)
_LABEL_TAIL = r"s?\s*(?::|\s[-\u2013\u2014])\s*"
_LABEL_ADJECTIVE = r"^(?:(?:a|the|one)\s+)?(?:(?:common|typical|frequent|classic|popular|usual|big|key|main|important)\s+)?"
_CLAIM_LABEL = re.compile(_LABEL_ADJECTIVE + r"(?:myth|misconception|misunderstanding|mistake|error|pitfall|trap|wrong(?:\s+(?:belief|claim|idea|answer))?|"
                          r"false(?:\s+(?:belief|claim))?|incorrect(?:\s+(?:belief|claim))?)" + _LABEL_TAIL, re.I)
_POINT_LABEL = re.compile(_LABEL_ADJECTIVE + r"(?:point|idea|must(?:\s+mention)?|required|bonus|note)" + _LABEL_TAIL, re.I)


# ... or the marks of a list or a mark scheme: '(a)', 'b)', a check mark before it ('1.', '- ' are
# read as in an answer: ``tidy_typography``); '(2 points)', '[required]' after it. (Not 'A.' or
# 'C.': a letter and a full stop is as often the choice an answer names as a list mark; nor a
# minus before a number: '- 1 is the rank that starts the ring'.)
_ENUMERATOR = re.compile(r"^(?:\(?(?:[0-9]{1,2}|[a-h]|[ivx]{1,4})\)|[-*\u2022\u2013](?=\s+[^\s0-9])|"
                         r"[\u2713\u2714\u2717\u2718\u274c\u25aa\u25b8\u25ba\u2192]\ufe0f?)\s+", re.I)  # also check marks, crosses, arrows
_MARKS = re.compile(r"\s*[(\[]\s*(?:[0-9]+(?:\.[0-9]+)?\s*(?:points?|pts?|marks?)|required|optional|must[- ]have|bonus|core|key point|"
                    r"wrong|false|incorrect|myth|misconception)\s*[)\]]\s*\.?\s*$", re.I)


def rubric_statement(text: str, *, claim: bool = False) -> str:
    """A checkpoint, or with ``claim`` a wrong claim, as the statement it is about, without a
    lead-in that speaks of the answer ('Explains that', 'The candidate should mention', 'Claims
    that'); the text itself when it has none, or when nothing would be left of it.

    >>> rubric_statement("Explains that gradients are averaged with an all-reduce.")
    'Gradients are averaged with an all-reduce.'
    >>> rubric_statement("The candidate should mention how the ring splits the tensor into N chunks")
    'The ring splits the tensor into N chunks'
    >>> rubric_statement("Mentions paged attention")
    'Paged attention'
    >>> rubric_statement("Thinking that the KV cache also stores the queries", claim=True)
    'The KV cache also stores the queries'
    >>> rubric_statement("Common misconception: thinking that the KV cache saves memory.", claim=True)
    'The KV cache saves memory.'
    >>> rubric_statement("Error: the difference between a measured value and the true value.")
    'Error: the difference between a measured value and the true value.'
    >>> rubric_statement("Assuming no overlap, a step takes the compute time plus the all-reduce time.")
    'Assuming no overlap, a step takes the compute time plus the all-reduce time.'
    >>> rubric_statement("The student shows most of the teacher's accuracy at a fraction of the cost.")
    "The student shows most of the teacher's accuracy at a fraction of the cost."
    >>> rubric_statement("The student should explain that the teacher's soft targets carry more information.")
    "The teacher's soft targets carry more information."
    >>> [rubric_statement(t) for t in ("Claims of linear scaling ignore the all-reduce time.", "Lists that are long take memory.")]
    ['Claims of linear scaling ignore the all-reduce time.', 'Lists that are long take memory.']
    >>> [rubric_statement(t) for t in ("You should explain that the bubble shrinks with more micro-batches.", "You should split the layers into stages.")]
    ['The bubble shrinks with more micro-batches.', 'You should split the layers into stages.']
    >>> rubric_statement("Discusses when to use tensor parallelism.")
    'When to use tensor parallelism.'
    >>> rubric_statement("- 1 is the rank that starts the ring.")
    '- 1 is the rank that starts the ring.'
    >>> rubric_statement("(b) Explains that the bubble shrinks with more micro-batches [2 pts]")
    'The bubble shrinks with more micro-batches'
    >>> rubric_statement("\u2717 Tensor parallelism works well across nodes (wrong)", claim=True)
    'Tensor parallelism works well across nodes'
    >>> rubric_statement("The `KV cache` does **not** store _queries_ (2 * N * 4 bytes, non_blocking=True).")
    'The KV cache does not store queries (2 * N * 4 bytes, non_blocking=True).'
    >>> rubric_statement("GRADIENTS ARE AVERAGED WITH AN ALL-REDUCE")
    'Gradients are averaged with an all-reduce'
    >>> rubric_statement("C. Black absorbs more heat than white, so pan C heats fastest.")
    'C. Black absorbs more heat than white, so pan C heats fastest.'
    >>> rubric_statement("2:4 sparsity keeps two of every four weights (about 50 percent sparse).")
    '2:4 sparsity keeps two of every four weights (about 50 percent sparse).'
    >>> rubric_statement("Pipeline bubble: stages sit idle while the pipeline fills and drains.")
    'Pipeline bubble: stages sit idle while the pipeline fills and drains.'
    >>> rubric_statement("States such as the optimizer moments are sharded in stage 1.")
    'States such as the optimizer moments are sharded in stage 1.'
    >>> rubric_statement("Tensor parallelism splits each layer's weight matrices across GPUs.")
    "Tensor parallelism splits each layer's weight matrices across GPUs."
    """
    rest = tidy_typography(text)[0].strip()  # read as an answer is read: Markdown, quotes, dashes
    if not any(c.islower() for c in rest) and len(re.findall(r"[A-Z]{2,}", rest)) >= 3:
        rest = rest.lower()  # written in capitals throughout: the capitals mark nothing
    rest = _read_past(rest, (_ENUMERATOR, _MARKS, _CLAIM_LABEL if claim else _POINT_LABEL, _MEDIATED, _BARE_VERB_S))
    return text if rest == text.strip() else rest[0].upper() + rest[1:]


def _read_past(text: str, marks: tuple[re.Pattern, ...]) -> str:
    """``text`` without the first match of each pattern in turn, where a statement (two content
    words or more) is left of it."""
    for mark in marks:
        unmarked = mark.sub("", text, count=1).strip()
        if len(content_words(unmarked)) >= 2:
            text = unmarked
    return text


# A question's own label or a note on how to answer it: 'Question 3:', 'Interview question:', 'Q:'
# before it; '(5 min)', '[deep dive]' after it. The question is what they label.
_PROMPT_LABEL = re.compile(r"^(?:(?:interview|practice|warm-up|follow-up)\s+)?(?:question|q)\s*[0-9]{0,3}\s*[:.)]\s+", re.I)
_PROMPT_NOTE = re.compile(r"\s*[(\[]\s*(?:[0-9]+(?:\s*[-\u2013]\s*[0-9]+)?\s*(?:min(?:ute)?s?|sec(?:ond)?s?)|warm-up|core|deep[- ]dive|easy|medium|hard)\s*[)\]]\s*$", re.I)


def prompt_statement(prompt: str) -> str:
    """A question without its label or a note on timing or difficulty, read by the grader as the
    question itself (a copy of it is no answer, and a clause no closer to a point than to it only
    names the topic).

    >>> prompt_statement("**Question 3:** How do data-parallel replicas keep their weights in sync? (5 min)")
    'How do data-parallel replicas keep their weights in sync?'
    >>> prompt_statement("Q: What is the KV cache? [deep dive]"), prompt_statement("Quantization: why does INT8 need calibration?")
    ('What is the KV cache?', 'Quantization: why does INT8 need calibration?')
    """
    text = _read_past(tidy_typography(prompt)[0].strip(), (_PROMPT_LABEL, _PROMPT_NOTE))
    return prompt if text == prompt.strip() else text
