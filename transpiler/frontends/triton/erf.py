"""``tl.math.erf`` / ``libdevice.erf`` in the typed Triton front end, spelled with cutile tile math (cutile has no
``erf``; Triton's is libdevice's ``erff``, within 2 ulp on f32).

Two polynomials fitted for this repository (least squares in float64 on Chebyshev nodes,
coefficients rounded to f32; ``tests/test_triton_unsloth_ops.py`` re-measures them):

* ``|x| <= 1``: ``erf(x) = x * P(x*x)``, P of degree 6 (relative least squares of ``erf(x) / x``);
* ``|x| > 1``: ``erf(x) = sign(x) * (1 - exp(Q(min(|x|, 4))))``, Q of degree 10 fitted to ``log(erfc(t))`` on
  [1, 4] (past 4, ``erfc`` is below half an f32 ulp of 1: the result is exactly +-1).

Evaluated in f32 (Horner, no fma) the result is within 2.5 ulp of erf everywhere (max relative error 1.8e-7;
the f32 numerics tolerance is 1e-5); ``-0.0``, +-inf and NaN come out as erff's (NaN takes the first arm).
Triton's erf takes fp32 / fp64 only: a tile of any other element type is refused (CTRS-E430).
"""

from __future__ import annotations

from ... import errors
from ...ir.ops import OpKind
from ...ir.types import BOOL, F32, TileType
from .registry import Call, lowers
from .tiles import tile

INNER = (1.1283791, -0.37612626, 0.112835824, -0.026853692, 0.0051880996, -0.0008008193, 7.847262e-05)
OUTER = (0.00026399, -1.1299219, -0.63258195, -0.10902511, 0.025483964, -0.0042060325, 0.0003765474,
         1.2282828e-05, -8.219295e-06, 9.604245e-07, -4.1049915e-08)
SPLIT = 1.0
CLAMP = 4.0


def _horner(lw, coeffs, v, node):
    r = coeffs[-1]
    for c in coeffs[-2::-1]:
        r = lw.binop("+", lw.binop("*", r, v, node), c, node)
    return r


@lowers("tl.math.erf", "tl.extra.cuda.libdevice.erf", "libdevice.erf")
def erf(lw, c: Call):
    if len(c.pos) != 1 or c.kw:
        raise lw.err(c.node, f"{c.fn}(x)")
    x = tile(lw, c.pos[0], f"{c.fn} of a tile")
    if x.type.dtype != F32:
        raise errors.CtrsError(errors.TRITON_ERF_DTYPE, f"{c.fn} of a {x.type} tile: Triton's erf takes fp32 "
                               "(libdevice erff)", "cast the operand with .to(tl.float32)", lw.tf.loc(c.node))
    node = c.node
    a = lw.keep_rank(lw.emit(OpKind.ABSF, [x], [x.type], node, "erf_abs").result, x)
    inner = lw.binop("*", x, _horner(lw, INNER, lw.binop("*", x, x, node), node), node)
    t = lw.keep_rank(lw.emit(OpKind.MINF, [a, lw.const(CLAMP, F32, node, x.type.shape)], [x.type], node,
                             "erf_t").result, x)
    q = _horner(lw, OUTER, t, node)
    e = lw.keep_rank(lw.emit(OpKind.MATH, [q], [x.type], node, "erf_exp", fn="exp").result, x)
    mag = lw.binop("-", 1.0, e, node)
    neg = lw.keep_rank(lw.emit(OpKind.NEGF, [mag], [x.type], node, "erf_neg").result, x)
    sign = lw.keep_rank(lw.compare("lt", x, 0.0, node, "erf_sign"), x)
    outer = lw.keep_rank(lw.emit(OpKind.SELECT, [sign, neg, mag], [x.type], node, "erf_outer").result, x)
    far = lw.keep_rank(lw.compare("gt", a, SPLIT, node, "erf_far"), x)
    assert far.type == TileType(BOOL, x.type.shape)
    return lw.keep_rank(lw.emit(OpKind.SELECT, [far, outer, inner], [x.type], node, c.hint or "erf").result, x)
