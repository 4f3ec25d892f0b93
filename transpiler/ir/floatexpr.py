"""A compile-time float expression over ``ct.Constant[float]`` parameters (and ``ct.Constant[int]`` ones and literals).

cuTile Python binds a ``ct.Constant[float]`` as a Python float, so arithmetic and comparisons built only from such
constants and literals (``1.0 / (1.0 - P)``, ``P >= 1.0``, ``-LO * 0.5``) are Python arithmetic at compile time, in
double precision: a comparison decides an ``if`` per specialisation, a float becomes a loosely typed constant that
takes the dtype of the tile it meets (cuda/tile/_bytecode/float.py ``float_to_bits``: the double rounded once to
that dtype, to nearest, ties to even). The port gets such a value as a host-computed const generic
(frontends/floatconst.py): ``round`` (the value rounded to a dtype, passed as the f32 bits of the rounded value)
or a comparison (0/1). :meth:`generic_value` is that generic's value for ``ctrs check``; emitters/render_host.py
spells the same computation in Rust for the C entry (:meth:`rust`), from the launch's doubles.
"""

from __future__ import annotations

import math
import operator
import struct
from dataclasses import dataclass

# precision (fraction bits), emin, emax of the float formats a rounded generic may take (f32 holds each exactly)
FORMATS = {"f32": (23, -126, 127), "f16": (10, -14, 15), "bf16": (7, -126, 127)}

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}


def round_to(dt: str, x: float) -> float:
    """``x`` (a double) rounded to the float format ``dt`` once, to nearest, ties to even, overflowing to an
    infinity: cuTile Python's constant encoding (``_convert_float``), which numpy's double -> half also does."""
    p, emin, emax = FORMATS[dt]
    x = float(x)
    if x == 0.0 or not math.isfinite(x):
        return x
    e = math.frexp(abs(x))[1] - 1  # |x| = m * 2^e, 1 <= m < 2
    q = max(e, emin) - p  # the quantum: 2^q is one unit in the last place (subnormals: emin's)
    v = math.ldexp(round(math.ldexp(abs(x), -q)), q)  # exact scaling; round() ties to even
    if v > math.ldexp(2.0 - math.ldexp(1.0, -p), emax):
        v = math.inf
    return math.copysign(v, x)


def f32_bits(v: float) -> int:
    """The f32 bits of ``v`` (exactly representable in f32) as an i32."""
    return struct.unpack("<i", struct.pack("<f", v))[0]


@dataclass(frozen=True)
class FloatExpr:
    """``op``: ``sym`` (a ct.Constant[float] name), ``isym`` (a ct.Constant[int] name), ``num`` (a Python int or
    float literal), ``+ - * /``, ``neg``, a comparison of _CMP, or ``round`` (``args = (dtype, expr)``)."""

    op: str
    args: tuple

    @staticmethod
    def sym(name: str) -> "FloatExpr":
        return FloatExpr("sym", (name,))

    @staticmethod
    def isym(name: str) -> "FloatExpr":
        return FloatExpr("isym", (name,))

    @staticmethod
    def num(v) -> "FloatExpr | None":
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return None
        if isinstance(v, float) and not math.isfinite(v) or isinstance(v, int) and abs(v) > 2 ** 53:
            return None
        return FloatExpr("num", (v,))

    @staticmethod
    def binary(op: str, a: "FloatExpr | None", b: "FloatExpr | None") -> "FloatExpr | None":
        if a is None or b is None or a.compare() or b.compare() or (op not in _ARITH and op not in _CMP
                                                                     and op != "/"):
            return None
        return FloatExpr(op, (a, b))

    def compare(self) -> bool:
        return self.op in _CMP

    def floating(self) -> bool:
        """Whether the expression names a ct.Constant[float] (else it is integer arithmetic, not ours)."""
        if self.op == "sym":
            return True
        if self.op == "num":
            return isinstance(self.args[0], float)
        if self.op == "/":
            return True
        return any(a.floating() for a in self.args if isinstance(a, FloatExpr))

    def syms(self) -> list[str]:
        if self.op in ("sym", "isym"):
            return [self.args[0]]
        return list(dict.fromkeys(n for a in self.args if isinstance(a, FloatExpr) for n in a.syms()))

    # -- host evaluation ---------------------------------------------------------------------------
    def evaluate(self, values: dict):
        """Python's value for ``values`` (name -> the launch's constant), except that a division by zero is
        IEEE's (the host computes every generic, also those of an arm the reference never lowers)."""
        if self.op == "sym":
            return float(values[self.args[0]])
        if self.op == "isym":
            return int(values[self.args[0]])
        if self.op == "num":
            return self.args[0]
        if self.op == "neg":
            return -self.args[0].evaluate(values)
        if self.op == "round":
            return round_to(self.args[0], self.args[1].evaluate(values))
        a, b = (x.evaluate(values) for x in self.args)
        if self.op == "/":
            try:
                return a / b
            except ZeroDivisionError:
                return math.nan if a == 0 or a != a else math.copysign(math.inf, a) * math.copysign(1.0, b)
        return (_ARITH.get(self.op) or _CMP[self.op])(a, b)

    def generic_value(self, values: dict) -> int:
        """The const generic's value: 0/1 for a comparison, else the f32 bits of the rounded value."""
        v = self.evaluate(values)
        if self.compare():
            return int(bool(v))
        assert self.op == "round", self
        return f32_bits(v)

    # -- spelling ----------------------------------------------------------------------------------
    def python(self) -> str:
        """The expression as cuTile Python spells it (a ct.Constant[int] as ``int(N)``; ``f16(x)``: rounded)."""
        if self.op == "sym":
            return self.args[0]
        if self.op == "isym":
            return f"int({self.args[0]})"
        if self.op == "num":
            return repr(self.args[0])
        if self.op == "neg":
            return f"-{self.args[0]._operand()}"
        if self.op == "round":
            return f"{self.args[0]}({self.args[1].python()})"
        a, b = self.args
        return f"{a._operand()} {self.op} {b._operand()}"

    def _operand(self) -> str:
        return self.python() if self.op in ("sym", "isym", "num", "round") else f"({self.python()})"

    @staticmethod
    def from_python(text: str) -> "FloatExpr":
        """The expression :meth:`python` spelled (analysis.json); ValueError on anything else."""
        import ast  # noqa: PLC0415

        ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
        cmps = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}

        def build(n) -> FloatExpr:
            if isinstance(n, ast.Name):
                return FloatExpr.sym(n.id)
            if isinstance(n, ast.Constant) and type(n.value) in (int, float):
                return FloatExpr("num", (n.value,))
            if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
                inner = build(n.operand)
                return FloatExpr("num", (-inner.args[0],)) if inner.op == "num" else FloatExpr("neg", (inner,))
            if isinstance(n, ast.BinOp) and type(n.op) in ops:
                return FloatExpr(ops[type(n.op)], (build(n.left), build(n.right)))
            if isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in cmps:
                return FloatExpr(cmps[type(n.ops[0])], (build(n.left), build(n.comparators[0])))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and len(n.args) == 1:
                if n.func.id == "int" and isinstance(n.args[0], ast.Name):
                    return FloatExpr.isym(n.args[0].id)
                if n.func.id in FORMATS:
                    return FloatExpr("round", (n.func.id, build(n.args[0])))
            raise ValueError(f"not a float const expression: {text}")

        return build(ast.parse(text, mode="eval").body)

    def rust(self, ident=lambda name: name) -> str:
        """The Rust (f64) spelling the C entry evaluates (``ident``: a constant's Rust name there; a
        ct.Constant[float] is an ``f64`` argument, a ct.Constant[int] an ``i32``); a ``round`` is
        ``ctrs_round_float`` (ffi.rs), a comparison an ``i32`` 0/1."""
        if self.op == "sym":
            return ident(self.args[0])
        if self.op == "isym":
            return f"({ident(self.args[0])} as f64)"
        if self.op == "num":
            v = float(self.args[0])
            return f"{v!r}f64" if "inf" not in repr(v) and "nan" not in repr(v) else \
                f"f64::from_bits({struct.unpack('<Q', struct.pack('<d', v))[0]:#x}u64)"
        if self.op == "neg":
            return f"(-{self.args[0].rust(ident)})"
        if self.op == "round":
            p, emin, emax = FORMATS[self.args[0]]
            return f"(ctrs_round_float({self.args[1].rust(ident)}, {p}, {emin}, {emax}).to_bits() as i32)"
        a, b = (x.rust(ident) for x in self.args)
        if self.compare():
            return f"(({a} {self.op} {b}) as i32)"
        return f"({a} {self.op} {b})"


__all__ = ["FORMATS", "FloatExpr", "f32_bits", "round_to"]
