"""Specialisation format: one concrete launch of a kernel, described without a GPU.

A specialisation names the kernel and describes every parameter the way ``ct.launch`` sees it:

    {
      "name": "f16_1000x128",            # free label (used in reports and file names)
      "kernel": "softmax_rows",          # Python kernel name
      "args": {
        "x": {"dtype": "float16", "shape": [1000, 128]},   # array; C-contiguous unless "strides"
        "y": {"dtype": "float16", "shape": [1000, 128], "strides": [128, 1], "align": 256},
        "n": {"scalar": "int32", "value": 1000},          # runtime scalar (value only feeds Rust hints)
        "eps": {"scalar": "float32", "value": 1e-5},
        "TILE_N": 128                                      # ct.Constant value (int / bool / float)
      },
      "rust": {"entry": "softmax_rows", "generics": ["f16", "128"]},  # optional overrides
      "grid": ["x.shape[0]", 1, 1],                     # launch grid (GPU runs), see Spec.grid_for
      "fuzz": {"vary": ["x.0", "y.0"], "max": 8192},    # dims hypothesis may resize (equal sizes stay tied)
      "hints": {"occupancy": 2},                         # compiler hints of the launch (replace_hints, autotune)
      "sites": ["kernel.py:57"]                          # where ctrs specs recorded it (the ct.launch lines)
    }

Array fields: ``dtype`` (cuTile name: float16/bfloat16/float32/float64/int8/.../bool_), ``shape``,
``strides`` in elements (default: C-contiguous), ``align`` = base-pointer alignment in bytes
(default 256, what PyTorch allocations give), ``index_dtype`` (int32 | int64, default int32), ``values``
(what a GPU run fills it with: ``random``, the default, or ``permutation`` for an integer array whose values a
kernel scatters by: distinct values 0 .. n-1 in random order, so no two stores race for one element; or a list,
the array's memory in element order, ``1 + sum((shape[i] - 1) * strides[i])`` numbers: inputs that must agree with
each other, such as the prefix counts a scatter kernel reads, as the host code that launches it computes them).

From it ``reference_signature`` builds exactly the ``KernelSignature`` that ``ct.launch`` builds
for such tensors (cuTile Python 1.7.0 launch rules: 16-byte stride divisibility, shape % 16,
stride == 1 constants, size-1 dims as constants with calling convention v2, 16-byte base
alignment, disjointness), and ``rust_request`` builds what cutile 0.3.1's generated launcher
computes at run time (``compute_spec``: power-of-two divisors capped at 16, stride-one bits,
``DivHint`` per integer scalar, strides 1 / -1).
"""

from __future__ import annotations

import json
import math
import struct
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import errors
from .spec_schema import ALIASES, ARRAY_VALUES, DTYPES  # noqa: F401 - the dtype tables live with the schema

TMA_MAX_NDIM = 5


def canonical_dtype(name: str, where: str) -> str:
    name = ALIASES.get(name, name)
    if name not in DTYPES:
        raise errors.CtrsError(errors.SPEC_INVALID, f"{where}: unknown dtype '{name}'",
                               f"use one of {', '.join(sorted(DTYPES))}")
    return name


@dataclass(frozen=True)
class ArrayArg:
    name: str
    dtype: str
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    align: int = 256
    index_dtype: str = "int32"
    values: str | tuple = "random"  # "random" | "permutation" | the array's memory, element by element

    @property
    def bits(self) -> int:
        return DTYPES[self.dtype][0]

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def disjoint(self) -> bool:
        pairs = sorted(zip(self.strides, self.shape))
        if not pairs:
            return True
        if pairs[0][0] <= 0:
            return False
        return all(b[0] > 0 and b[0] >= a[0] * a[1] for a, b in zip(pairs, pairs[1:]))


@dataclass(frozen=True)
class ScalarArg:
    name: str
    dtype: str
    value: float | int | bool | None = None


@dataclass(frozen=True)
class ConstArg:
    name: str
    value: Any


@dataclass
class Spec:
    name: str
    kernel: str
    args: dict[str, ArrayArg | ScalarArg | ConstArg]
    rust: dict[str, Any] = field(default_factory=dict)
    grid: list[str] = field(default_factory=list)  # launch grid expressions (see grid_for)
    fuzz: dict[str, Any] = field(default_factory=dict)  # {"vary": ["x.0", ...], "max": int}
    hints: dict[str, Any] = field(default_factory=dict)  # kernel compiler hints of the launch (occupancy, num_ctas)
    sites: list[str] = field(default_factory=list)  # "file.py:LINE" of the launch / autotune calls ctrs specs saw
    origin: str = field(default="", compare=False, repr=False)  # the spec file (or "<inline spec>")
    json_path: str = field(default="", compare=False, repr=False)  # where in it: "$.spec[2]"

    def grid_for(self, shapes: dict[str, tuple[int, ...]] | None = None, num_sms: int = 132) -> tuple[int, int, int]:
        """Evaluate the grid expressions for these (or the spec's own) array shapes.

        Names: every array arg (``x.shape[0]``, ``x.ndim``), every scalar / constant value,
        ``cdiv(a, b)``, ``min``, ``max`` and ``num_sms`` (the device's SM count, 132 on an H200).
        """
        if not self.grid:
            raise errors.CtrsError(errors.SPEC_INVALID, f"spec '{self.name}' has no 'grid'",
                                   'add "grid": ["cdiv(x.shape[0], TILE)", 1, 1] to the spec')
        env: dict[str, Any] = {"cdiv": lambda a, b: -(-a // b), "min": min, "max": max, "num_sms": num_sms}
        for n, a in self.args.items():
            if isinstance(a, ArrayArg):
                shp = tuple((shapes or {}).get(n, a.shape))
                env[n] = _Shaped(shp)
            else:
                env[n] = a.value
        dims = []
        for e in (list(self.grid) + ["1", "1"])[:3]:
            try:
                v = eval(str(e), {"__builtins__": {}}, env)  # noqa: S307 - spec expressions, no builtins
            except Exception as ex:  # noqa: BLE001
                raise errors.CtrsError(errors.SPEC_INVALID, f"spec '{self.name}': grid expression {e!r} failed: {ex}",
                                       "use array shapes, constants, cdiv(a, b), min/max and num_sms") from ex
            dims.append(int(v))
        return dims[0], dims[1], dims[2]

    @property
    def has_data(self) -> bool:
        """Whether some array's inputs are given as data (``values`` a list): a resized launch would not agree."""
        return any(isinstance(a, ArrayArg) and isinstance(a.values, tuple) for a in self.args.values())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for n, a in self.args.items():
            if isinstance(a, ArrayArg):
                out[n] = {"dtype": a.dtype, "shape": list(a.shape), "strides": list(a.strides), "align": a.align}
                if a.index_dtype != "int32":
                    out[n]["index_dtype"] = a.index_dtype
                if a.values != "random":
                    out[n]["values"] = list(a.values) if isinstance(a.values, tuple) else a.values
            elif isinstance(a, ScalarArg):
                out[n] = {"scalar": a.dtype, "value": a.value}
            else:
                out[n] = a.value
        d = {"name": self.name, "kernel": self.kernel, "args": out}
        if self.rust:
            d["rust"] = self.rust
        if self.grid:
            d["grid"] = list(self.grid)
        if self.fuzz:
            d["fuzz"] = self.fuzz
        if self.hints:
            d["hints"] = dict(sorted(self.hints.items()))
        if self.sites:
            d["sites"] = list(self.sites)
        return d


@dataclass(frozen=True)
class _Shaped:
    shape: tuple[int, ...]

    @property
    def ndim(self) -> int:
        return len(self.shape)


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return tuple(reversed(strides))


def _data_values(values: list, dtype: str, shape: tuple, strides: tuple, where: str) -> tuple:
    """A spec's literal array contents: one number per element of the array's memory extent (integers for an
    integer or bool array)."""
    extent = 1 + sum((d - 1) * s for d, s in zip(shape, strides)) if all(shape) else 0
    integral = not dtype.startswith("float")
    bad = next((x for x in values if isinstance(x, bool) or not isinstance(x, (int, float))
                or integral and not isinstance(x, int)), None)
    if len(values) != extent or bad is not None:
        why = (f"{len(values)} values for {extent} elements" if len(values) != extent
               else f"{bad!r} is not {'an integer' if integral else 'a number'}")
        raise errors.CtrsError(errors.SPEC_INVALID, f"{where}: values: {why}",
                               "list every element of the array's memory (1 + sum((shape[i]-1)*strides[i]) numbers)")
    return tuple(values)


def parse_spec(raw: dict[str, Any], origin: str = "<spec>") -> Spec:
    if not isinstance(raw, dict) or "kernel" not in raw or "args" not in raw:
        raise errors.CtrsError(errors.SPEC_INVALID, f"{origin}: a specialisation needs 'kernel' and 'args'",
                               'write {"kernel": "name", "args": {...}} (see README, "Specialisation format")')
    args: dict[str, ArrayArg | ScalarArg | ConstArg] = {}
    for name, v in raw["args"].items():
        where = f"{origin}: arg '{name}'"
        if isinstance(v, dict) and "shape" in v:
            shape = tuple(int(x) for x in v["shape"])
            strides = tuple(int(x) for x in v.get("strides", contiguous_strides(shape)))
            if len(strides) != len(shape):
                raise errors.CtrsError(errors.SPEC_INVALID, f"{where}: {len(shape)} dims but {len(strides)} strides",
                                       "give one stride per dimension, in elements")
            dtype = canonical_dtype(v.get("dtype", ""), where)
            values = v.get("values", "random")
            if isinstance(values, list):
                values = _data_values(values, dtype, shape, strides, where)
            elif values not in ARRAY_VALUES or values == "permutation" and not dtype.startswith(("int", "uint")):
                raise errors.CtrsError(errors.SPEC_INVALID, f"{where}: values {values!r} for a {dtype} array",
                                       "use \"random\", \"permutation\" for an integer index array, or a list of "
                                       "the array's elements")
            args[name] = ArrayArg(name, dtype, shape, strides, int(v.get("align", 256)), v.get("index_dtype", "int32"),
                                  values)
        elif isinstance(v, dict) and "scalar" in v:
            args[name] = ScalarArg(name, canonical_dtype(v["scalar"], where), v.get("value"))
        elif isinstance(v, (int, float, bool)):
            args[name] = ConstArg(name, v)
        else:
            raise errors.CtrsError(errors.SPEC_INVALID, f"{where}: cannot tell array, scalar or constant",
                                   'use {"dtype":..,"shape":[..]}, {"scalar":"int32","value":..} or a plain value')
    grid = [str(g) for g in raw.get("grid", [])]
    return Spec(str(raw.get("name") or raw["kernel"]), str(raw["kernel"]), args, dict(raw.get("rust", {})), grid,
                dict(raw.get("fuzz", {})), hints=dict(raw.get("hints", {})),
                sites=[str(x) for x in raw.get("sites", [])])


def _finite(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"number {text} is not finite")
    return v


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a specialisation can use")


def load_specs(text_or_path: str) -> list[Spec]:
    """Accept inline JSON, or a .json / .toml file holding one spec, a list, or {"spec": [...]}.

    The document is validated against the spec schema (transpiler/spec_schema.py, jsonschema) before
    anything reads it: every problem is one CTRS-E010 naming the file and the JSON path."""
    from . import source, spec_schema  # noqa: PLC0415

    inline = text_or_path.lstrip().startswith(("{", "["))
    origin = "<inline spec>" if inline else text_or_path
    p = Path(text_or_path)
    try:
        if inline:
            text = text_or_path
        else:
            raw = source.read_regular(p, source.MAX_SPEC_BYTES, "spec file", errors.SPEC_INVALID, errors.SPEC_INVALID,
                                      errors.SPEC_INVALID)
            text = raw.decode("utf-8-sig")
        if not inline and p.suffix == ".toml":
            data = tomllib.loads(text, parse_float=_finite)
        else:
            data = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
    except UnicodeDecodeError as e:
        raise errors.CtrsError(errors.SPEC_INVALID, f"not valid UTF-8 (byte 0x{e.object[e.start]:02x} at offset {e.start})",
                               "save the spec file as UTF-8", errors.Loc(origin)) from None
    except json.JSONDecodeError as e:
        raise errors.CtrsError(errors.SPEC_INVALID, f"not valid JSON: {e.msg}", "check the spec syntax",
                               errors.Loc(origin, e.lineno, e.colno)) from None
    except (ValueError, tomllib.TOMLDecodeError, RecursionError) as e:
        raise errors.CtrsError(errors.SPEC_INVALID, f"not valid {'TOML' if p.suffix == '.toml' and not inline else 'JSON'}: "
                               f"{e}", "check the spec syntax", errors.Loc(origin)) from None
    spec_schema.validate(data, origin)
    out = []
    for path, d in spec_schema._items(data):
        s = parse_spec(d, origin)
        s.origin, s.json_path = origin, path
        out.append(s)
    return out


def unique_specs(items: list[tuple[Spec, Any]]) -> list[tuple[Spec, Any]]:
    """Drop exact repeats (same name and content); two different specs of one name are an error naming
    them (never a silent drop: ``ctrs check`` would prove one and skip the other)."""
    first: dict[str, tuple[Spec, Any]] = {}
    out: list[tuple[Spec, Any]] = []
    clashes: dict[str, list[str]] = {}
    for s, origin in items:
        prev = first.get(s.name)
        if prev is None:
            first[s.name] = (s, origin)
            out.append((s, origin))
        elif prev[0].to_json() != s.to_json():
            clashes.setdefault(s.name, [f"{prev[0].kernel}@{prev[1]}"]).append(f"{s.kernel}@{origin}")
    if clashes:
        what = "; ".join(f"'{n}' ({', '.join(w)})" for n, w in sorted(clashes.items()))
        raise errors.CtrsError(errors.SPEC_DUPLICATE, f"{len(clashes)} spec name(s) given to different "
                               f"specialisations: {what}",
                               "give every spec its own name (ctrs specs writes <kernel>__<shape> names)")
    return out


def dump_specs(specs: list[Spec]) -> str:
    """The specs file text: a JSON list, keys sorted, one trailing newline (byte-identical across runs)."""
    return json.dumps([s.to_json() for s in specs], indent=2, sort_keys=True) + "\n"


# ---------------------------------------------------------------------------------------------
# Reference side (cuTile Python launch rules)


def reference_signature(spec: Spec, param_names: list[str], annotations: dict[str, Any] | None = None):
    """The KernelSignature ct.launch would build for ``spec`` (params in Python declaration order)."""
    import cuda.tile as ct  # noqa: PLC0415
    from cuda.tile.compilation import (  # noqa: PLC0415
        ArrayConstraint,
        CallingConvention,
        KernelSignature,
        ScalarConstraint,
    )

    missing = [p for p in param_names if p not in spec.args]
    extra = [a for a in spec.args if a not in param_names]
    if missing or extra:
        raise errors.CtrsError(
            errors.SPEC_INVALID,
            f"spec '{spec.name}' does not match kernel '{spec.kernel}' parameters {param_names}"
            + (f": missing {missing}" if missing else "") + (f": unknown {extra}" if extra else ""),
            "give exactly one entry per kernel parameter")
    v2 = False
    params = []
    for pname in param_names:
        a = spec.args[pname]
        if isinstance(a, ArrayArg):
            small = a.ndim <= TMA_MAX_NDIM
            s_const = tuple(1 if small and s == 1 else None for s in a.strides)
            s_div = tuple((128 // a.bits) if small and (s * a.bits) % 128 == 0 and s_const[i] is None else 1
                          for i, s in enumerate(a.strides))
            h_const = tuple(1 if small and d == 1 else None for d in a.shape)
            h_div = tuple(16 if small and d % 16 == 0 and h_const[i] is None else 1 for i, d in enumerate(a.shape))
            if any(c is not None for c in h_const):
                v2 = True
            kw: dict[str, Any] = dict(
                index_dtype=getattr(ct, a.index_dtype), stride_lower_bound_incl=0, alias_groups=(),
                may_alias_internally=not a.disjoint(), stride_constant=s_const, stride_divisible_by=s_div,
                shape_divisible_by=h_div, base_addr_divisible_by=16 if a.align % 16 == 0 else 1)
            if any(c is not None for c in h_const):
                kw["shape_constant"] = h_const
            params.append(ArrayConstraint(getattr(ct, a.dtype), a.ndim, **kw))
        elif isinstance(a, ScalarArg):
            params.append(ScalarConstraint(getattr(ct, a.dtype)))
        else:
            params.append(a.value)
    conv = CallingConvention.cutile_python_v2() if v2 else CallingConvention.cutile_python_v1()
    return KernelSignature(params, conv)


# ---------------------------------------------------------------------------------------------
# Port side (cutile 0.3.1 launcher rules)


def _pow2_div(v: int) -> int:
    if v == 0:
        return 16
    return min(v & -v, 16) if v > 0 else min((-v) & v, 16)


def _ptr_div(align: int) -> int:
    return 1 << min((align & -align).bit_length() - 1, 4) if align else 16


def port_strides(a: ArrayArg) -> tuple[int, ...]:
    """The strides the port's launcher hands cutile (ffi.rs ``TensorDesc::view_strides``): any stride on an
    extent-1 axis of an array of rank <= TMA_MAX_NDIM becomes 16 bytes' worth of elements. cuTile Python keeps that
    stride out of the tensor view's static strides (it is irrelevant to addressing, and a unit stride there may be
    taken for the contiguous axis) and assumes it 16-byte divisible whatever its value (_ir/ops.py
    _lower_tensor_view_extents: ``assume div_by<16 bytes>`` on every dynamic stride of a singleton axis, e.g. a
    batch-1 ``[1, S, D]`` view's stride ``S * D``); cutile would make a stride 1 static and derive an odd stride's
    divisor from its value, so the port passes one it reads as dynamic and 16-byte divisible."""
    if a.ndim > TMA_MAX_NDIM or a.bits <= 0 or 128 % a.bits:
        return tuple(a.strides)
    return tuple(128 // a.bits if d == 1 else s for d, s in zip(a.shape, a.strides))


@dataclass(frozen=True)
class UnitFlag:
    """A unit-extent const generic (passes/unitdims.py): 1 when ``array.shape[axis]`` is 1 at the launch."""
    array: str
    axis: int

    def value(self, spec: Spec) -> str:
        a = spec.args.get(self.array)
        return "1" if isinstance(a, ArrayArg) and self.axis < len(a.shape) and a.shape[self.axis] == 1 else "0"


def rust_request(spec: Spec, entry: "RustEntry", target: str, derived: dict | None = None) -> dict[str, Any]:
    """The KernelCompiler inputs a cutile launch with these tensors would use. ``derived``: the entry's host-computed
    const generics (analysis.json): a shape dimension computed from the constants -> its ConstExpr, a compile-time
    float expression -> its FloatExpr, a unit-extent flag -> its :class:`UnitFlag`."""
    generics: list[str] = list(spec.rust.get("generics", []))
    if not generics:
        for g in entry.generics:
            if derived and isinstance(derived.get(g[0]), UnitFlag):
                generics.append(derived[g[0]].value(spec))
                continue
            if derived and g[0] in derived and hasattr(derived[g[0]], "generic_value"):  # ir/floatexpr.py
                e = derived[g[0]]
                generics.append(str(e.generic_value({n: _const_value(spec, n) for n in e.syms()})))
                continue
            if derived and g[0] in derived:  # computed from the spec's constants, as ffi.rs computes it
                e = derived[g[0]]
                generics.append(str(e.evaluate({n: _infer_generic(spec, entry, (n, "i32")) for n in e.syms()})))
                continue
            generics.append(_infer_generic(spec, entry, g))
    strides: dict[str, list[int]] = {}
    specs: dict[str, dict[str, Any]] = {}
    hints: dict[str, int] = {}
    for pname, ptype in entry.params:
        a = spec.args.get(pname)
        if ptype == "tensor":
            if not isinstance(a, ArrayArg):
                raise errors.CtrsError(errors.SPEC_INVALID,
                                       f"Rust entry '{entry.name}' takes tensor '{pname}' but the spec has no array of that name",
                                       "name the Rust parameters like the Python ones")
            st = port_strides(a)
            strides[pname] = [1 if s == 1 else -1 for s in st]
            specs[pname] = {
                "shape_div": [_pow2_div(d) for d in a.shape],
                "stride_div": [_pow2_div(s) for s in st],
                "stride_one": [s == 1 for s in st],
                "base_ptr_div": _ptr_div(a.align),
                "disjoint": a.disjoint(),
            }
        elif ptype == "int" and isinstance(a, ScalarArg) and isinstance(a.value, int) and not isinstance(a.value, bool):
            hints[pname] = _pow2_div(int(a.value))
        elif ptype == "ptr" and isinstance(a, ArrayArg):
            hints[pname] = _ptr_div(a.align)
        elif ptype == "int" and a is None and (d := derived_dim(spec, pname)) is not None:
            hints[pname] = _pow2_div(d)  # raw-pointer entry: `<array>_shape_<i>` / `<array>_stride_<i>`
    return {"module": entry.module, "function": entry.name, "generics": generics, "strides": strides,
            "spec_args": specs, "scalar_hints": hints, "target": target, "compile_options": compile_options(spec)}


# a launch's compiler hints (cuTile Python replace_hints / autotune config keys) -> cutile's runtime CompileOptions
# fields (cutile-compiler hints.rs: they override the entry's optimization_hints, as replace_hints overrides the
# decorator's); frontends/cutile/hints.py ENTRY_HINTS maps the same keys for the decorator
LAUNCH_HINTS = {"num_ctas": "num_cta_in_cga", "occupancy": "occupancy", "num_worker_warps": "num_worker_warps_per_cta"}


def compile_options(spec: Spec) -> dict[str, int]:
    """The spec's launch hints as cutile CompileOptions fields (``opt_level`` is a tileiras flag, not Tile IR)."""
    return {LAUNCH_HINTS[k]: int(v) for k, v in sorted(spec.hints.items()) if k in LAUNCH_HINTS and v is not None}


def derived_dim(spec: Spec, pname: str) -> int | None:
    """A raw-pointer entry's ``<array>_shape_<i>`` / ``<array>_stride_<i>`` parameter (the Python array
    arrives in Tile IR as pointer, shape..., strides...; docs/porting.md §2 ct.gather on N-d arrays):
    that dimension of the spec's array, else None."""
    for kind in ("shape", "stride"):
        head, sep, idx = pname.rpartition(f"_{kind}_")
        a = spec.args.get(head) if sep and idx.isdigit() else None
        if isinstance(a, ArrayArg) and int(idx) < len(a.shape):
            return (a.shape if kind == "shape" else a.strides)[int(idx)]
    return None


def _const_value(spec: Spec, name: str):
    """The value of the spec's constant ``name`` (a compile-time float expression's operand)."""
    a = spec.args.get(name)
    if a is None and name.endswith("_"):  # renamed in kernel.rs (rules/ir.toml [reserved_consts])
        a = spec.args.get(name.rstrip("_"))
    if not isinstance(a, ConstArg):
        raise errors.CtrsError(errors.SPEC_INVALID, f"spec '{spec.name}': no constant '{name}'",
                               f"give the ct.Constant '{name}' in the spec's args")
    return a.value


def float_bits(v: float) -> int:
    """A ct.Constant[float]'s generic in the port: its f32 bits as an i32 (ffi.rs: ``to_bits() as i32``)."""
    return struct.unpack("<i", struct.pack("<f", float(v)))[0]


def _infer_generic(spec: Spec, entry: "RustEntry", g: tuple[str, str]) -> str:
    gname, gkind = g
    if gkind == "type":
        for pname, ptype in entry.params:
            if entry.param_types.get(pname, "").find(gname) >= 0:
                a = spec.args.get(pname)
                if isinstance(a, ArrayArg):
                    return DTYPES[a.dtype][1]
        raise errors.CtrsError(errors.SPEC_INVALID,
                               f"cannot infer type generic '{gname}' of Rust entry '{entry.name}' from the spec",
                               'give "rust": {"generics": [...]} in the spec')
    a = spec.args.get(gname)
    if a is None and gname.endswith("_"):  # renamed in kernel.rs (rules/ir.toml [reserved_consts])
        a = spec.args.get(gname.rstrip("_"))
    if isinstance(a, ConstArg):
        v = a.value
        if gkind == "bool":
            return "true" if v else "false"
        if isinstance(v, float):  # a ct.Constant[float]: the port's i32 const generic of its f32 bits
            return str(float_bits(v))
        return str(int(v))
    raise errors.CtrsError(errors.SPEC_INVALID,
                           f"cannot infer const generic '{gname}' of Rust entry '{entry.name}': no Constant of that name",
                           'name the const generic like the ct.Constant parameter, or give "rust": {"generics": [...]}')


@dataclass
class RustEntry:
    module: str
    name: str
    generics: list[tuple[str, str]]  # (name, "type" | "i32" | "bool")
    params: list[tuple[str, str]]  # (name, "tensor" | "int" | "float" | "bool" | "ptr" | "other")
    param_types: dict[str, str]
    line: int
