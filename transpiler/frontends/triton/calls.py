"""Math family beyond rules/triton.toml ``[calls]``: ``tl.fma``, the correctly rounded libdevice /
``tl.math`` forms (``div_rn``, ``mul_rn``, ...), ``tl.cast``, ``tl.static_assert``, ``tl.pointer_type`` (a marker
``.to`` refuses), and the math functions cutile 0.3.1 has no function for (refused naming the missing API,
CTRS-E341). ``tl.abs`` and the alignment hints are hints.py's, ``tl.sigmoid`` activations.py's.

Spellings: ``tl.math.X``, ``tl.extra.cuda.libdevice.X`` and ``libdevice.X`` (``from triton.language.extra import
libdevice``) are one function ``X``; the unary float functions of rules/triton.toml ``[calls]`` with a rules/ir.toml
``[math]`` entry are lowered by tiles.math under every spelling (:func:`math_name`).
"""

from __future__ import annotations

from ... import errors
from ...ir.ops import OpKind
from ...ir.types import DType, ScalarType, TileType
from ...ir.values import Value
from ...ir_rules import ir_rules
from .registry import CALLS, Call, lowers
from . import source

# cuTile has no function for these (cutile-0.3.1 src/: no erfc/erfinv/lgamma/... in its tile ops; erf: erf.py): a kernel
# that calls one is refused with the missing API named
NO_CUTILE = ("erfc", "erfinv", "erfcinv", "lgamma", "tgamma", "expm1", "log1p", "log10", "cbrt", "atan",
             "asin", "acos", "asinh", "acosh", "atanh", "j0", "j1", "y0", "y1", "round", "rint", "nearbyint", "trunc")
_ROUNDED = {"div_rn": "/", "mul_rn": "*", "add_rn": "+", "sub_rn": "-", "fdiv_rn": "/", "fmul_rn": "*",
            "fadd_rn": "+", "fsub_rn": "-"}  # round-to-nearest-even: the IEEE default of the plain operators
_PREFIXES = ("tl.math.", "tl.extra.cuda.libdevice.", "tl.extra.libdevice.", "libdevice.", "tl.")


def math_name(fn: str) -> str | None:
    """``tl.math.erf`` / ``libdevice.erf`` / ``tl.erf`` -> ``erf`` (None for other calls)."""
    for p in _PREFIXES:
        if fn.startswith(p) and "." not in fn[len(p):]:
            return fn[len(p):]
    return None


def _tile(lw, c: Call, i: int = 0):
    x = lw.value(lw.expr(c.pos[i]), c.pos[i])
    if isinstance(x, Value) and isinstance(x.type, ScalarType) and not isinstance(x.type, TileType):
        x = lw.to_tile(x, c.node)
    if not isinstance(x, Value) or not isinstance(x.type, TileType):
        raise lw.err(c.node, f"{c.fn} of something other than a tile")
    return x


def no_cutile(lw, c: Call):
    name = math_name(c.fn)
    raise errors.CtrsError(errors.TRITON_NO_CUTILE_MATH, f"{c.fn}: cutile 0.3.1 has no '{name}' function",
                           f"cutile 0.3.1's tile math is exp/exp2/log/log2/sqrt/rsqrt/sin/cos/tan/sinh/cosh/tanh/"
                           f"floor/ceil/absf/pow/atan2: write {name} from those (Triton's libdevice is not available)",
                           lw.tf.loc(c.node))


def rounded(lw, c: Call):
    """``div_rn(a, b)`` ...: the plain IEEE operator (round to nearest even, no ftz: the IR's default)."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, f"{c.fn}(x, y)")
    op = _ROUNDED[math_name(c.fn)]
    a, b = (lw.expr(p) for p in c.pos)
    return lw.binop(op, a, b, c.node, c.hint)


@lowers("tl.fma", "tl.math.fma")
def fma(lw, c: Call):
    """``x * y + z``: the fma pass contracts it as the reference compiler does (rounding of the product kept out)."""
    if len(c.pos) != 3 or c.kw:
        raise lw.err(c.node, f"{c.fn}(x, y, z)")
    x, y, z = (lw.expr(p) for p in c.pos)
    return lw.binop("+", lw.binop("*", x, y, c.node), z, c.node, c.hint)


@lowers("tl.cast")
def cast(lw, c: Call):
    """``tl.cast(x, dtype)``: ``x.to(dtype)``."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, "tl.cast(x, dtype) without bitcast / rounding options")
    return CALLS[".to"](lw, c)


@lowers("min", "max")
def builtin_minmax(lw, c: Call):
    """Python ``min`` / ``max`` of two values: folded on numbers, else ``tl.minimum`` / ``tl.maximum``."""
    if len(c.pos) != 2 or c.kw:
        raise lw.err(c.node, f"{c.fn}(a, b)")
    a, b = (lw.expr(p) for p in c.pos)
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
        return (min if c.fn == "min" else max)(a, b)
    return CALLS["tl.minimum" if c.fn == "min" else "tl.maximum"](lw, Call(c.node, "tl.minimum" if c.fn == "min"
                                                                          else "tl.maximum", c.pos, c.kw, c.hint))


@lowers("tl.pointer_type")
def pointer_type(lw, c: Call):
    """``tl.pointer_type(dtype)``: a marker; ``p.to(tl.pointer_type(..))`` is refused by ``.to``."""
    return ("pointer_type", *c.pos)


@lowers("tl.static_assert")
def static_assert(lw, c: Call):
    """A compile-time assertion: checked when its condition is a translate-time constant, else only noted."""
    if not 1 <= len(c.pos) <= 2 or c.kw:
        raise lw.err(c.node, "tl.static_assert(cond[, msg])")
    cond = lw.expr(c.pos[0])
    if cond is False:
        msg = source.literal(c.pos[1]) if len(c.pos) == 2 else ""
        raise lw.err(c.node, f"tl.static_assert fails at translate time{': ' + msg if msg else ''}")
    if cond is not True:
        lw.note(c.node, "hint", "tl.static_assert on constexprs: checked by Triton at compile time, not by the port")
    return None


def _register_math_spellings() -> None:
    """Every unary float function of rules/triton.toml [calls] with a rules/ir.toml [math] entry, also under
    the libdevice spellings (tiles.math lowers them)."""
    from .tiles import math  # noqa: PLC0415

    names = {t: ct for t, ct in source.load_rules()["calls"].items() if ct in ir_rules()["math"]}
    extra = []
    for t, ct in names.items():
        n = math_name(t)
        for p in ("tl.math.", "tl.extra.cuda.libdevice.", "libdevice."):
            if p + n not in CALLS and p + n not in extra:
                extra.append(p + n)
    if extra:
        lowers(*extra)(_respelled(math, names))


def _respelled(math, names):
    by_name = {math_name(t): t for t in names}

    def handler(lw, c: Call):
        return math(lw, Call(c.node, by_name[math_name(c.fn)], c.pos, c.kw, c.hint))

    return handler


_register_math_spellings()
lowers(*[p + n for n in NO_CUTILE for p in ("tl.math.", "tl.extra.cuda.libdevice.", "libdevice.")])(no_cutile)
lowers(*[p + n for n in _ROUNDED for p in ("tl.math.", "tl.extra.cuda.libdevice.", "libdevice.")])(rounded)
