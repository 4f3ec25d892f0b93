"""An array parameter whose rank depends on a ct.Constant flag (``Bias`` read as ``[H]`` under ``BIAS_TYPE == 3``
and as ``[B, H, S, S]`` under ``BIAS_TYPE == 2``): cuTile Python compiles one launch per flag value and types only
the arms it keeps, so each launch sees one rank. The port is split the same way (a structural variant per
value, frontends/cutile/__init__.py lower_kernel): Lowering._array_ranks records each array's rank per call site
with the flag tests around it, skips the arms a variant's fixed flags fold away, and on two ranks asks for a
split on the innermost flag tested around a conflicting site. An array a variant does not read keeps the rank
of its first use in the source (the reference sees whatever the host passes; TileGym passes an empty rank-1
tensor for an unused optional array).

The same scan splits an array read element-wise (a raw pointer in the port) in one flag arm and through a
``ct.load`` view without zero padding in another (split_on_access_conflict: TileGym's fp8 matmul USE_TMA)."""

from __future__ import annotations

import operator

import libcst as cst

from .module import Structural

_CMP = {cst.Equal: operator.eq, cst.NotEqual: operator.ne, cst.LessThan: operator.lt,
        cst.LessThanEqual: operator.le, cst.GreaterThan: operator.gt, cst.GreaterThanEqual: operator.ge}


def _flag_params(fn: cst.FunctionDef) -> set[str]:
    return {p.name.value for p in fn.params.params}


def tested_flag(test, fn: cst.FunctionDef) -> str | None:
    """The parameter of ``fn`` an ``if`` tests as a flag (``F``, ``not F``, ``F <op> literal``), or None."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        test = test.left
    return test.value if isinstance(test, cst.Name) and test.value in _flag_params(fn) else None


def fold_flag_test(test, fixed: dict, other: dict, consts: dict) -> bool | None:
    """The value of a flag test under a variant's ``fixed`` values (and its "any other value" flags: ``==`` /
    ``!=`` on the literals they stand apart from), or None when it does not fold."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        v = fold_flag_test(test.expression, fixed, other, consts)
        return None if v is None else not v
    if isinstance(test, cst.Name):
        return bool(fixed[test.value]) if test.value in fixed else None
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(test.left, cst.Name)):
        return None
    comp = test.comparisons[0]
    rhs = comp.comparator
    lit = int(rhs.value, 0) if isinstance(rhs, cst.Integer) else (
        consts.get(rhs.value) if isinstance(rhs, cst.Name) else None)
    op = _CMP.get(type(comp.operator))
    name = test.left.value
    if not isinstance(lit, int) or op is None:
        return None
    if name in fixed:
        return op(int(fixed[name]), lit)
    if name in other and lit in other[name] and op in (operator.eq, operator.ne):
        return op is operator.ne
    return None


def split_on_rank_conflict(sites: dict, params: list[str], fixed: dict, other: dict) -> None:
    """Raise Structural on the flag to split when an array is read at two ranks (``sites``: array -> [(rank,
    line, flags tested around the site, outermost first)])."""
    for name, uses in sites.items():
        first = uses[0]
        for rank, line, flags in uses[1:]:
            if rank == first[0]:
                continue
            for flag in [*reversed(flags), *reversed(first[2])]:
                if flag in params and flag not in fixed and flag not in other:
                    raise Structural(flag, line, f"array '{name}' is read at rank {first[0]} (line {first[1]}) and "
                                                 f"at rank {rank} (line {line})")
            return


def view_access(call: str | None, kw: dict, info) -> str | None:
    """How a call reads its array for :func:`split_on_access_conflict`: ``"raw"`` for an element-wise pointer
    call (ct.gather / ct.scatter / atomics), ``"view"`` for a ``ct.load`` whose padding is not ZERO (no
    ``padding_mode``, or another member spelled out), None otherwise (a ZERO or non-literal padding, a store)."""
    from .registry import POINTER_CALLS  # noqa: PLC0415

    if call in POINTER_CALLS:
        return "raw"
    if call != "ct.load":
        return None
    pad = kw.get("padding_mode")
    if pad is None:
        return "view"
    member = info.dotted(pad) if isinstance(pad, cst.Attribute) else None
    return "view" if member is not None and not member.endswith(".ZERO") else None


def split_on_access_conflict(sites: dict, params: list[str], fixed: dict, other: dict) -> None:
    """Raise Structural on the flag to split when an array is read element-wise (a raw pointer in the port) and
    through a ``ct.load`` view without zero padding, in arms of a constant-flag ``if`` (``sites``: array ->
    [("raw"|"view", line, flags tested around the site, outermost first)]). cutile partitions a raw array's
    local tensor with zero padding only (emitters/ir_rust.py raw_views), but the reference compiles one launch
    per flag value, so a launch that keeps only the view arm has no raw pointer: one entry per value does too."""
    for name, uses in sites.items():
        raw = [u for u in uses if u[0] == "raw"]
        view = [u for u in uses if u[0] == "view"]
        if not raw or not view:
            continue
        for (_, line, flags), (_, other_line, _) in ((view[0], raw[0]), (raw[0], view[0])):
            for flag in reversed(flags):
                if flag in params and flag not in fixed and flag not in other:
                    s = Structural(flag, line, f"array '{name}' is read through a view without zero padding and "
                                               f"element-wise (line {other_line}): a raw pointer in the port")
                    s.literals = {0}  # `if FLAG:` tests it against 0 (its literals are added by lower_kernel)
                    raise s
        return
