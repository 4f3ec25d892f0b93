"""What the cuTile Python text-model front end's modules share (frontend_cutile and its mixins controlflow,
ops_cutile, mem_cutile, and specialise): the rules table, the lowering-time value, literal spelling, and the
signals a constant branch raises. It imports none of them, so they import it at module level (no cycle).
"""

from __future__ import annotations

import decimal
import struct
from dataclasses import dataclass, field
from functools import cache

import libcst as cst

from . import model, paths, rules_loader

MAX_INLINE_DEPTH = 16


class Structural(Exception):
    """A constant branch whose arms cannot share one Rust body (tile types/ranks differ)."""

    def __init__(self, flag: str, line: int, why: str):
        super().__init__(f"{flag}: {why}")
        self.flag, self.line, self.why = flag, line, why


class Split(Exception):
    """A constant branch the Rust ``if`` form cannot express (a name bound in one arm only is used
    after it): specialise.py lowers the flag once per value and merges the bodies instead."""

    def __init__(self, flag: str, line: int, why: str):
        super().__init__(f"{flag}: {why}")
        self.flag, self.line, self.why = flag, line, why


RULES_PATH = paths.data("rules", "cutile.toml")


@cache
def load_rules(path: str = str(RULES_PATH)) -> dict:
    """rules/cutile.toml (or another file of its schema, rules_loader.CUTILE), checked and loaded once."""
    return rules_loader.load("cutile", path)


def declaration(template: str) -> str:
    """The module-local op declaration (rules [declarations] names) a rule template calls, e.g. ``exp_approx`` for
    ``exp_approx({x}, rounding::Approx)``: the called function at the template's head; "" for a crate op."""
    head = template.partition("(")[0]
    return head if head in load_rules()["declarations"]["names"] else ""


def const_generic_names(params) -> dict[str, str]:
    """Python name -> kernel.rs name of every const generic (a ``ct.Constant`` parameter, ``kind == "constant"``).
    cutile 0.3.1's JIT substitutes the shape generic of its variadic types (``Tile<E, D>``, ``Partition<E, D>``)
    by name, so a kernel constant named ``D`` panics it ("Unexpected const arg D for variadic type"): a name of
    rules/cutile.toml ``[reserved_consts]`` is spelled with a trailing ``_`` (more while that is taken) wherever
    kernel.rs names it. The host side (FFI, wrapper, specs) keeps the Python name; generics pass by position."""
    taken = {p.name for p in params}
    return {p.name: const_spelling(p.name, taken) for p in params if p.kind == "constant"}


def const_spelling(name: str, taken=frozenset()) -> str:
    """kernel.rs name of the const generic ``name`` (see const_generic_names); ``taken``: names it must avoid."""
    if name not in load_rules().get("reserved_consts", {}).get("names", []):
        return name
    name += "_"
    while name in taken:
        name += "_"
    return name


# ---------------------------------------------------------------------------------------------- values


@dataclass
class Val:
    """A Python-side value during lowering."""
    kind: str  # tile | scalar | array | dtype | shape | literal
    name: str = ""  # Rust expression naming it (tile/scalar/array)
    type: model.Type | None = None
    dtype: str = ""  # element type (tile/scalar/array) or the dtype itself (kind dtype)
    value: object = None  # literal value
    ndim: int = 0
    let: model.Let | None = None  # defining let (so loop-carried values can become `let mut`)
    origin: str = ""  # the array an E tile was loaded/gathered from (KernelFront._retype_mixed)


def float_literal(v: float, dtype: str = "f32") -> str:
    """Decimal literal that round-trips in the target precision (docs/porting.md §8)."""
    if dtype == "f32":
        if v == float("-inf"):
            return "-340282346638528859811704183484516925440.0f32"
        if v == float("inf"):
            return "340282346638528859811704183484516925440.0f32"
        v = struct.unpack("f", struct.pack("f", float(v)))[0]
    text = format(decimal.Decimal(repr(float(v))), "f")
    if "." not in text:
        text += ".0"
    return f"{text}{dtype}"


def literal_text(v: object, dtype: str) -> str:
    if dtype.startswith("f") or dtype in ("bf16", "tf32"):
        return float_literal(float(v), dtype if dtype in ("f32", "f64") else "f32")
    if isinstance(v, float) and not v.is_integer():
        raise ValueError(v)
    return f"{int(v)}{dtype}"


def literal_value(v: cst.BaseExpression) -> object | None:
    if isinstance(v, cst.Integer):
        return int(v.evaluated_value)
    if isinstance(v, cst.Float):
        return float(v.evaluated_value)
    if isinstance(v, cst.Name) and v.value in ("True", "False"):
        return v.value == "True"
    if isinstance(v, cst.UnaryOperation) and isinstance(v.operator, cst.Minus):
        inner = literal_value(v.expression)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner
    return None


@dataclass
class _Block:
    stmts: list = field(default_factory=list)


def _is_docstring(stmt) -> bool:
    return (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)
            and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))


def dotted_text(node) -> str:
    """``a.b.c`` of a Name / Attribute chain ("" for anything else)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{dotted_text(node.value)}.{node.attr.value}"
    return ""


def slice_kinds(node: cst.Subscript) -> list[str] | None:
    """``x[:, None]`` -> ``[":", "None"]``: the new-axis subscript of a tile or a range, None for any other."""
    kinds = []
    for el in node.slice:
        sl = el.slice
        if isinstance(sl, cst.Slice) and sl.lower is None and sl.upper is None and sl.step is None:
            kinds.append(":")
        elif isinstance(sl, cst.Index) and isinstance(sl.value, cst.Name) and sl.value.value == "None":
            kinds.append("None")
        else:
            return None
    return kinds


def compared_literals(bodies, flag: str, value) -> set[int]:
    """The int literals a ``ct.Constant`` ``flag`` is compared with (``FLAG == 2``, ``3 != FLAG``) in ``bodies``;
    ``value(node)`` is the translate-time value of the other side, or None. Both cuTile front ends emit one
    structural variant per literal from it."""
    lits: set[int] = set()

    class V(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            if len(node.comparisons) != 1:
                return
            sides = (node.left, node.comparisons[0].comparator)
            for a, b in (sides, sides[::-1]):
                if isinstance(a, cst.Name) and a.value == flag:
                    v = value(b)
                    if isinstance(v, int) and not isinstance(v, bool):
                        lits.add(v)

    for body in bodies:
        body.visit(V())
    return lits


def assigned_names(body, loop_targets: bool = False) -> set[str]:
    """Names a function body (or a list of statements) binds by assignment or augmented assignment, and,
    with ``loop_targets``, as a ``for`` target: shared by both cuTile front ends."""
    out: set[str] = set()

    class V(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            if isinstance(node.target, cst.Name):
                out.add(node.target.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                out.add(node.target.value)

        def visit_For(self, node: cst.For) -> None:
            if loop_targets and isinstance(node.target, cst.Name):
                out.add(node.target.value)

    for s in body.body if hasattr(body, "body") else body:
        s.visit(V())
    return out


def scalar_only_names(fn: cst.FunctionDef, names: set[str]) -> set[str]:
    """Those of ``names`` (unannotated parameters) used as operands of arithmetic / comparisons / range() and
    never as an array (call argument other than range(), attribute or subscript base): runtime i32 scalars."""
    scalar, other = set(), set()

    def name_of(n):
        return n.value if isinstance(n, cst.Name) and n.value in names else None

    class V(cst.CSTVisitor):
        def visit_BinaryOperation(self, node) -> None:
            for side in (node.left, node.right):
                if name_of(side):
                    scalar.add(side.value)

        def visit_Comparison(self, node) -> None:
            for side in [node.left] + [c.comparator for c in node.comparisons]:
                if name_of(side):
                    scalar.add(side.value)

        def visit_Call(self, node) -> None:
            is_range = isinstance(node.func, cst.Name) and node.func.value == "range"
            for a in node.args:
                if name_of(a.value):
                    (scalar if is_range else other).add(a.value.value)

        def visit_Attribute(self, node) -> None:
            if name_of(node.value):
                other.add(node.value.value)

        def visit_Subscript(self, node) -> None:
            if name_of(node.value):
                other.add(node.value.value)

    fn.body.visit(V())
    return scalar - other
