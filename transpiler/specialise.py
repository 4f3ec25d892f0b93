"""Specialisation: which kernel inputs become Rust generics, and constant-branch variants.

* ``ct.Constant[int]`` / ``ct.Constant[bool]`` params -> ``const X: i32`` (bool as 0/1, tested ``X == 1i32``);
* array dtypes -> one type generic ``E: ElementType``;
* in-kernel dtype tests (``ct.tfloat32 if A.dtype == ct.float32 else A.dtype``) -> an explicit
  ``const FLAG: i32`` generic (host computes it; Rust cannot match on ``E``). The kernel is lowered once
  per flag value and the two bodies are merged: the common prefix/suffix stays shared and only the
  statements that differ go under ``if FLAG == 1i32 { .. } else { .. }`` (folded by the cuTile JIT).
See porting-rules.md section 7.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import model

ELEMENT_GENERIC = "E"


@dataclass(frozen=True)
class DtypeTest:
    """``then if ARRAY.dtype == DTYPE else otherwise`` seen in a kernel (dtypes as Rust names)."""
    flag: str
    array: str
    dtype: str
    then: str
    span: model.Span


def dtype_flag_name(array: str, dtype: str, then: str) -> str:
    if dtype == "f32" and then == "tf32":
        return "CAST_TF32"
    return f"IS_{array.upper()}_{dtype.upper()}"


def param_generics(params: list[model.Param], tests: list[DtypeTest]) -> list[model.Generic]:
    gens: list[model.Generic] = []
    if any(p.kind == "array" for p in params):
        gens.append(model.Generic(ELEMENT_GENERIC, "type", "array_dtype", "element type of every array"))
    for p in params:
        if p.kind == "constant":
            gens.append(model.Generic(p.name, "const", "constant", "ct.Constant"))
    for t in tests:
        if all(g.name != t.flag for g in gens):
            gens.append(model.Generic(t.flag, "const", "dtype_flag",
                                      f"1 when {t.array}.dtype == {t.dtype} (host-computed)"))
    return gens


_WORD = re.compile(r"[A-Za-z_]\w*")


def _defined(stmts: list) -> set[str]:
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, model.Let):
            out.add(s.name)
        elif isinstance(s, model.For):
            out |= _defined(s.body)
        elif isinstance(s, model.IfConst):
            out |= _defined(s.then) | _defined(s.otherwise)
    return out


def _used(stmts: list) -> set[str]:
    out: set[str] = set()
    for s in stmts:
        if isinstance(s, (model.Let, model.Assign)):
            out.add(s.name) if isinstance(s, model.Assign) else None
            for _, v in s.op.operands:
                out |= set(_WORD.findall(v))
        elif isinstance(s, model.For):
            out |= set(_WORD.findall(s.start)) | set(_WORD.findall(s.stop)) | _used(s.body)
        elif isinstance(s, model.IfConst):
            out |= _used(s.then) | _used(s.otherwise)
    return out


def merge(cond: str, a: list, b: list, span: model.Span) -> list:
    """Merge the flag=1 body ``a`` and the flag=0 body ``b`` into one body with a minimal const ``if``."""
    if a == b:
        return a
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    j = 0
    while j < n - i and a[len(a) - 1 - j] == b[len(b) - 1 - j]:
        j += 1
    mid_a, mid_b = a[i:len(a) - j], b[i:len(b) - j]
    suffix = a[len(a) - j:]
    if suffix and (_defined(mid_a) | _defined(mid_b)) & _used(suffix):
        mid_a, mid_b, suffix = a[i:], b[i:], []  # a branch-local name is used later: keep it in the arms
    if (len(mid_a) == 1 and len(mid_b) == 1 and isinstance(mid_a[0], model.For) and isinstance(mid_b[0], model.For)
            and (mid_a[0].var, mid_a[0].start, mid_a[0].stop) == (mid_b[0].var, mid_b[0].start, mid_b[0].stop)):
        fa = mid_a[0]
        merged = [model.For(fa.var, fa.start, fa.stop, merge(cond, fa.body, mid_b[0].body, span), fa.span, fa.carried)]
    else:
        first = (mid_a or mid_b)[0]
        merged = [model.IfConst(cond, mid_a, mid_b, getattr(first, "span", span))]
    return a[:i] + merged + suffix


def specialise(front) -> model.Kernel:
    """Lower ``front`` (a frontend_cutile.KernelFront) once per dtype-flag assignment and merge."""
    tests = front.dtype_tests()
    flags = sorted({t.flag for t in tests}, key=[t.flag for t in tests].index)

    def lower_all(fixed: dict[str, bool], rest: list[str]) -> list:
        if not rest:
            return front.lower(dict(fixed))
        f, more = rest[0], rest[1:]
        on = lower_all({**fixed, f: True}, more)
        off = lower_all({**fixed, f: False}, more)
        return merge(f"{f} == 1i32", on, off, front.span)

    body = lower_all({}, flags)
    params = front.params()
    return model.Kernel(front.name, params, param_generics(params, tests), body, front.span)


__all__ = ["DtypeTest", "dtype_flag_name", "param_generics", "merge", "specialise"]
