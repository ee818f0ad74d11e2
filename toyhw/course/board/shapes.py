"""The board's held-out shapes: GEMM shapes no notebook shows, drawn the same way on every machine.

What "never shown" means: the notebooks score and show the lecture's 8 layers (`LECTURE_LAYERS`) and demo 3's two
405B/8 layers (`NEW_LAYERS`), at the lecture's token counts (`LECTURE_M`) and demo 3's (`NEW_M`). The board takes
every other layer of data/llm_layers.csv (Llama-3-8B at tensor-parallel 8, Llama-3-70B and -405B on one GPU, the
other 405B/8 layers: 15 layers) and, for each, token counts outside both lists: one decode M (1-16), two mid M
(17-512) and one prefill M (513-16384), so every regime is held out. A student tuning on the training shapes cannot
have seen one of them, and one tuning on the test or the new shapes has not either.

How the M values are drawn: log-uniformly, by octave (pick one of the regime's octaves [2^j, 2^(j+1)), then an
integer in it), each choice read from SHA-256 of a fixed text naming the layer, the slot and the try, and taken
modulo the number of choices. Integers only: no floating-point and no `random` module, whose streams are not promised
across Python versions, so the set is the same on every platform and Python. A draw that hits an excluded or already
drawn M tries again with the next try number. Change HELD_OUT_SALT and every board's held-out set changes.
"""

from __future__ import annotations

import functools
import hashlib

from toyhw.gemm import shapes as shapes_lib
from toyhw.gemm.shapes import Shape

HELD_OUT_SALT = "toyhw board held-out v1"
"""The text every draw hashes (with the layer, the slot and the try)."""
SLOTS: tuple[tuple[str, int, int], ...] = (
    ("decode", 1, 16),
    ("mid", 17, 512),
    ("mid", 17, 512),
    ("prefill", 513, 16384),
)
"""One draw per slot and layer: (regime, lowest M, highest M)."""


def _pick(n: int, *words: object) -> int:
    """Return an integer in [0, n) read from SHA-256 of the salt and `words`."""
    text = "|".join([HELD_OUT_SALT, *map(str, words)]).encode("utf-8")
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") % n


def _octaves(lo: int, hi: int) -> list[tuple[int, int]]:
    """Return the octaves [2^j, 2^(j+1)) that meet [lo, hi], cut to it, as inclusive (low, high) pairs."""
    out, j = [], 0
    while 2**j <= hi:
        a, b = max(lo, 2**j), min(hi, 2 ** (j + 1) - 1)
        if a <= b:
            out.append((a, b))
        j += 1
    return out


def held_out_layers() -> tuple[str, ...]:
    """Return the layers of data/llm_layers.csv that no notebook scores, in the file's order."""
    shown = set(shapes_lib.LECTURE_LAYERS) | set(shapes_lib.NEW_LAYERS)
    return tuple(name for name in shapes_lib.ALL_LAYERS if name not in shown)


def _draw_m(layer: str, slot: int, lo: int, hi: int, taken: set[int]) -> int:
    excluded = set(shapes_lib.LECTURE_M) | set(shapes_lib.NEW_M) | taken
    for attempt in range(10_000):
        octaves = _octaves(lo, hi)
        a, b = octaves[_pick(len(octaves), layer, slot, attempt, "octave")]
        m = a + _pick(b - a + 1, layer, slot, attempt, "m")
        if m not in excluded:
            return m
    raise AssertionError(f"no M left to draw for {layer} slot {slot}")  # [lo, hi] holds far more than 10 excluded


@functools.lru_cache(maxsize=None)
def _held_out() -> tuple[Shape, ...]:
    out = []
    for layer in held_out_layers():
        taken: set[int] = set()
        for slot, (_regime, lo, hi) in enumerate(SLOTS):
            m = _draw_m(layer, slot, lo, hi, taken)
            taken.add(m)
            out.append(shapes_lib.layer_shape(layer, m))
    return tuple(sorted(out, key=lambda s: (held_out_layers().index(s.name), s.M)))


def held_out_shapes() -> list[Shape]:
    """Return the board's held-out shapes: 4 per layer of `held_out_layers()` (60), by layer then M."""
    return list(_held_out())


def train_shapes() -> list[Shape]:
    """Return the notebooks' training shapes (the 44 of toyhw.gemm.shapes.split_shapes), which the board scores too."""
    return shapes_lib.split_shapes(shapes_lib.all_shapes())[0]
