"""Bit-level Triton: ``x.to(dtype, bitcast=True)`` (a same-width reinterpretation, Builder.bitcast) and Triton's
random numbers ``tl.randint`` / ``tl.rand`` (Philox-4x32-10).

The random functions are algorithms, not ops: rules/triton_philox.py spells them in the Triton subset this front
end lowers (uint32 / uint64 arithmetic, shifts, bitcasts, a counted loop), and a call inlines that helper like a
``@triton.jit`` helper of the kernel's own file (inline.py). While its body lowers, the kernel's file model answers
for both files (:class:`_WithLibrary`): the helper's names resolve in its file, and every op and diagnostic of its
body is located at the kernel's call.
"""

from __future__ import annotations

import functools

from ... import paths
from ...ir.types import DType
from .inline import inline
from .registry import Call, lowers
from .values import DT
from . import source

LIBRARY = paths.data("rules", "triton_philox.py")
_HELPERS = {"tl.rand": "_ctrs_philox_rand", "tl.randint": "_ctrs_philox_randint"}
N_ROUNDS = 10  # Triton's default (N_ROUNDS_DEFAULT), the helper's loop count


@functools.cache
def _library():
    return source.load(LIBRARY)


class _WithLibrary:
    """The kernel's file model, extended with the helper library's functions; a library node is located at
    ``at`` (the kernel's call), so IR locations and diagnostics stay in the user's file."""

    def __init__(self, own, lib, at):
        self._own, self._lib, self._at = own, lib, at
        self.kernels = [*lib.kernels, *own.kernels]

    def __getattr__(self, name):
        return getattr(self._own, name)

    def _of(self, node):
        return self._own if node in self._own.positions else self._lib

    def dotted(self, node):
        return self._of(node).dotted(node)

    def loc(self, node):
        return self._own.loc(node if node in self._own.positions else self._at)

    def line(self, node):
        return self._own.line(node if node in self._own.positions else self._at)


@lowers("tl.rand", "tl.randint")
def rand(lw, c: Call):
    names = ["seed", "offset", "n_rounds"]
    a = dict(zip(names, c.pos)) | c.kw
    if set(a) - set(names) or len(c.pos) > len(names) or not {"seed", "offset"} <= set(a):
        raise lw.err(c.node, f"{c.fn}(seed, offset[, n_rounds])")
    if "n_rounds" in a and lw.expr(a["n_rounds"]) != N_ROUNDS:
        raise lw.err(a["n_rounds"], f"{c.fn} with n_rounds other than {N_ROUNDS} (Triton's default)")
    lib = _library()
    fn = next(f for f in lib.kernels if f.name.value == _HELPERS[c.fn])
    own = lw.tf
    lw.tf = _WithLibrary(own, lib, c.node)
    try:
        out = inline(lw, fn, Call(c.node, fn.name.value, [a["seed"], a["offset"]], {}, c.hint))
    finally:
        lw.tf = own
    lw.note(c.node, "helper", f"{c.fn} -> Philox-4x32-10 in cuTile ops (rules/triton_philox.py: uint32 arithmetic, "
            "bitcasts, a 10-round loop)")
    return out


def bitcast_to(lw, c: Call):
    """``x.to(dtype, bitcast=True)``: the same bits as ``dtype``; ``bitcast=False`` is a plain ``.to``."""
    from .registry import CALLS  # noqa: PLC0415

    flag = c.kw["bitcast"]
    on = lw.expr(flag)
    if not isinstance(on, bool):
        raise lw.err(flag, "x.to(dtype, bitcast=...) with a flag that is not a literal True / False")
    rest = {k: v for k, v in c.kw.items() if k != "bitcast"}
    if not on:
        return CALLS[".to"](lw, Call(c.node, c.fn, c.pos, rest, c.hint))
    if len(c.pos) != 2 or rest:
        raise lw.err(c.node, "x.to(dtype, bitcast=True) with other options")
    dt = lw.expr(c.pos[1])
    if not isinstance(dt, DT) or not isinstance(dt.dtype, DType):
        raise lw.err(c.pos[1], "x.to(.., bitcast=True) to something other than a concrete dtype")
    x = lw.value(lw.expr(c.pos[0], f"{c.hint}_in" if c.hint else ""), c.pos[0])
    r = lw.bitcast(x, dt.dtype, c.node, c.hint)
    if r is not x:
        lw.keep_rank(r, x)
    return r

