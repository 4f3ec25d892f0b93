"""Derived const generics: a shape dimension computed from const generics (both front ends).

cuTile Python folds ``N * N`` / ``BLOCK // 2`` of ``ct.Constant`` values (Triton: of ``tl.constexpr`` values) to a
number at JIT time, so a tile shape may be any integer expression of them (``ct.load(.., shape=(1, N * N))``,
``tl.arange(0, HEAD_DIM // 2)``). cutile's shapes take a literal or a const-generic *name* only (its kernel macro
rejects ``{[N / 2]}``), so such a dimension becomes a const generic of its own, ``N_X_N``, declared after the
others: its :class:`~ctrs.ir.ops.Generic` has ``origin == "derived"`` and ``expr`` (a
:class:`~ctrs.ir.constexpr.ConstExpr` over the ``constant`` generics only: a derived one it names is inlined). The
host computes its value from the launch's constants wherever it picks the others (ffi.rs's dispatcher, ``ctrs
check``'s generics_for), with Python's flooring ``//`` / ``%``; the IR verifier checks that every derived generic
is an expression of const generics declared before it (ir/verify.py). The port's Tile IR then has the same
concrete shape per launch as the reference's.
"""

from __future__ import annotations

from ..ir.constexpr import ConstExpr
from ..ir.ops import Generic
from ..ir.types import I32, ScalarType, Sym, TileType
from ..ir.values import Value

# a derived generic's name spells its expression: N * N -> N_X_N, BLOCK // 2 -> BLOCK_DIV_2
_NAME_OPS = {"+": "PLUS", "-": "MINUS", "*": "X", "//": "DIV", "%": "MOD", "&": "AND", "|": "OR", "^": "XOR"}


def as_const(table: dict, v) -> ConstExpr | None:
    """``v`` (a const symbol, a Python int, or a Value ``table`` knows: value id -> ConstExpr) as an expression."""
    if isinstance(v, Sym):
        return ConstExpr.sym(v.name)
    if isinstance(v, Value):
        return table.get(v.id)
    return ConstExpr.literal(v) if isinstance(v, int) and not isinstance(v, bool) else None


def remember(table: dict, op: str, a, b, result) -> None:
    """Record in ``table`` the expression of an i32 ``result = a <op> b`` whose operands are const expressions."""
    if not isinstance(result, Value) or result.type not in (ScalarType(I32), TileType(I32, ())):
        return
    ea, eb = as_const(table, a), as_const(table, b)
    e = ConstExpr.binary(op, ea, eb) if ea is not None and eb is not None else None
    if e is not None and e.syms():
        table[result.id] = e


def is_dim_expr(e: ConstExpr | None) -> bool:
    """An integer expression (no comparison / truth test anywhere) over at least one const generic."""
    return e is not None and bool(e.syms()) and e.integer()


def derived_name(e: ConstExpr) -> str:
    if e.op == "sym":
        return e.args[0]
    if e.op == "int":
        return str(e.args[0]) if e.args[0] >= 0 else f"NEG{-e.args[0]}"
    if e.op == "neg":
        return f"NEG_{derived_name(e.args[0])}"
    a, b = (derived_name(x) for x in e.args)
    if e.op == "cdiv":
        return f"CDIV_{a}_{b}"
    return f"{a}_{_NAME_OPS[e.op]}_{b}"


def derived_generic(lw, e: ConstExpr, node) -> Sym:
    """The const generic standing for shape dimension ``e`` (one per distinct expression of a kernel), appended to
    ``lw.generics`` (the front end's host-computed generics, declared after the parameters' own)."""
    derived = {g.name: g.expr for g in lw.generics if g.origin == "derived"}
    e = e.substitute(derived)  # only the constant generics remain
    for g in lw.generics:
        if g.origin == "derived" and g.expr == e:
            return Sym(g.name)
    taken = {p.name.value for p in lw.fn.params.params} | {g.name for g in lw.generics} | set(lw.env)
    base = name = derived_name(e)
    if not name[0].isalpha():  # 2 * T: a Rust name starts with a letter
        base = name = f"C{name}"
    i = 2
    while name in taken:
        name, i = f"{base}_{i}", i + 1
    lw.generics.append(Generic(name, "const", "derived", f"{e.python()} (host-computed)", expr=e))
    return Sym(name)


__all__ = ["as_const", "derived_generic", "derived_name", "is_dim_expr", "remember"]
