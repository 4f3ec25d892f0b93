"""cuTile Python's typing rules, implemented once on IR types (used by the front ends).

* a Python scalar meeting a tile or a runtime scalar is *loosely typed*: of the same category (bool < int <
  float) it takes the other operand's dtype (``x * 2`` on f16 stays f16; an int constant out of that
  dtype's range is an error), of a stronger category its own default dtype wins (an i32 tile times ``0.5``
  is f32); it becomes a 0-d constant broadcast to the tile's shape (:func:`literal_dtype`);
* two typed operands (tiles, runtime scalars: cuTile Python's scalars are 0-d tiles) of different concrete
  dtypes promote per cuTile Python's table: the stronger category wins (bool < int/uint < float), within one
  category the wider; signed meets unsigned, f16 meets bf16, tf32 meets anything else: an error asking for
  an explicit cast (:func:`promote`); the array element type ``E`` (a float of at most 32 bits in every spec
  a port serves) loses to f32 / f64 and wins over bool; another dtype meeting it is refused, since the result
  would depend on the specialisation; two different dtype parameters never meet;
* every array has its own dtype variable; :func:`promote` and :func:`implicit_cast` turn what the
  reference's JIT would decide per launch into facts about those variables (:class:`Unify`, :class:`Bind`)
  or into "this kernel is lowered once per dtype of that variable" (:class:`GenericMeetsConcrete`); the
  cuTile front end solves them (frontends/cutile/dtypes.py; docs/ir.md "Array dtype variables");
* true division ``/`` of integers is f32 (``force_float``; :func:`true_div_dtype`);
* a bare Python ``int`` is ``i32``, a bare ``float`` is ``f32`` (cuTile's default dtypes);
* shapes broadcast NumPy-style (right-aligned, 1 stretches);
* constant arithmetic on Python numbers folds at lowering time (:func:`fold`).
"""

from __future__ import annotations

import operator

from .types import BOOL, F32, I32, TF32, DType, DTypeLike, DTypeParam, Shape

DEFAULT_INT = I32
DEFAULT_FLOAT = F32
_RANK = {"bool": 0, "uint": 1, "int": 1, "float": 2}


class PromotionError(ValueError):
    pass


class GenericMeetsConcrete(PromotionError):
    """A dtype parameter (``E``) meets a concrete dtype: the result type depends on what ``E`` is, so the kernel
    is lowered once per concrete element type instead (frontends/cutile/__init__.py). ``params``: the dtype
    variables whose value decides it; ``met``: the concrete dtype they met (None: not a meeting)."""

    def __init__(self, msg: str, params: tuple = (), met: DType | None = None):
        super().__init__(msg)
        self.params = tuple(params)
        self.met = met


class DTypeFact(PromotionError):
    """A fact about the arrays' dtype variables that every launch that compiles satisfies (the front end
    records it, solves, and lowers again): :class:`Unify` or :class:`Bind`."""


class Unify(DTypeFact):
    """Two dtype variables are one: their tiles meet (``a + b``), or one's tile is stored into the other."""

    def __init__(self, a: DTypeParam, b: DTypeParam, why: str):
        super().__init__(f"{a} meets {b} ({why}): one dtype variable")
        self.a, self.b = a, b


class Bind(DTypeFact):
    """A dtype variable is a concrete dtype in every launch that compiles (``ct.store`` of an f32 tile into it:
    the reference casts a stored tile only to a dtype it promotes to, so the array is f32)."""

    def __init__(self, param: DTypeParam, dtype: DType, why: str):
        super().__init__(f"{param} is {dtype} ({why})")
        self.param, self.dtype, self.why = param, dtype, why


def depends(dt: DTypeLike, what: str) -> None:
    """Raise :class:`GenericMeetsConcrete` when ``what`` (``ct.exp of a tile``, ``ct.full``) is spelled per
    concrete dtype and ``dt`` is a dtype variable: the kernel is lowered once per dtype of that variable."""
    if isinstance(dt, DTypeParam):
        raise GenericMeetsConcrete(f"{what} of the dtype variable {dt}: the result depends on the specialisation "
                                   "(lowered once per element type)", (dt,))


def params_of(*types) -> tuple:
    """The dtype variables (in order, once each) the element types of ``types`` (IR types or dtypes) mention."""
    out: list = []
    for t in types:
        dt = getattr(t, "dtype", t)
        if isinstance(dt, DTypeParam) and dt not in out:
            out.append(dt)
    return tuple(out)


def depends_on(types, what: str, met: DType | None = None) -> GenericMeetsConcrete | None:
    """A :class:`GenericMeetsConcrete` when ``what`` (a failed typing decision on values of ``types``) involves a
    dtype variable: the decision depends on its value (an index read from an index array, a loop-carried name whose
    type changes when a tile of the variable meets f32), so the kernel is lowered once per dtype of it; None when
    no variable is involved (the failure stands)."""
    params = params_of(*types)
    if not params:
        return None
    e = GenericMeetsConcrete(f"{what} ({', '.join(map(str, params))}: the result depends on the specialisation, "
                             "lowered once per element type)", params, met)
    e.strict = True  # frontends/cutile/dtypes.candidates: an index array's float entries are not tried
    return e


def same_dtype(a: DTypeLike, b: DTypeLike, what: str) -> None:
    """Operands that must have one dtype (``ct.mma``'s x and y: cuTile Python's _resolve_mma_supported_dtype): a
    variable meeting a concrete dtype is bound to it, two variables unify, two concrete dtypes must be equal."""
    if a == b:
        return
    if isinstance(a, DTypeParam) and isinstance(b, DTypeParam):
        raise Unify(a, b, what)
    if isinstance(a, DTypeParam) and isinstance(b, DType):
        raise Bind(a, b, what)
    if isinstance(b, DTypeParam) and isinstance(a, DType):
        raise Bind(b, a, what)
    if isinstance(a, DType) and isinstance(b, DType):
        raise PromotionError(f"{what}: {a} and {b} (x and y must have the same dtype)")


def implicit_cast(src: DTypeLike, target: DTypeLike, what: str) -> DTypeLike:
    """The dtype a value of ``src`` is cast to when it is stored / scattered into an array of ``target``
    (cuTile Python's ``implicit_cast``: allowed when ``promote(src, target) == target``, e.g. f16 into f32).

    On dtype variables: a concrete tile stored into a variable's array binds it (:class:`Bind`: f32 into ``E``
    makes that array f32 -- an array of at most 32-bit floats that f32 promotes to is f32 -- and f16 into ``E``
    the narrowest choice, f16); a variable's tile stored into a concrete f32 / f64 array is cast (f32 wins over
    every array element type); into a narrower concrete array binds the variable to it; two variables unify."""
    if src == target:
        return target
    sp, tp = isinstance(src, DTypeParam), isinstance(target, DTypeParam)
    if sp and tp:
        raise Unify(target, src, what)
    if tp and isinstance(src, DType):
        raise Bind(target, src, what)
    if sp and isinstance(target, DType):
        if target.is_float and target.bits >= 32 and target != TF32:
            return target
        raise Bind(src, target, what)
    if not (isinstance(src, DType) and isinstance(target, DType)):
        raise PromotionError(f"{what}: {src} into an array of {target}")
    try:
        common = promote(src, target)
    except PromotionError as e:
        raise PromotionError(f"{what}: {src} into an array of {target}: {e}") from e
    if common != target:
        raise PromotionError(f"{what}: {src} into an array of {target} (cuTile Python casts a stored value only "
                             "to a dtype it promotes to: cast it with ct.astype)")
    return target


def default_dtype(v: object) -> DType:
    if isinstance(v, bool):
        return BOOL
    return DEFAULT_INT if isinstance(v, int) else DEFAULT_FLOAT


def promote(a: DTypeLike, b: DTypeLike) -> DTypeLike:
    """The common element type of two typed operands (cuTile Python's binary-op promotion table)."""
    if a == b:
        return a
    if isinstance(a, DTypeParam) and isinstance(b, DType) or isinstance(b, DTypeParam) and isinstance(a, DType):
        concrete, param = (a, b) if isinstance(a, DType) else (b, a)
        # an array's element type is a float of at most 32 bits in every spec a port serves (f16, bf16, f32;
        # the emitter's element entries): f32 / f64 win over it whichever it is, a bool loses to it
        if concrete.is_float and concrete.bits >= 32 and concrete != TF32:
            return concrete
        if concrete == BOOL:
            return param
        raise GenericMeetsConcrete(f"{concrete} meets the array element type {param}: the result depends on the "
                                   "specialisation (lowered once per element type; or cast one operand with ct.astype)",
                                   (param,), concrete)
    if isinstance(a, DTypeParam) and isinstance(b, DTypeParam):
        raise Unify(a, b, "their tiles meet")
    if not (isinstance(a, DType) and isinstance(b, DType)):
        raise GenericMeetsConcrete(f"{a} meets {b}: a dtype parameter meets only itself")
    cast = "implicit promotion is not supported: cast explicitly (ct.astype)"
    if TF32 in (a, b):
        raise PromotionError(f"{a} meets {b}: {cast}")
    ra, rb = _RANK[a.kind], _RANK[b.kind]
    if ra != rb:
        return a if ra > rb else b
    if a.kind != b.kind:  # signed meets unsigned
        raise PromotionError(f"{a} meets {b}: {cast}")
    if a.bits != b.bits:
        return a if a.bits > b.bits else b
    raise PromotionError(f"{a} meets {b}: {cast}")  # f16 meets bf16


def _int_range(dt: DType) -> tuple[int, int]:
    if dt.kind == "uint":
        return 0, 2 ** dt.bits - 1
    return -(2 ** (dt.bits - 1)), 2 ** (dt.bits - 1) - 1


def literal_dtype(other: DTypeLike, value: object) -> DTypeLike:
    """The dtype a Python number (loosely typed) takes when it meets an operand of dtype ``other``."""
    if not isinstance(other, DType):  # a dtype parameter: an array's element type, taken as it is
        return other
    own = default_dtype(value)
    r_own, r_other = _RANK[own.kind], _RANK[other.kind]
    if r_own > r_other:
        return own
    if r_own == r_other and other.kind in ("int", "uint") and not isinstance(value, bool):
        lo, hi = _int_range(other)
        if not lo <= value <= hi:
            raise PromotionError(f"integer constant {value} is out of range of {other}")
    return other


def true_div_dtype(dt: DTypeLike) -> DTypeLike:
    """The dtype ``/`` computes in: the operands' own float dtype, f32 for integers and bools."""
    if isinstance(dt, DType) and not dt.is_float:
        return DEFAULT_FLOAT
    return dt


def broadcast_shapes(a: Shape, b: Shape) -> Shape:
    n = max(len(a), len(b))
    a2 = (1,) * (n - len(a)) + tuple(a)
    b2 = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a2, b2):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            raise PromotionError(f"shapes {a} and {b} do not broadcast")
    return tuple(out)


_FOLD = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
         "%": operator.mod, "/": operator.truediv, "**": operator.pow, "&": operator.and_, "|": operator.or_,
         "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift, "<": operator.lt, "<=": operator.le,
         ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne}
_INT_ONLY = {"&", "|", "^", "<<", ">>"}


def fold(op: str, a: object, b: object) -> object | None:
    """Python-number constant folding (``TILE * 2`` of two literals); None when not foldable."""
    f = _FOLD.get(op)
    if f is None or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (a, b)):
        return None
    if op in _INT_ONLY and not all(isinstance(x, int) for x in (a, b)):
        return None
    try:
        return f(a, b)
    except (ZeroDivisionError, ValueError, OverflowError):
        return None
