"""Scan family: ``ct.cumsum`` (cutile 0.3.1's ``scan_sum``). ``ct.cumprod`` and the general ``ct.scan`` need a
combining region: cutile 0.3.1 spells one only as the Rust closure of ``scan`` (cutile/src/_core.rs), which the
typed path does not write yet, so they are refused with that name."""

from __future__ import annotations

from ... import errors
from ...ir.ops import OpKind
from ...ir.types import DType, DTypeParam
from .args import bind, constant, value
from .control import dead_in_reference
from .registry import Call, lowers
from .shapes import _axis, tile


@lowers("ct.cumsum")
def cumsum(lw, c: Call):
    a = bind(lw, c, "x, /, axis=0, *, reverse=False, rounding_mode=None, flush_to_zero=False")
    x = tile(lw, c, a["x"])
    if value(lw, a["rounding_mode"]) is not None or value(lw, a["flush_to_zero"]) is not False:
        raise lw.err(c.node, "ct.cumsum with rounding_mode= / flush_to_zero= (cutile 0.3.1's scan_sum takes "
                     "neither: cutile/src/_core.rs)")
    if not isinstance(x.type.dtype, (DType, DTypeParam)):
        raise lw.err(c.node, f"ct.cumsum of a tile of {x.type.dtype}")
    # a dtype generic needs no entry per dtype: scan_sum's identity is E::ZERO, and cutile's compiler writes the
    # identity 0 of the element type it compiles for whatever value it is given (compile_scan_op)
    axis = _axis(lw, c, constant(lw, c, a, "axis", (int,), "an integer"), len(x.type.shape))
    reverse = constant(lw, c, a, "reverse", (bool,), "True or False")
    if axis != 0:
        raise errors.CtrsError(errors.IR_SCAN_AXIS, f"ct.cumsum along axis {axis}: cutile's scan_sum ignores its `dim` "
                               "and always scans axis 0 (cutile-compiler 0.3.1 and 0.5.0 src/compiler/"
                               "compile_cuda_tile_op.rs compile_scan_op writes dim 0: `.attr(\"dim\", "
                               "Attribute::i32(0))`, line 2448 of 0.3.1, line 2563 of 0.5.0; the closure `scan` of "
                               "cutile 0.5.0 src/_core.rs:2116 is the same cuda_tile.scan op through the same "
                               "function; docs/cutile-defects.md)",
                               "a permute to axis 0 around the scan is not the reference's IR (one scan along the "
                               "axis, no permutes)", lw.info.loc(c.node))
    return lw.emit(OpKind.SCAN_SUM, [x], [x.type], c.node, c.hint or "cum", axis=axis, reverse=reverse).result


@lowers("ct.sigmoid")
def sigmoid(lw, c: Call):
    """Not a function of cuTile Python 1.7.0 (cuda/tile has no ``sigmoid``; the reference cannot compile the
    call): refused with that, rather than guessing its lowering. In an arm of a constant-flag ``if`` the launches
    that fold the arm away compile in the reference: the kernel is lowered per flag value, those entries kept."""
    dead_in_reference(lw, c.node, "ct.sigmoid (not in cuTile Python 1.7.0)")
    raise errors.CtrsError(errors.IR_NOT_IN_REFERENCE, "ct.sigmoid is not a function of cuTile Python 1.7.0 (the "
                           "reference compiler: cuda.tile has no sigmoid)",
                           "write it as 1.0 / (1.0 + ct.exp(-x)); a port cannot be proven against a call the "
                           "reference does not compile", lw.info.loc(c.node))


@lowers("ct.cumprod", "ct.scan")
def scan_region(lw, c: Call):
    raise lw.err(c.node, f"{c.fn}: cutile 0.3.1 has no product scan; its `scan(operand, dim, reverse, identity, f)` "
                 "takes the combining function as a Rust closure (cutile/src/_core.rs), not spelled by the typed path")


@lowers("ct.argmax", "ct.argmin")
def arg_reduce(lw, c: Call):
    raise lw.err(c.node, f"{c.fn}: the reference reduces (value, index) pairs in one region; cutile 0.3.1's "
                 "`reduce(operand, dim, identity, f)` takes one operand (cutile/src/_core.rs)")
