"""An integer / boolean expression over const-generic symbols (ct.Constant parameters) and literals.

cuTile Python evaluates a condition computed from ``ct.Constant`` values only (``if STAGE & 1:``,
``if BLOCK % 16 == 0:``, ``if NUM_HEADS == GROUP:``) at JIT time, once per launch: its IR holds the taken arm
only. A port spells the same expression in Rust over its const generics (emitters/spelling.py const_expr); cutile's bounds analysis gives every
operand an exact value per launch and the compile of an ``if`` on an exact condition inlines the taken arm
(cutile-compiler src/bounds.rs ``bounds_from_bop``; src/compiler/compile_expression.rs ``Expr::If``), so the
port's IR is the reference's.

Python's ``//`` and ``%`` round toward negative infinity, Rust's toward zero: they are spelled
``((a % b) + b) % b`` and ``(a - pymod) / b``, which agree with Python for every sign (``ct.cdiv(a, b)`` as
``0 - (-a) // b``). Shifts are not
offered: cutile's bounds analysis does not track them (the ``if`` would stay a runtime one).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass

_I32 = (-(2 ** 31), 2 ** 31 - 1)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv, "%": operator.mod,
          "&": operator.and_, "|": operator.or_, "^": operator.xor, "cdiv": _cdiv}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}


@dataclass(frozen=True)
class ConstExpr:
    """``op`` is ``sym`` (``args = (name,)``), ``int`` (``(value,)``), an arithmetic operator of _ARITH, a
    comparison of _CMP, ``neg`` or ``truth`` (an int used as a condition: ``!= 0``)."""

    op: str
    args: tuple

    # -- building ----------------------------------------------------------------------------------
    @staticmethod
    def sym(name: str) -> "ConstExpr":
        return ConstExpr("sym", (name,))

    @staticmethod
    def literal(value) -> "ConstExpr | None":
        if isinstance(value, bool):
            value = int(value)
        if not isinstance(value, int) or not _I32[0] <= value <= _I32[1]:
            return None
        return ConstExpr("int", (value,))

    @staticmethod
    def binary(op: str, a: "ConstExpr", b: "ConstExpr") -> "ConstExpr | None":
        if op not in _ARITH and op not in _CMP or a.op in _CMP or b.op in _CMP or "truth" in (a.op, b.op):
            return None  # an operator Rust spells differently, or arithmetic on a comparison (a bool)
        return ConstExpr(op, (a, b))

    @staticmethod
    def from_python(text: str) -> "ConstExpr":
        """The expression :meth:`python` spelled (analysis.json's derived generics); ValueError on anything else."""
        import ast  # noqa: PLC0415

        ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.BitAnd: "&",
               ast.BitOr: "|", ast.BitXor: "^"}

        def build(n) -> ConstExpr:
            if isinstance(n, ast.Name):
                return ConstExpr.sym(n.id)
            if isinstance(n, ast.Constant) and type(n.value) is int:
                return ConstExpr("int", (n.value,))
            if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
                return ConstExpr("neg", (build(n.operand),))
            if isinstance(n, ast.BinOp) and type(n.op) in ops:
                return ConstExpr(ops[type(n.op)], (build(n.left), build(n.right)))
            if isinstance(n, ast.Call) and ast.unparse(n.func) == "ct.cdiv" and len(n.args) == 2:
                return ConstExpr("cdiv", (build(n.args[0]), build(n.args[1])))
            raise ValueError(f"not a const expression: {text}")

        return build(ast.parse(text, mode="eval").body)

    def condition(self) -> "ConstExpr":
        """This expression as a condition (Python truth: a number is true when non-zero)."""
        return self if self.op in _CMP else ConstExpr("truth", (self,))

    # -- reading -----------------------------------------------------------------------------------
    def syms(self) -> list[str]:
        if self.op == "sym":
            return [self.args[0]]
        if self.op == "int":
            return []
        return list(dict.fromkeys(n for a in self.args for n in a.syms()))

    def integer(self) -> bool:
        """An integer expression: no comparison or truth test anywhere in it."""
        return self.op not in _CMP and self.op != "truth" and all(
            a.integer() for a in self.args if isinstance(a, ConstExpr))

    def substitute(self, values: dict) -> "ConstExpr":
        """This expression with each symbol named in ``values`` (name -> ConstExpr) replaced by its value."""
        if self.op == "sym":
            return values.get(self.args[0], self)
        if self.op == "int":
            return self
        return ConstExpr(self.op, tuple(a.substitute(values) if isinstance(a, ConstExpr) else a for a in self.args))

    def evaluate(self, values: dict):
        """Python's value of the expression for ``values`` (const-generic name -> int)."""
        if self.op == "sym":
            return int(values[self.args[0]])
        if self.op == "int":
            return self.args[0]
        if self.op == "neg":
            return -self.args[0].evaluate(values)
        if self.op == "truth":
            return self.args[0].evaluate(values) != 0
        a, b = (x.evaluate(values) for x in self.args)
        return (_ARITH.get(self.op) or _CMP[self.op])(a, b)

    def python(self) -> str:
        """The expression as cuTile Python spells it (notes, IR printing)."""
        if self.op in ("sym", "int"):
            return str(self.args[0])
        if self.op == "neg":
            return f"-{self.args[0].python()}"
        if self.op == "truth":
            return self.args[0].python()
        a, b = self.args
        if self.op == "cdiv":
            return f"ct.cdiv({a.python()}, {b.python()})"
        return f"{a._py_operand()} {self.op} {b._py_operand()}"

    def _py_operand(self) -> str:
        return self.python() if self.op in ("sym", "int", "neg", "cdiv") else f"({self.python()})"


__all__ = ["ConstExpr"]
