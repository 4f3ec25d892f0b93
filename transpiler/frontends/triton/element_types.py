"""The arrays' element types of a Triton kernel: a dtype variable per pointer parameter, solved as the cuTile front end
solves its arrays' (frontends/cutile/dtypes.py, docs/ir.md "Array dtype variables").

Triton sees every pointer's element type at launch, like cuTile Python's JIT: arrays of different element types
meet in one kernel (an index array read next to float data, ``X + idx``). Each pointer parameter starts with a
variable of its own; the typing rules' facts (ir/typing.py: two variables' tiles meet, a use forces a dtype, the
lowering depends on a variable's value) are solved by dtypes.solve / dtypes.entries, so the variables no use
forces apart are the one generic ``E`` and an index array is lowered once per integer dtype it meets (an entry
``<kernel>_<dtype>``; the dtypes it cannot be are left out).
"""

from __future__ import annotations

from ... import errors
from ...ir import typing as irtyping
from ...ir.ops import Generic
from ...ir.types import I32, DTypeParam
from ..cutile import dtypes

ELEMENT_DTYPES = ("f32", "f16", "bf16")  # the element entries a dtype-dependent variable is tried with (after ints)
# Independent pointers (no value flows between them without a cast) keep a type generic each while the port has at
# most this many (dtypes.keep_apart): Triton takes every pointer's element type from its tensor at launch
APART_GENERICS = 2


def array_generics(arrays: list) -> list[Generic]:
    """One type generic per dtype variable of the array parameters (``E``, ``E1`` ... in parameter order)."""
    out = []
    for dt in dict.fromkeys(p.value.type.dtype for p in arrays if isinstance(p.value.type.dtype, DTypeParam)):
        of = [p.name for p in arrays if p.value.type.dtype == dt]
        out.append(Generic(dt.name, "type", "array_dtype", "element type of every array" if len(of) == len(arrays)
                           else f"element type of {', '.join(of)}"))
    return out


def stored(lw, val, dt, node, hint: str, array: str | None = None):
    """``val`` as stored into an array of element type ``dt``: Triton casts a stored value to the pointer's
    element type. A tile of another array's dtype variable stored without an explicit cast (``tl.store(z, x + y)``)
    makes the two one variable (a launch passes them in one dtype, as before); a value cast explicitly
    (``acc.to(dW.dtype.element_ty)``) or of a concrete dtype leaves them apart (dtypes.keep_apart). A tile cast to
    a dtype constexpr (dtype_params.py) stored into ``array`` ties the constexpr to that array."""
    el = lw.element if isinstance(lw.element, dict) else {}
    name = getattr(lw, "dtype_casts", {}).get(val.id)  # a tile cast to a dtype constexpr: the array it is tied to
    if name is not None and array is not None and val.type.dtype == el.get(name):
        lw.dtype_stores.setdefault(name, array)
    if val.type.dtype == dt:
        return val
    if isinstance(val.type.dtype, DTypeParam) and isinstance(dt, DTypeParam):
        e = lw.err(node, f"a tile of {val.type.dtype} stored into an array of {dt}")
        e.__cause__ = irtyping.Unify(dt, val.type.dtype, "a tile stored into the other's array without a cast")
        raise e
    return lw.convert(val, dt, node, hint)


def offsets_of_variable(lw, x, node) -> errors.CtrsError:
    """A tile of a dtype variable added to a pointer (``X + idx``, idx loaded from an index array): pointer offsets
    are integers, so the lowering depends on the variable's value; the kernel is lowered once per integer dtype."""
    e = lw.err(node, f"pointer offsets of the array element type {x.type.dtype} (an index array: lowered per "
               "integer dtype)")
    e.__cause__ = irtyping.GenericMeetsConcrete(f"{x.type.dtype} used as pointer offsets", (x.type.dtype,), I32)
    return e


def integer_cast_of_variable(lw, x, dt, node) -> errors.CtrsError:
    """A value loaded from an array of a dtype variable cast to an integer type (``tl.load(m_sizes + e).to(tl.int32)``,
    a gathered row index ``.to(tl.int64)``): the array holds integers (sizes, indices) whatever the rows' element type,
    so its dtype is its own and the lowering depends on it: lowered once per integer dtype, i32 first (the index
    dtype of launches and of cuTile's gather offsets), as an index array used as pointer offsets is."""
    e = lw.err(node, f"a value of the array element type {x.type.dtype} cast to {dt} (an index / size array: lowered "
               "per integer dtype)")
    fact = irtyping.GenericMeetsConcrete(f"{x.type.dtype} cast to {dt}", (x.type.dtype,), I32)
    fact.strict = True  # integer entries only, within dtypes.MAX_ENTRY_LOWERINGS (no float entries to try)
    e.__cause__ = fact
    return e


def array_names(tf, fn, pointers: set[str]) -> list[str]:
    """The pointer parameters of ``fn`` (the port's arrays; ``pointers``: Lowering.pointers) in parameter order."""
    consts = {p.name.value for p in fn.params.params
              if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"}
    return [p.name.value for p in fn.params.params if p.name.value in pointers and p.name.value not in consts]


def lower_kernel(tf, fn, arrays: list[str], lower_once) -> tuple[list, list, list]:
    """(entries, blockers, the Lowerings of the lowerings that succeeded) of kernel ``fn`` with array parameters
    ``arrays``: ``lower_once(mapping, met, made)`` lowers it with the arrays' dtypes ``mapping`` (appending its
    Lowerings to ``made``)."""
    good: list = []

    def lower(mapping, met=None):
        made: list = []
        ks, blockers = lower_once(mapping, met, made)
        if not blockers:
            good.extend(made)
        return ks, blockers

    ks, blockers = dtypes.entries(lower, arrays, fn.name.value, ELEMENT_DTYPES, tf.loc(fn), apart=APART_GENERICS)
    return ks, blockers, good
