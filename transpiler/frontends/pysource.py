"""What both front ends (frontends/cutile/, frontends/triton/) read from Python source the same way: the parsed
file with positions, dotted names, literal and constant-expression folding (``const_eval``), the
``ct.PaddingMode`` marker, and a few syntax-tree scans (assigned names, compared literals, docstrings).
Language-independent: it imports no front end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from .. import errors, source

PAD_PREFIX = "ct.PaddingMode."


class PadMode(str):
    """A ``ct.PaddingMode.X`` value (its dotted spelling) known at translate time."""


def pad_mode(dotted: str | None) -> PadMode | None:
    return PadMode(dotted) if dotted and dotted.startswith(PAD_PREFIX) else None


def read_kernel_source(path: Path) -> str:
    """The text of a kernel file (either front end); an unreadable, undecodable, oversized or too deeply
    nested file is one coded error (transpiler/source.py)."""
    return source.read_python(Path(path))


@dataclass(frozen=True)
class Language:
    """How the input checks name a kernel language (:func:`check_kernel_file`)."""
    name: str  # "cuTile Python"
    module: str  # "cuda.tile"
    alias: str  # "ct"
    decorator: str  # "@ct.kernel"


CUTILE = Language("cuTile Python", "cuda.tile", "ct", "@ct.kernel")
TRITON = Language("Triton", "triton.language", "tl", "@triton.jit")


def check_kernel_file(path: Path, lang: Language, imported: bool, kernels) -> None:
    """The two checks a kernel file passes before lowering, either language: its ``import`` of the language is
    present (CTRS-E102), and at least one function carries the kernel decorator (CTRS-E011); each is one
    coded error at the file."""
    if not imported:
        raise errors.CtrsError(errors.TRANSLATE_INPUT, f"no 'import {lang.module} as {lang.alias}' in the file",
                               f"{lang.name} kernels import {lang.module}", errors.Loc(str(path)))
    if not kernels:
        raise errors.CtrsError(errors.KERNEL_NOT_FOUND, f"no {lang.decorator} function in the file",
                               f"decorate the kernel with {lang.decorator}", errors.Loc(str(path)))


class SourceFile:
    """A Python file parsed by libcst with source positions (shared by the cuTile and Triton front ends)."""

    def __init__(self, path: Path, source: str):
        self.path = Path(path)
        self.source = source
        try:
            self.wrapper = MetadataWrapper(cst.parse_module(source))
        except cst.ParserSyntaxError as e:
            raise errors.CtrsError(errors.TRANSLATE_INPUT, f"not valid Python: {e.message}", "fix the syntax",
                                   errors.Loc(str(path), e.raw_line, e.raw_column + 1)) from e
        self.positions = self.wrapper.resolve(PositionProvider)
        self.module = self.wrapper.module


def attr_chain(node: cst.BaseExpression) -> tuple[str, list[str]] | None:
    """``a.b.c`` -> ("a", ["b", "c"]); None unless the expression is a plain dotted name."""
    parts = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if not isinstance(node, cst.Name):
        return None
    parts.reverse()
    return node.value, parts


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



_MATH_CONSTS = {"math.inf": math.inf, "math.pi": math.pi, "math.e": math.e}
_MATH_FNS = {"math.log": "log", "math.log2": "log2", "math.sqrt": "sqrt", "math.exp": "exp"}
_BIN = {cst.Add: lambda a, b: a + b, cst.Subtract: lambda a, b: a - b, cst.Multiply: lambda a, b: a * b,
        cst.Divide: lambda a, b: a / b, cst.FloorDivide: lambda a, b: a // b, cst.Modulo: lambda a, b: a % b,
        cst.Power: lambda a, b: a ** b}


def const_eval(node, lookup, dotted):
    """Fold a Python constant expression (``1.0 / math.log(2)``, ``-math.inf``, ``2 * BLOCK``) at
    translate time; ``lookup(name)`` gives module constants (None if unknown), ``dotted`` spells
    attributes. None when the expression is not constant."""
    def ev(n):
        lit = literal_value(n)
        if lit is not None:
            return lit
        if isinstance(n, cst.Name):
            return lookup(n.value)
        if isinstance(n, cst.Attribute):  # math.pi; ct.PaddingMode.X -> a translate-time marker (PadMode)
            return _MATH_CONSTS.get(dotted(n) or "", pad_mode(dotted(n)))
        if isinstance(n, cst.UnaryOperation) and isinstance(n.operator, cst.Minus):
            v = ev(n.expression)
            return -v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        if isinstance(n, cst.BinaryOperation) and type(n.operator) in _BIN:
            a, b = ev(n.left), ev(n.right)
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
                return None
            try:
                return _BIN[type(n.operator)](a, b)
            except (ZeroDivisionError, OverflowError, ValueError):
                return None
        if isinstance(n, cst.Call) and (dotted(n.func) or "") in _MATH_FNS and len(n.args) == 1 \
                and n.args[0].keyword is None:
            v = ev(n.args[0].value)
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                return None
            try:
                return float(getattr(math, _MATH_FNS[dotted(n.func)])(v))
            except (ValueError, OverflowError):
                return None
        return None

    return ev(node)


def is_docstring(stmt) -> bool:
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


def scalar_only_names(fn: cst.FunctionDef, names: set[str], integer_call=lambda call: False) -> set[str]:
    """Those of ``names`` (unannotated parameters) used as operands of arithmetic / comparisons / range() (or of
    a call ``integer_call`` says takes integers only, cuTile's ``ct.cdiv``) and never as an array (call argument
    other than those, attribute or subscript base): runtime i32 scalars."""
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
            is_range = isinstance(node.func, cst.Name) and node.func.value == "range" or integer_call(node)
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
