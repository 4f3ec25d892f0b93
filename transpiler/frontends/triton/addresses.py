"""Pointer arithmetic beyond ``p + offsets`` (issue 18, the unsloth corpus): ``p - k`` is ``p + (-k)``; the
software-pipelining hints of a ``tl.range`` loop that walks a pointer (``num_stages=``, ...) are dropped.

Triton pointers are flat (gathers.py): subtracting an integer offset from a pointer moves it back by that many
elements, ``HI + tl.minimum(m + B, S) - 1`` is the element before ``HI + tl.minimum(m + B, S)``. The front end
keeps a pointer a compile-time :class:`~.pointers.Ptr`, so the subtrahend becomes one more summand, negated (a
translate-time int folds, a runtime value is ``negi``). A pointer minus a pointer (an element distance) has no
tile value in the port and stays refused.

A pointer moved in a loop by a scalar that is no block size of its own (``w_ptrs += BLOCK_N * K`` with ``K`` a
``tl.constexpr``, ``p += step`` with ``step`` an integer scalar computed before the loop) is moved by that many
elements on unit stride per iteration: the step is one summand ``step`` counted as one whole block of size
``step`` (``Term(idx=step, tiles=1, block=step)``), so iteration ``i`` reads ``p + i * step`` (lowering.py's
``advances``). Such a step is a block of the access's range only when it equals the range's size (a partition
view); any other step makes the access a gather over the flat array (gathers.py).
"""

from __future__ import annotations

from ... import errors
from ...ir.types import I32, I64, ScalarType
from ...ir.values import Value
from .pointers import Ptr, Range, Term
from .values import ArrayRef


def is_pointer(x) -> bool:
    return isinstance(x, ArrayRef) or isinstance(x, Ptr) and x.base is not None


def minus(lw, a, b, node):
    """``a - b`` with ``a`` a pointer: ``a + (-b)``; None when ``a`` is not a pointer (ordinary subtraction)."""
    if not is_pointer(a):
        return None
    if is_pointer(b) or isinstance(b, Range):
        what = "a pointer minus a pointer (an element distance)" if is_pointer(b) else \
            "a pointer minus a range of offsets"
        raise errors.CtrsError(errors.TRITON_POINTER_DIFF, what, "the port keeps pointers as a parameter plus "
                               "offsets and has no tile of addresses; write p + (n - 1 - offs) for reversed lanes",
                               lw.tf.loc(node))
    if isinstance(b, int) and not isinstance(b, bool):
        return lw.offset_sum(a, -b, node)
    return lw.offset_sum(a, lw.unary("-", lw.value(b, node), node, "neg_off"), node)


# tl.range's scheduling hints without a cuTile counterpart (cuTile schedules loads itself): dropped with a note;
# num_stages=S is the latency of the loop's loads, as the rewrite path has it (Triton-TileIR maps it 1:1)
_LOOP_HINTS = ("loop_unroll_factor", "disallow_acc_multi_buffer", "flatten", "warp_specialize")


def loop_args(lw, it) -> list | None:
    """The positional arguments of a ``range`` / ``tl.range`` loop, ``tl.range``'s hints noted and dropped
    (``num_stages=S`` sets ``lw.loop_latency`` for the loop's loads); None when another keyword is given (not a
    loop the subset takes)."""
    out = []
    lw.loop_latency = None
    for a in it.args:
        if a.keyword is None:
            out.append(a)
        elif a.keyword.value == "num_stages" and lw.dotted(it.func) == "tl.range":
            n = lw.expr(a.value)
            if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 10:
                lw.loop_latency = n
                lw.note(a, "hint", f"tl.range(num_stages={n}) -> latency={n} on the loads of this loop "
                        "(Triton-TileIR maps num_stages 1:1 to load latency)")
            else:
                lw.note(a, "hint", "tl.range(num_stages=..) dropped (latency takes an int in 1..10)")
        elif a.keyword.value in _LOOP_HINTS and lw.dotted(it.func) == "tl.range":
            lw.note(a, "hint", f"tl.range({a.keyword.value}=..) dropped (no cuTile counterpart)")
        else:
            return None
    return out


def load_latency(lw):
    """The latency of a load in the innermost ``tl.range(.., num_stages=S)`` loop being lowered (None: none)."""
    return lw.__dict__.get("body_latency")


def scalar_step(step):
    """``p += step`` with ``step`` an integer scalar (i32 / i64) the loop does not change: one block of ``step``
    elements on unit stride per iteration; any other step is returned as it is (lowering.py decides)."""
    if isinstance(step, Value) and isinstance(step.type, ScalarType) and step.type.dtype in (I32, I64):
        return Ptr(None, (Term(idx=step, tiles=1, block=step),))
    return step
