"""GEMM shapes of LLM layers: C[M, N] = A[M, K] B[K, N] with M = tokens in the batch, (N, K) = the layer's weight.

The lecture-14 script scores tiling heuristics on its 8 `LAYERS` x 11 token counts, from decode (M = 1-16: one token
per sequence, a skinny GEMM that streams the weights) to prefill (thousands of tokens, a square-ish compute-bound GEMM).
Its demo 3 then asks how a heuristic does on 100 shapes it was never scored on: two more 405B/8 layers and 10 M values
the lecture's shapes do not use. Layer shapes are read from data/llm_layers.csv.
"""

from __future__ import annotations

import dataclasses
import functools

from toyhw import data
from toyhw.checks import UnknownNameError


MAX_DIM = 2**31 - 1
"""The largest M, N or K: Triton and cuBLAS index a GEMM's rows and columns with 32-bit integers."""


@dataclasses.dataclass(frozen=True)
class Shape:
    """One GEMM problem.

    Attributes:
        name: the layer's name ("70B/8 qkv").
        M: rows of A and C (tokens).
        N: columns of B and C (the layer's output features on one GPU).
        K: the reduction depth (input features).
    """

    name: str
    M: int
    N: int
    K: int

    def __post_init__(self) -> None:
        for field in ("M", "N", "K"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_DIM:
                raise ValueError(
                    f"Shape.{field} = {value!r} is not allowed; it must be an integer >= 1 and <= {MAX_DIM:,} (MAX_DIM)"
                )
        # cached: shapes are dict keys of every per-shape cache, hashed millions of times by the evolution loop
        object.__setattr__(self, "_hash", hash((self.name, self.M, self.N, self.K)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined]

    def __getstate__(self) -> dict:
        """Return the pickled state without the cached hash: a string's hash differs from process to process."""
        return {"name": self.name, "M": self.M, "N": self.N, "K": self.K}

    def __setstate__(self, state: dict) -> None:
        for field, value in state.items():
            object.__setattr__(self, field, value)
        object.__setattr__(self, "_hash", hash((self.name, self.M, self.N, self.K)))

    def label(self) -> str:
        """Return a readable label like "70B/8 qkv M=16"."""
        return f"{self.name} M={self.M}"

    def flops(self) -> float:
        """Return the useful work 2MNK (FLOP)."""
        return 2.0 * self.M * self.N * self.K


LECTURE_LAYERS = ("8B qkv", "8B o", "8B gate_up", "8B down", "70B/8 qkv", "70B/8 o", "70B/8 gate_up", "70B/8 down")


@functools.lru_cache(maxsize=None)
def _layer_tables() -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    every = {str(r["name"]): (int(r["n"]), int(r["k"])) for r in data.layer_rows()}  # type: ignore[arg-type]
    return every, {name: every[name] for name in LECTURE_LAYERS}


def __getattr__(name: str) -> dict[str, tuple[int, int]]:
    """Return ALL_LAYERS or LAYERS, read from data/llm_layers.csv on first use (not at import).

    Why lazily: importing the module must not read a data file, so that a broken file is reported where it is used
    (with its file, line and column) and `python -m toyhw` builds its parser without reading any data.
    """
    if name == "ALL_LAYERS":
        return _layer_tables()[0]
    if name == "LAYERS":
        return _layer_tables()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


ALL_LAYERS: dict[str, tuple[int, int]]
"""Every layer of data/llm_layers.csv: name -> (N, K) (read on first use)."""
LAYERS: dict[str, tuple[int, int]]
"""The lecture's 8 layers: Llama-3-8B at tensor-parallel 1 and Llama-3-70B at 8, name -> (N, K) (read on first use)."""

NEW_LAYERS = ("405B/8 qkv", "405B/8 down")
LECTURE_M: tuple[int, ...] = (1, 4, 16, 24, 48, 64, 128, 256, 512, 2048, 8192)
"""Token counts of the lecture's shapes: decode (1-16), mid (24-512), prefill (thousands)."""
NEW_M: tuple[int, ...] = (2, 8, 32, 96, 192, 384, 768, 1536, 3072, 6144)
"""Demo 3's token counts, none of them in LECTURE_M."""

REGIMES = (("decode", 1, 16), ("mid", 17, 512), ("prefill", 513, None))
"""The pack's GEMM regimes by M, a convention: decode (M <= 16), mid (17-512), prefill (M > 512).

What the regimes are is not a number. Decode generates one new token per sequence, so its M is the number of sequences
decoded together (a serving engine's batch: 32-256 is ordinary); prefill processes prompt tokens, M = the prompt
tokens in the batch. The cut-offs only sort the lecture's token counts: up to 16, one block of the smallest tile
(BLOCK_M = 16) holds every row and the GEMM streams its weights, the small-batch decode the lecture script calls
decode; from 24 to 512 the tile and split-K choices change with M (large decode batches and short prompts alike);
the lecture's prefill shapes are its thousands of prompt tokens (2048 and 8192), and any M above 512 counts with them.
"""


def regime(M: int) -> str:
    """Return the pack's GEMM regime of a token count: "decode" (M <= 16), "mid" (17-512) or "prefill" (> 512).

    One definition for every table that groups shapes by regime (the report's closeness, validate's errors); see
    REGIMES for what the names mean and why the cut-offs are a convention.
    """
    if isinstance(M, bool) or not isinstance(M, int) or M < 1:
        raise ValueError(f"M = {M!r} is not allowed; M must be an integer >= 1")
    for name, lo, hi in REGIMES:
        if M >= lo and (hi is None or M <= hi):
            return name
    raise AssertionError("REGIMES covers every M >= 1")


def layer_shape(name: str, M: int) -> Shape:
    """Return the Shape of layer `name` (any row of data/llm_layers.csv) at M tokens; UnknownNameError (a KeyError
    and a ValueError) lists the known layers."""
    layers = _layer_tables()[0]
    if not isinstance(name, str) or name not in layers:
        raise UnknownNameError(f"unknown layer {name!r}; known layers: {', '.join(layers)}")
    if isinstance(M, bool) or not isinstance(M, int) or not 1 <= M <= MAX_DIM:
        raise ValueError(f"M = {M!r} is not allowed; M must be an integer >= 1 and <= {MAX_DIM:,} (MAX_DIM)")
    n, k = layers[name]
    return Shape(name, M, n, k)


def all_shapes() -> list[Shape]:
    """Return the lecture's 88 shapes: for each layer of LAYERS (in order), each M of LECTURE_M (ascending)."""
    return [Shape(name, m, n, k) for name, (n, k) in _layer_tables()[1].items() for m in LECTURE_M]


def split_shapes(shapes: list[Shape]) -> tuple[list[Shape], list[Shape]]:
    """Return (train, test): alternate shapes in a checkerboard over (layer, M) so both halves mix every regime.

    Within each layer the shapes are sorted by M and alternate train/test, starting with train on every other layer;
    so each half holds decode, mid and prefill shapes of every layer (AlphaEvolve split its shapes half and half too).
    """
    layers: list[str] = []
    for s in shapes:
        if s.name not in layers:
            layers.append(s.name)
    train: list[Shape] = []
    test: list[Shape] = []
    for i, name in enumerate(layers):
        for j, s in enumerate(sorted((s for s in shapes if s.name == name), key=lambda s: (s.M, s.N, s.K))):
            (train if (i + j) % 2 == 0 else test).append(s)
    return train, test


def new_shapes() -> list[Shape]:
    """Return demo 3's 100 shapes: (LAYERS + 405B/8 qkv + 405B/8 down) x NEW_M."""
    every, lecture = _layer_tables()
    return [Shape(name, m, *every[name]) for name in list(lecture) + list(NEW_LAYERS) for m in NEW_M]
