"""Glossary matching: map spellings, abbreviations and speech-recognition mishearings of domain
terms to one canonical form, so that "all produce over envy link" reads as
"all-reduce over nvlink" for both the embedding and the word-level signals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from app.scoring.text import normalize


def concept_key(term: str) -> str:
    """A one-token key for a term: 'All-Reduce' -> 'allreduce', '2:4 sparsity' -> '24sparsity'."""
    return re.sub(r"[^a-z0-9]", "", normalize(term))


def _pattern(phrase: str) -> str:
    # Separators inside a phrase match any run of space/hyphen/nothing: 'all reduce' ~ 'all-reduce' ~ 'allreduce'.
    parts = [re.escape(p) for p in re.split(r"[\s\-_]+", normalize(phrase)) if p]
    return r"[\s\-]*".join(parts)


def _spelt_out(phrase: str) -> str | None:
    """The pattern of a short acronym said letter by letter, as a transcriber writes it ('f s d p',
    'b f 16'), or None for a phrase that is no acronym (two to five letters and digits, at least
    two letters; 'a100' is not spelt out, since 'a 100' is an article and a number).

    >>> re.fullmatch(_spelt_out("fsdp"), "f s d p") is not None, _spelt_out("a100"), _spelt_out("all reduce")
    (True, None, None)
    """
    key = normalize(phrase)
    if not re.fullmatch(r"[a-z0-9]{2,5}", key):
        return None
    parts = re.findall(r"[a-z]|[0-9]+", key)
    if sum(p.isalpha() for p in parts) < 2:
        return None
    return r"[\s\-]+".join(parts)


@dataclass(frozen=True)
class TermMatcher:
    """Rewrites variants to canonical terms. Build once per glossary; ``canonicalize`` is pure.

    >>> m = TermMatcher.build([("all-reduce", ("all produce", "allreduce")), ("NVLink", ("envy link",))])
    >>> m.canonicalize("we all produce the grads over envy link")
    'we all-reduce the grads over nvlink'
    >>> sorted(m.keys_in("we all-reduce the grads over nvlink"))
    ['allreduce', 'nvlink']
    """

    regex: re.Pattern | None
    canonical: dict[str, str] = field(default_factory=dict)  # normalized variant -> canonical (normalized)
    key_regex: re.Pattern | None = None
    keys: dict[str, str] = field(default_factory=dict)  # canonical (normalized) -> key
    heads: dict[str, str] = field(default_factory=dict)  # short form (normalized) -> key
    words: frozenset[str] = frozenset()  # every word of every term, variant and short form (normalized)
    named_by: dict[str, frozenset[str]] = field(default_factory=dict)  # key -> the words of its term and variants

    @classmethod
    def build(cls, terms: Iterable[tuple]) -> "TermMatcher":
        """From (term, variants) or (term, variants, short forms) tuples."""
        terms = [tuple(t) + ((),) * (3 - len(t)) for t in terms]
        heads = {normalize(h): concept_key(t[0]) for t in terms for h in t[2] if normalize(h)}
        named_by = {concept_key(t): frozenset(w for v in (t, *vs) for w in re.findall(r"[a-z0-9]+", normalize(v))) for t, vs, _ in terms}
        words = frozenset().union(*named_by.values(), *(re.findall(r"[a-z0-9]+", h) for h in heads))
        terms = [(term, tuple(variants)) for term, variants, _ in terms]
        canonical: dict[str, str] = {}
        keys: dict[str, str] = {}
        for term, variants in terms:
            canon = normalize(term)
            keys[canon] = concept_key(term)
            for v in (term, *variants):
                nv = normalize(v)
                if nv and len(concept_key(nv)) >= 2:
                    canonical.setdefault(re.sub(r"[\s\-_]+", "", nv), canon)
        if not canonical:
            return cls(None, heads=heads, words=words, named_by=named_by)
        variants_sorted = sorted({normalize(v) for t, vs in terms for v in (t, *vs)}, key=len, reverse=True)
        patterns = [_pattern(v) for v in variants_sorted if len(concept_key(v)) >= 2]
        # An acronym said letter by letter ('t p', 'h b m') reads as the acronym.
        patterns += [sp for v in variants_sorted if (sp := _spelt_out(v))]
        alternation = "|".join(patterns)
        regex = re.compile(rf"(?<![a-z0-9])(?:{alternation})(?![a-z0-9])")
        key_alt = "|".join(_pattern(c) for c in sorted(keys, key=len, reverse=True))
        key_regex = re.compile(rf"(?<![a-z0-9])(?:{key_alt})(?![a-z0-9])")
        return cls(regex, canonical, key_regex, keys, heads, words, named_by)

    def canonicalize(self, text: str) -> str:
        """Normalise ``text`` and replace every glossary variant with its canonical term."""
        return _canonicalize(self, text)

    def _canonicalize(self, text: str) -> str:
        text = normalize(text)
        if self.regex is None:
            return text

        def swap(m: re.Match) -> str:
            squashed = re.sub(r"[\s\-_]+", "", m.group())
            return self.canonical.get(squashed, m.group())

        return self.regex.sub(swap, text)

    def __hash__(self) -> int:  # identity: a matcher is built once per glossary
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other

    def keys_in(self, canonical_text: str) -> set[str]:
        """Concept keys of the canonical terms that occur in already-canonicalised text."""
        if self.key_regex is None:
            return set()
        found = set()
        for m in self.key_regex.finditer(canonical_text):
            key = concept_key(m.group())
            found.add(key)
        return found

    def key_positions(self, canonical_text: str) -> list[tuple[int, str]]:
        """(offset, key) of each canonical term in already-canonicalised text, in order."""
        if self.key_regex is None:
            return []
        return [(m.start(), concept_key(m.group())) for m in self.key_regex.finditer(canonical_text)]


@lru_cache(maxsize=32768)
def _canonicalize(matcher: TermMatcher, text: str) -> str:
    # Rubric texts are canonicalised for every answer they grade: memoised per matcher.
    return matcher._canonicalize(text)
