"""Render the host side of a port crate from the tile IR model (emitters/rust_model.py).

One port directory holds: ``kernel.rs`` (render.py), ``lib.rs`` (includes kernel.rs + ffi.rs),
``ffi.rs`` (C ABI, one ``ctrs_<kernel>`` per entry, docs/porting.md §11), ``Cargo.toml`` (+ the
harness ``Cargo.lock`` so the port resolves the exact versions already compiled in the shared target
dir), ``wrapper.py`` (cffi ABI-mode binding with validation and a lazy, locked rebuild, section 12) and
``analysis.json`` (kernels, generics, params, launch-site specialisations, tolerances, source map).

Everything here is a pure function of the model, the kernel file text and the rendered kernel.rs:
byte-identical on every run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from . import rust_model as model
from ctrs.emitters.spelling import const_expr

TEMPLATES = Path(__file__).resolve().parent / "templates" / "port"

# TensorDesc dtype codes (TileGym's numbering, docs/porting.md §11).
DTYPE_CODES: dict[str, int] = {"f32": 0, "f16": 1, "bf16": 2, "i32": 3, "i64": 4}
# Rust host type of each element type, and the torch dtype name the wrapper accepts.
RUST_HOST_TYPE = {"f32": "f32", "f16": "cutile::half::f16", "bf16": "cutile::half::bf16", "i32": "i32", "i64": "i64",
                  # fp8 arrays of a concrete dtype (TileGym's fp8 matmul): cuda_core's newtypes (cuda-core src/dtype.rs)
                  "f8e4m3fn": "cutile::cuda_core::f8e4m3fn", "f8e5m2": "cutile::cuda_core::f8e5m2"}
# fp8 element types have codes past TileGym's five; a port's tables list them only where one of its arrays has one
# (module_codes), so every other port's ffi.rs / wrapper.py is what it was.
FP8_CODES: dict[str, int] = {"f8e4m3fn": 5, "f8e5m2": 6}
ALL_CODES: dict[str, int] = {**DTYPE_CODES, **FP8_CODES}
TORCH_NAME = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32", "i64": "int64",
              "f8e4m3fn": "float8_e4m3fn", "f8e5m2": "float8_e5m2"}
# Element types a type generic is dispatched over (cuTile float kernels; order = match-arm order).
GENERIC_DTYPES = ("f32", "f16", "bf16")
# A port with at most this many type generics dispatches every combination of their dtypes (3 ** n match arms, one
# launcher instantiation each); one with more whose arrays the launches it serves kept apart (ir Kernel.launches:
# frontends/cutile/dtypes.launch_groups) only every generic in one dtype and the launches' combinations
# (dispatch_combos), any other is rc::UNSUPPORTED_DTYPE and a TypeError of wrapper.py
EVERY_COMBO_GENERICS = 3
# Scalar parameter types: Rust -> (C type, Python kind).
SCALAR_C = {"i32": ("int32_t", "int"), "i64": ("int64_t", "int"), "u32": ("uint32_t", "int"),
            "f32": ("float", "float"), "f64": ("double", "float"), "bool": ("bool", "bool")}
# Comparison tolerances per dtype for numeric checks against the reference (atol, rtol).
TOLERANCES = {"f32": [1e-5, 1e-5], "f16": [1e-3, 1e-3], "bf16": [1e-2, 1e-2], "i32": [0, 0], "i64": [0, 0],
              # fp8 (3 / 2 mantissa bits): one unit in the last place at 1.0
              "f8e4m3fn": [0.125, 0.125], "f8e5m2": [0.25, 0.25]}
# TensorDesc's extents / strides: the largest array rank a port takes (cutile 0.5.0 declares its tile ops for
# ranks up to 6: #[cuda_tile::variadic_op(N = 6)], src/_core.rs; mamba2's rank-6 dd_last_partials)
MAX_DIMS = 6
# Op kinds (rules) that do floating-point arithmetic: a kernel with none of them only moves data.
FLOAT_ARITH_KINDS = {"binary", "unary", "fma", "mma", "reduce", "scan", "mul_const", "scalar_fn"}
RUST_KEYWORDS = {"as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if",
                 "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self",
                 "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async",
                 "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof",
                 "unsized", "virtual", "yield", "try", "gen"}


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined, autoescape=False)


# Names of the fixed trailing C arguments and locals of every entry: a Python name equal to one gets a suffix.
_RESERVED = {"grid_x", "grid_y", "grid_z", "device_id", "raw_stream", "dev", "stream", "generics", "grid", "body",
             "v", "op", "rc", "ffi"}


def _ident(name: str) -> str:
    return f"{name}_" if name in RUST_KEYWORDS or name in _RESERVED else name


def crate_name(stem: str, kernel_file: Path | None = None) -> str:
    """The port crate's package (and cdylib) name: the kernel file stem, or its folder for a generic stem."""
    base = stem
    if kernel_file is not None and stem in ("kernel", "kernels", "k_kernel") and kernel_file.parent.name:
        base = re.sub(r"\W", "_", kernel_file.resolve().parent.name)
    base = re.sub(r"[^A-Za-z0-9_]", "_", base).strip("_").lower() or "port"
    return base if not base[0].isdigit() else f"k_{base}"


# ---------------------------------------------------------------------------------------------- FFI model


@dataclass
class FfiArg:
    name: str  # Python / C name
    ident: str  # Rust identifier
    kind: str  # "array" | "scalar" | "const" | "grid" | "device" | "stream"
    ctype: str  # C declaration type
    rtype: str  # Rust FFI type
    rank: int = 0
    dtype: str = ""  # array: type generic name or concrete Rust type; scalar: Rust type
    pykind: str = ""  # scalar: int | float | bool
    raw: bool = False  # array passed to a raw-pointer entry: device pointer + shape/stride i32s (model.Param.raw)
    nonneg: bool = False  # kernel.rs assumes its strides >= 0 (model.Param.nonneg): the FFI refuses a negative one
    align: int = 0  # kernel.rs assumes its pointer aligned to this many bytes (model.Param.align): the FFI checks

    @property
    def host(self) -> str:
        """Rust host element type of an array (a type generic stays its name)."""
        return RUST_HOST_TYPE.get(self.dtype, self.dtype)


@dataclass
class FfiKernel:
    name: str  # Rust entry name (= the Python kernel's name unless it is a variant / per-dtype entry)
    variant: dict  # structural variant: ct.Constant values fixed in this entry ({} for none)
    symbol: str  # C symbol
    args: list[FfiArg]
    type_generics: list[tuple[str, str]]  # (generic name, deciding array)
    generics: list[dict]  # declaration order: {"name", "kind", "origin", "expr"}
    arrays: list[FfiArg] = field(default_factory=list)
    scalars: list[FfiArg] = field(default_factory=list)
    consts: list[FfiArg] = field(default_factory=list)
    arms: list[dict] = field(default_factory=list)
    flags: list[dict] = field(default_factory=list)
    python_name: str = ""
    device_args: list[FfiArg] = field(default_factory=list)  # the Rust entry's arguments, in order: arrays and
    # the scalars passed at launch (a ct.Constant[float] is a generic, not one of them)

    @property
    def array_dtypes(self) -> dict[str, str]:
        """Arrays whose element type this entry fixes (per-dtype entries), as torch dtype names."""
        return {a.name: TORCH_NAME[a.dtype] for a in self.arrays if a.dtype in TORCH_NAME}

    def selector(self) -> dict:
        return {"name": self.name, "python_name": self.python_name, "variant": dict(self.variant),
                "array_dtypes": self.array_dtypes}

    @property
    def c_params(self) -> str:
        return ", ".join(f"{a.ctype} {a.ident}" for a in self.args)


def ffi_kernel(k: model.Kernel) -> FfiKernel:
    args: list[FfiArg] = []
    arrays: list[FfiArg] = []
    scalars: list[FfiArg] = []
    device_args: list[FfiArg] = []
    for p in k.params:
        if p.kind == "array":
            a = FfiArg(p.name, _ident(p.name), "array", "const TensorDesc *", "*const TensorDesc", p.ndim, p.dtype,
                       raw=p.raw, nonneg=p.nonneg, align=p.align)
            arrays.append(a)
            device_args.append(a)
            args.append(a)
        elif p.kind == "scalar":
            ctype, pyk = SCALAR_C.get(p.dtype, ("int32_t", "int"))
            a = FfiArg(p.name, _ident(p.name), "scalar", ctype, p.dtype, 0, p.dtype, pyk)
            if not p.bits:  # a ct.Constant[float] is not a kernel argument: its bits are a generic (below)
                scalars.append(a)
                device_args.append(a)
            args.append(a)
    by_name = {a.name: a for a in arrays}
    type_generics: list[tuple[str, str]] = []
    consts: list[FfiArg] = []
    generics: list[dict] = []
    flags: list[dict] = []
    for g in k.generics:
        if g.kind == "type":
            owner = next((a.name for a in arrays if a.dtype == g.name), None)
            if owner is None:  # not tied to an array: the caller names it with a dtype code
                c = FfiArg(f"dtype_{g.name}", _ident(f"dtype_{g.name}"), "const", "int32_t", "i32", pykind="int")
                consts.append(c)
                owner = ""
            type_generics.append((g.name, owner))
            generics.append({"name": g.name, "kind": "type", "origin": g.origin,
                             "expr": f"dtype_name(d_{by_name[owner].ident}.dtype)" if owner else
                             f"dtype_name({_ident('dtype_' + g.name)})"})
            continue
        if g.origin == "float_bits":  # the C entry's double rounded to f32, its bits as the i32 const generic
            generics.append({"name": g.name, "kind": "const", "origin": g.origin,
                             "expr": f"(({_ident(g.name)} as f32).to_bits() as i32).to_string()"})
            continue
        if g.origin == "float_expr" and g.expr is not None:  # a compile-time float expression (ir/floatexpr.py):
            # computed from the launch's doubles, as cuTile Python computes it; no C argument of its own
            generics.append({"name": g.name, "kind": "const", "origin": g.origin,
                             "expr": f"{g.expr.rust(_ident)}.to_string()", "fexpr": g.expr})
            continue
        flag = g.test if g.origin == "dtype_flag" else ()
        if flag and flag[0] in by_name and flag[1] in DTYPE_CODES:
            arr, dt = flag
            expr = f"((d_{by_name[arr].ident}.dtype == {DTYPE_CODES[dt]}) as i32)"
            flags.append({"name": g.name, "array": arr, "dtype": dt, "code": DTYPE_CODES[dt]})
            generics.append({"name": g.name, "kind": "const", "origin": g.origin, "expr": f"{expr}.to_string()"})
            continue
        if g.origin == "unit_extent":  # 1 when the array's extent on that axis is 1 at the launch
            # (passes/unitdims.py: ct.launch makes it the constant 1); no C argument of its own
            arr, axis = g.test
            generics.append({"name": g.name, "kind": "const", "origin": g.origin, "unit": [arr, int(axis)],
                             "expr": f"((d_{by_name[arr].ident}.shape[{int(axis)}] == 1) as i32).to_string()"})
            continue
        if g.origin == "derived" and g.expr is not None:  # a derived shape dimension: computed from the constants
            expr = const_expr(g.expr, _ident)  # (frontends/derived.py); no C argument of its own
            generics.append({"name": g.name, "kind": "const", "origin": g.origin, "expr": f"({expr}).to_string()",
                             "derived": g.expr})
            continue
        c = FfiArg(g.name, _ident(g.name), "const", "int32_t", "i32", pykind="int")
        consts.append(c)
        generics.append({"name": g.name, "kind": "const", "origin": g.origin, "expr": f"{c.ident}.to_string()"})
    args += consts
    for ax in "xyz":
        args.append(FfiArg(f"grid_{ax}", f"grid_{ax}", "grid", "int32_t", "i32"))
    args.append(FfiArg("device_id", "device_id", "device", "int32_t", "i32"))
    args.append(FfiArg("raw_stream", "raw_stream", "stream", "uint64_t", "u64"))
    symbol = f"ctrs_{k.name}"
    variant = {f: int(v) for f, v in getattr(k, "variant", ()) or ()}
    fk = FfiKernel(k.name, variant, symbol, args, type_generics, generics, arrays, scalars, consts, flags=flags,
                   python_name=getattr(k, "python_name", "") or k.name, device_args=device_args)
    # one match arm per combination of element types of the type generics (dispatch_combos: a port with many)
    combos: list[list[str]] = [[]]
    for _ in type_generics:
        combos = [c + [d] for c in combos for d in GENERIC_DTYPES]
    launches = getattr(k, "launches", ()) or ()
    if launches and len(type_generics) > EVERY_COMBO_GENERICS and all(owner for _, owner in type_generics):
        combos = dispatch_combos([owner for _, owner in type_generics], arrays, launches)
    fk.arms = [{"codes": [DTYPE_CODES[d] for d in c], "types": [RUST_HOST_TYPE[d] for d in c], "names": c}
               for c in combos]
    return fk


def dispatch_combos(owners: list[str], arrays: list, launches) -> list[list[str]]:
    """The dtype combinations of a port's type generics (each decided by its array of ``owners``) that its C entry
    dispatches when the launches it serves kept its arrays apart into more than EVERY_COMBO_GENERICS generics:
    every generic in one dtype (what one generic E served), then the combination of each of ``launches`` (each
    ((array, IR dtype), ...)) in order, those whose concrete ``arrays`` (FfiArgs of this entry: an element entry's)
    have the launch's dtypes and whose generics are all element dtypes."""
    out = [[d] * len(owners) for d in GENERIC_DTYPES]
    concrete = {a.name: a.dtype for a in arrays if a.dtype not in {g for g in owners} and a.dtype in RUST_HOST_TYPE}
    for ln in launches:
        dts = dict(ln)
        combo = [dts.get(o) for o in owners]
        if all(d in GENERIC_DTYPES for d in combo) and combo not in out and all(
                dts.get(a, d) == d for a, d in concrete.items()):
            out.append(combo)
    return out


def wrapper_dispatch(fk: FfiKernel) -> dict | None:
    """What wrapper.py checks of a C entry that dispatches only some combinations of its type generics' dtypes
    (dispatch_combos): each generic's deciding array and the torch dtype names of every arm, so that it refuses
    the others before the call; None for an entry that dispatches every combination."""
    if len(fk.arms) >= len(GENERIC_DTYPES) ** len(fk.type_generics) or not all(o for _, o in fk.type_generics):
        return None
    return {"owners": [o for _, o in fk.type_generics], "generics": [g for g, _ in fk.type_generics],
            "allowed": [tuple(TORCH_NAME[d] for d in arm["names"]) for arm in fk.arms]}


# Scalar Rust types cutile's launcher turns into a divisibility hint of the specialisation (``DivHint::from_value``).
INTEGER_SCALARS = ("i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")


def launch_params(fk: FfiKernel) -> list[dict]:
    """The kernel's parameters as cutile 0.5.0's launcher packs them for cuLaunchKernel, in order: per array
    (``&Tensor`` or a raw-pointer entry's pointer + i32 extents) the device pointer (u64), its shape and then
    its strides (i32 each); per runtime scalar its value in its Rust type. ``expr``: the value in the C entry's
    scope (ffi.rs ``pack_<symbol>``); ``what``: a readable name (analysis.json ``launch_params``)."""
    out: list[dict] = []
    for a in fk.args:
        if a.kind == "array":
            out.append({"what": f"{a.name}.ptr", "rtype": "u64", "expr": f"d_{a.ident}.ptr"})
            out += [{"what": f"{a.name}.shape[{i}]", "rtype": "i32", "expr": f"d_{a.ident}.shape[{i}] as i32"}
                    for i in range(a.rank)]
            # a tensor view gets the strides the slow path borrows with (TensorDesc::view_strides); a raw-pointer
            # entry its strides as they are
            out += [{"what": f"{a.name}.strides[{i}]", "rtype": "i32",
                     "expr": f"d_{a.ident}.strides[{i}] as i32" if a.raw
                     else f"d_{a.ident}.view_stride({i}, d_{a.ident}.elem_bytes())"}
                    for i in range(a.rank)]
        elif a.kind == "scalar" and a in fk.scalars:
            out.append({"what": a.name, "rtype": a.rtype, "expr": a.ident})
    return out


def fast_key(fk: FfiKernel) -> list[str]:
    """Rust i64 expressions (C entry scope) that decide everything cutile resolves for a launch besides the
    values it packs: the device, this thread's launch hints, the grid, per array its dtype code, the
    alignment class of its pointer and its shape and strides (cutile's SpecializationBits are a function of
    them), per integer scalar its divisibility hint, per ct.Constant its value (the generics derive from
    them), per float constant passed as bits its bits. Two launches with equal keys get the same cutile
    specialisation, launch checks and grid: the second may reuse the first's CUfunction."""
    keys = ["device_id as i64", "hints.0 as i64", "hints.1 as i64", "hints.2 as i64", "grid.0 as i64",
            "grid.1 as i64", "grid.2 as i64"]
    for a in fk.args:
        if a.kind == "array":
            keys += [f"d_{a.ident}.dtype as i64", f"ptr_div(d_{a.ident}.ptr)"]
            keys += [f"d_{a.ident}.shape[{i}]" for i in range(a.rank)]
            keys += [f"d_{a.ident}.strides[{i}]" for i in range(a.rank)]
        elif a.kind == "scalar" and a in fk.scalars:
            if a.rtype in INTEGER_SCALARS:
                keys.append(f"int_div({a.ident} as i32)")
        elif a.kind == "scalar":  # a ct.Constant[float]: its bits are a const generic
            keys.append(f"({a.ident}.to_bits() as i64)")
        elif a.kind == "const":
            keys.append(f"{a.ident} as i64")
    return keys


def ffi_kernels(mod: model.Module) -> list[FfiKernel]:
    """One C entry per Rust entry (structural variants and per-dtype entries are entries of their own)."""
    return [ffi_kernel(k) for k in mod.kernels]


def pick_entry(entries: list[dict], python_name: str, constants: dict, dtypes: dict[str, str]) -> dict | None:
    """The entry a launch of ``python_name`` with these constants / array dtypes (torch names) runs.

    ``entries``: FfiKernel.selector() dicts. A variant entry matches when all its fixed constants are equal;
    failing that, an entry whose fixed value is the largest of its flag's values stands for any other value
    (the rule of int-flag variants). Per-dtype entries must match the arrays' dtypes. The same logic is in
    wrapper.py (standalone) and ctrs check.
    """
    cands = [e for e in entries if e["python_name"] == python_name
             and all(dtypes.get(a) in (None, d) for a, d in e["array_dtypes"].items())]
    for e in cands:
        if all(f in constants and int(constants[f]) == v for f, v in e["variant"].items()):
            return e
    for e in cands:
        if not e["variant"]:
            continue
        ok = True
        for f, v in e["variant"].items():
            seen = {o["variant"][f] for o in cands if f in o["variant"]}
            c = int(constants.get(f, -1))
            if not (c == v or (v == max(seen) and c not in seen)):
                ok = False
        if ok:
            return e
    return None


def cdef(fks: list[FfiKernel], dispatchers: list[dict] | None = None, exchange: list[dict] | None = None) -> str:
    """The one cffi cdef string: the TensorDesc typedef plus one prototype per exported symbol."""
    lines = ["typedef struct {",
             "    uint64_t ptr;",
             "    int32_t ndim;",
             f"    int64_t shape[{MAX_DIMS}];",
             f"    int64_t strides[{MAX_DIMS}];",
             "    int32_t dtype;",
             "} TensorDesc;"]
    for fk in fks:
        lines.append(f"int32_t {fk.symbol}({fk.c_params});")
    for d in dispatchers or []:
        lines.append(f"int32_t {d['symbol']}({d['c_params']});")
    for x in exchange or []:
        lines.append(f"int32_t {x['symbol']}({x['c_params']});")
    if exchange:
        lines.append("int32_t ctrs_xc_usable(uint64_t api);")
        lines.append("int32_t ctrs_xc_descs(uint64_t api, uint64_t arrays, int32_t n, TensorDesc * out, "
                     "int32_t * device_id, uint64_t * raw_stream);")
    lines.append("int32_t ctrs_set_launch_hints(int32_t occupancy, int32_t num_ctas, int32_t num_worker_warps);")
    lines.append("int32_t ctrs_set_fast_path(int32_t on);")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------- files


def cargo_toml(name: str, profile) -> str:
    """The port crate's Cargo.toml: every crate of the target profile (``ctrs.targets.Profile``) pinned exactly."""
    return _env().get_template("Cargo.toml.j2").render(name=name, cutile_version=profile.version,
                                                       crates=sorted(profile.crates.items()))


def cargo_lock(name: str, profile) -> str | None:
    """The profile's harness lock re-rooted on the port crate (same resolved versions -> shared compiled deps)."""
    lock = profile.template(profile.cargo_lock)
    if not lock.exists():
        return None
    text = lock.read_text()
    head, *blocks = text.split("\n[[package]]\n")
    kept = [b for b in blocks if not b.startswith('name = "ctrs-irc"\n')]
    kept = [b.rstrip("\n") + "\n" for b in kept]
    deps = "".join(f' "{c}",\n' for c in sorted(profile.crates))
    kept.append(f'name = "{name}"\nversion = "0.1.0"\ndependencies = [\n{deps}]\n')

    def key(b: str) -> tuple[str, str]:
        m = re.match(r'name = "([^"]+)"\nversion = "([^"]+)"', b)
        return (m.group(1), m.group(2)) if m else ("", "")

    kept.sort(key=key)
    return head.rstrip("\n") + "\n\n" + "\n".join(f"[[package]]\n{b}" for b in kept)


def lib_rs(stem: str) -> str:
    return _env().get_template("lib.rs.j2").render(stem=stem)


def host_spellings(profile) -> dict[str, str]:
    """The host-side lines of ffi.rs that differ between cutile versions, from the profile's ``[api.host_*]``:
    the context type and constructor, and the borrow of caller memory (``dev``: the context, an ``Arc``)."""
    return {
        "context_type": profile.spelling("host_context")["type"],
        "context_new": profile.render("host_context", ordinal="device_id as usize"),
        "borrow_tensor": profile.render("host_borrow_tensor", in_unsafe=True, dtype="T", ptr="d.ptr",
                                        device_id="dev.ordinal()", context="dev", shape="d.shape_i32()",
                                        strides="d.view_strides(std::mem::size_of::<T>())"),
        "borrow_stream": profile.render("host_borrow_stream", in_unsafe=True, raw_stream="raw_stream as *mut c_void",
                                        context="dev"),
        # the steady-state fast path: spelled (the kernel-cache lookup) only where the version was reviewed for it
        "fast": bool(profile.spelling("host_fast_launch")["rust"]),
        "fast_slot": profile.render("host_fast_launch", key="&key"),
    }


def module_codes(fks: list[FfiKernel]) -> dict[str, int]:
    """The TensorDesc dtype codes of a port: TileGym's five, and an fp8 code where one of its arrays has that type."""
    used = {a.dtype for fk in fks for a in fk.arrays}
    return {**DTYPE_CODES, **{d: c for d, c in FP8_CODES.items() if d in used}}


def ffi_rs(mod: model.Module, fks: list[FfiKernel], sites: dict | None, profile) -> str:
    pks = python_kernels(mod, fks, sites or {})
    return _env().get_template("ffi.rs.j2").render(
        host=host_spellings(profile), cutile_version=profile.version,
        source=mod.source, stem=mod.stem, kernels=fks, codes=module_codes(fks), host_types=RUST_HOST_TYPE,
        max_dims=MAX_DIMS,
        layouts={fk.symbol: launch_params(fk) for fk in fks}, keys={fk.symbol: fast_key(fk) for fk in fks},
        dispatchers=c_dispatchers(pks),
        exchange=exchange_entries(pks, sites),
        round_float=any(g.get("fexpr") is not None for fk in fks for g in fk.generics),
        generic_codes=" | ".join(str(DTYPE_CODES[d]) for d in GENERIC_DTYPES))


def python_kernels(mod: model.Module, fks: list[FfiKernel], sites: dict) -> list[dict]:
    """Each Python @ct.kernel with its entries and its parameter order (from the file, else the entries)."""
    out: dict[str, dict] = {}
    for fk in fks:
        d = out.setdefault(fk.python_name, {"name": fk.python_name, "entries": [], "inputs": [], "consts": [],
                                            "arrays": []})
        d["entries"].append(fk)
    for name, d in out.items():
        order = (sites.get("kernels") or {}).get(name)
        if order:  # a ct.Constant an entry takes as a runtime scalar (a demoted Constant[float]) is an input
            scalar = {a.name for fk in d["entries"] for a in fk.args if a.kind == "scalar"}
            d["inputs"] = [p for p, c in order if not c or p in scalar]
            d["consts"] = [p for p, c in order if c and p not in scalar]
        else:
            for fk in d["entries"]:
                for a in fk.args:
                    if a.kind in ("array", "scalar") and a.name not in d["inputs"]:
                        d["inputs"].append(a.name)
                for f in list(fk.variant) + [c.name for c in fk.consts]:
                    if f not in d["consts"]:
                        d["consts"].append(f)
        d["arrays"] = [n for n in d["inputs"] if any(n in [a.name for a in fk.arrays] for fk in d["entries"])]
        d["dispatch"] = [fk.name for fk in d["entries"]] != [name]
    return [out[k] for k in sorted(out, key=lambda n: [fk.python_name for fk in fks].index(n))]


def c_dispatchers(pks: list[dict]) -> list[dict]:
    """One ``ctrs_<python kernel>`` C entry per Python kernel ported as several Rust entries (structural
    variants, per-dtype entries): it takes every ct.Constant (the variant selectors included, as i32) and
    forwards to the entry :func:`pick_entry` would pick (docs/porting.md §7)."""
    out = []
    for d in pks:
        symbol = f"ctrs_{d['name']}"
        entries = d["entries"]
        if not d["dispatch"] or any(fk.symbol == symbol for fk in entries):
            continue
        if any(c.name.startswith("dtype_") for fk in entries for c in fk.consts):
            continue
        by_name: dict[str, FfiArg] = {}
        for fk in entries:
            for a in fk.args:
                if a.kind in ("array", "scalar", "const"):
                    by_name.setdefault(a.name, a)
        args = [by_name[n] for n in d["inputs"] if n in by_name]
        if len(args) != len(d["inputs"]):
            continue
        # a ct.Constant[float] is a runtime f32 parameter of the entries (demoted): it keeps that type here
        consts = [by_name[c] if c in by_name and by_name[c].kind == "scalar" else
                  FfiArg(c, _ident(c), "const", "int32_t", "i32", pykind="int") for c in d["consts"]]
        tail = [FfiArg(f"grid_{ax}", f"grid_{ax}", "grid", "int32_t", "i32") for ax in "xyz"]
        tail += [FfiArg("device_id", "device_id", "device", "int32_t", "i32"),
                 FfiArg("raw_stream", "raw_stream", "stream", "uint64_t", "u64")]
        all_args = args + consts + tail
        idents = {a.name: ("p_" + a.ident if a.kind == "array" else a.ident) for a in all_args}
        arms = []
        for fk in entries:
            conds = []
            for f, v in fk.variant.items():
                seen = sorted({o.variant[f] for o in entries if f in o.variant})
                c = idents[f]
                if v == max(seen):
                    conds.append(f"({c} == {v} || !matches!({c}, {' | '.join(map(str, seen))}))")
                else:
                    conds.append(f"{c} == {v}")
            for a, dt in fk.array_dtypes.items():
                code = next(ALL_CODES[k] for k, t in TORCH_NAME.items() if t == dt)
                conds.append(f"unsafe {{ (*{idents[a]}).dtype }} == {code}")
            call = [idents[a.name] if a.name in idents else a.ident for a in fk.args]
            if len(conds) == 1 and conds[0].startswith("("):
                conds[0] = conds[0][1:-1]
            arms.append({"cond": " && ".join(conds) or "true", "symbol": fk.symbol, "call": ", ".join(call)})
        per_dtype = any(fk.array_dtypes for fk in entries)
        out.append({"name": d["name"], "symbol": symbol, "args": all_args,
                    "c_params": ", ".join(f"{a.ctype} {a.ident if a.kind != 'array' else 'p_' + a.ident}"
                                          for a in all_args),
                    "arrays": [idents[a.name] for a in args if a.kind == "array"], "arms": arms,
                    "miss": "rc::UNSUPPORTED_DTYPE" if per_dtype else "rc::INVALID_ARGS",
                    "entries": [fk.name for fk in entries]})
    return out


def exchange_entries(pks: list[dict], sites: dict | None) -> list[dict]:
    """One ``ctrs_xc_<python kernel>`` C entry per Python kernel whose launch the C side can take whole: its
    arrays read from a tuple of torch tensors through torch's DLPack exchange API (device and current stream
    included), then the kernel's own entry (one Rust entry) or its C dispatcher called with them. Kernels with
    no array, with wrapper-only checks (a Triton kernel's extent ties), with a dtype code constant, or with a
    Python dispatcher but no C one keep the validated Python path only (docs/porting.md §11, "Launch path")."""
    disp = {d["name"]: d for d in c_dispatchers(pks)}
    out = []
    for d in pks:
        if d["dispatch"]:
            if d["name"] not in disp:
                continue
            target, args = disp[d["name"]]["symbol"], disp[d["name"]]["args"]
        else:
            fk = d["entries"][0]
            target, args = fk.symbol, fk.args
        tmap = ((sites or {}).get("triton") or {}).get(d["name"])
        if (any(extent_checks(tmap, fk) for fk in d["entries"]) or not any(a.kind == "array" for a in args)
                or any(a.name.startswith("dtype_") and a.kind == "const" for a in args)):
            continue
        arrays = [a for a in args if a.kind == "array"]
        params = [a for a in args if a.kind not in ("array", "device", "stream")]
        index = {a.name: i for i, a in enumerate(arrays)}
        call = [f"&d[{index[a.name]}]" if a.kind == "array" else "device_id" if a.kind == "device"
                else "raw_stream" if a.kind == "stream" else a.ident for a in args]
        out.append({"name": d["name"], "symbol": f"ctrs_xc_{d['name']}", "target": target,
                    "arrays": [a.name for a in arrays], "params": params, "call": ", ".join(call),
                    "c_params": ", ".join(["uint64_t api", "uint64_t arrays"]
                                          + [f"{a.ctype} {a.ident}" for a in params]),
                    "py_args": [f"_g[{'xyz'.index(a.name[-1])}]" if a.kind == "grid" else a.name for a in params]})
    return out


def extent_checks(tmap: dict | None, fk: FfiKernel) -> list[dict]:
    """Wrapper checks for a Triton port: arrays the Triton kernel masks with one bound must have that extent
    (the port bounds every view by its own tensor's shape, the Triton kernel by the one bound)."""
    out = []
    names = {a.name for a in fk.arrays}
    consts = {c.name for c in fk.consts}
    for bound, kind, axes in (tmap or {}).get("ties", []):
        axes = [(a, k) for a, k in axes if a in names]
        if kind == "const" and bound in consts:
            for a, k in axes:
                out.append({"cond": f"{a}.shape[{k}] != {bound}",
                            "msg": f"'{a}' axis {k} must have extent {bound}={{{bound}}} (the kernel masks it with "
                                   f"the constexpr {bound})"})
        elif len(axes) > 1:
            (a0, k0), rest = axes[0], axes[1:]
            for a, k in rest:
                out.append({"cond": f"{a}.shape[{k}] != {a0}.shape[{k0}]",
                            "msg": f"'{a}' axis {k} and '{a0}' axis {k0} must have one extent (the kernel masks "
                                   f"both with '{bound}')"})
    return out


def implied_dtypes(sites: dict | None, kernel: str) -> list[str]:
    """The Triton dtype constexprs a wrapper accepts and ignores: each is the element type of the array it is
    tied to (launch map kind ``dtype``, frontends/triton/dtype_params.py), so the launch's value adds nothing."""
    tmap = ((sites or {}).get("triton") or {}).get(kernel) or {}
    return [p["name"] for p in tmap.get("params", []) if p["kind"] == "dtype" and p.get("array")]


def wrapper_py(mod: model.Module, fks: list[FfiKernel], name: str, sites: dict | None = None) -> str:
    ctx = []
    for fk in fks:
        groups: dict[str, list[str]] = {}
        for a in fk.arrays:
            groups.setdefault(a.dtype, []).append(a.name)
        ctx.append({
            "fk": fk,
            "pyname": fk.name,
            "arrays": [{"name": a.name, "rank": a.rank,
                        "dtypes": [TORCH_NAME[d] for d in GENERIC_DTYPES] if a.dtype not in TORCH_NAME
                        else [TORCH_NAME[a.dtype]],
                        "group": a.dtype} for a in fk.arrays],
            "groups": {g: n for g, n in groups.items() if len(n) > 1 and g not in TORCH_NAME},
            "dispatch": wrapper_dispatch(fk),
            "inputs": [a for a in fk.args if a.kind in ("array", "scalar")],
            "consts": fk.consts,
            "ties": extent_checks(((sites or {}).get("triton") or {}).get(fk.python_name), fk),
            "implied": implied_dtypes(sites, fk.python_name),
        })
    pks = python_kernels(mod, fks, sites or {})
    for d in pks:
        d["implied"] = implied_dtypes(sites, d["name"])
    entries = [{**fk.selector(), "args": [a.name for a in fk.args if a.kind in ("array", "scalar", "const")]}
               for fk in fks]
    exchange = exchange_entries(pks, sites)
    return _env().get_template("wrapper.py.j2").render(
        source=mod.source, libname=name, cdef=cdef(fks, c_dispatchers(pks), exchange), kernels=ctx,
        codes=module_codes(fks), exchange={x["name"]: x for x in exchange},
        torch_names=TORCH_NAME, max_dims=MAX_DIMS, dispatchers=[d for d in pks if d["dispatch"]],
        dispatched={e.name for d in pks if d["dispatch"] for e in d["entries"]},
        entries_literal=json.dumps(entries, indent=4, sort_keys=True))


# ---------------------------------------------------------------------------------------------- analysis


_walk = model.walk


def op_stats(k: model.Kernel) -> dict[str, int]:
    """How many ops each rule (the op kind the front end recorded) produced in one kernel."""
    counts: dict[str, int] = {}
    for s in _walk(k.body):
        op = getattr(s, "op", None)
        if op is not None:
            rule = getattr(op, "rule", None) or op.kind
            counts[rule] = counts.get(rule, 0) + 1
        elif isinstance(s, model.For):
            counts["for"] = counts.get("for", 0) + 1
        elif isinstance(s, model.While):
            counts["while"] = counts.get("while", 0) + 1
        elif isinstance(s, model.IfConst):
            counts["if_const"] = counts.get("if_const", 0) + 1
    return dict(sorted(counts.items()))


def source_map(mod: model.Module, kernel_rs: str) -> list[dict]:
    """Rust line -> Python line (and rule) for each kernel.rs line a model node produced.

    Computed from the rendered text: the template prints the model in order, one line per statement
    (plus loop / if headers and closers), so a forward scan finds each statement's line.
    """
    from ctrs.workflow import generated  # noqa: PLC0415 - stdlib only

    lines = kernel_rs.splitlines()
    out: list[dict] = []
    cur = 0
    skip = generated.header_lines("kernel.rs")  # lines of the written kernel.rs, after its @generated header

    def find(pred, start: int) -> int:
        for i in range(start, len(lines)):
            if pred(lines[i].strip()):
                return i
        return -1

    def add(i: int, span: model.Span, rule: str, kernel: str) -> None:
        if i >= 0 and span.line:
            out.append({"rs_line": i + 1 + skip, "py_line": span.line, "py_col": span.col, "rule": rule,
                        "kernel": kernel})

    def block(stmts: list, kernel: str) -> None:
        nonlocal cur
        for s in stmts:
            if isinstance(s, model.Let):
                i = find(lambda t, s=s: t.startswith((f"let {s.name}:", f"let mut {s.name}:")), cur)
                add(i, s.span, getattr(s.op, "rule", None) or s.op.kind, kernel)
            elif isinstance(s, model.Assign):
                i = find(lambda t, s=s: t.startswith(f"{s.name} = "), cur)
                add(i, s.span, getattr(s.op, "rule", None) or s.op.kind, kernel)
            elif isinstance(s, (model.For, model.While)):  # a loop: its head line, then its body
                head, kind = (f"for {s.var} in ", "for") if isinstance(s, model.For) else (f"while {s.cond} {{", "while")
                i = find(lambda t, head=head: t.startswith(head), cur)
                add(i, s.span, kind, kernel)
                cur = i + 1 if i >= 0 else cur
                block(s.body, kernel)
                continue
            elif isinstance(s, model.IfConst):
                i = find(lambda t, s=s: t.startswith(f"if {s.cond} {{"), cur)
                add(i, s.span, "if_const", kernel)
                cur = i + 1 if i >= 0 else cur
                block(s.then, kernel)
                j = find(lambda t: t.startswith("} else {"), cur)
                cur = j + 1 if j >= 0 else cur
                block(s.otherwise, kernel)
                continue
            else:
                continue
            cur = i + 1 if i >= 0 else cur

    for k in mod.kernels:
        i = find(lambda t, k=k: re.match(rf"pub (unsafe )?fn {re.escape(k.name)}\b", t) is not None, cur)
        if i < 0:
            continue
        add(i, k.span, "entry", k.name)
        cur = i + 1
        for p in k.params:
            if p.kind == "constant":
                continue
            j = find(lambda t, p=p: t.startswith(f"{p.name}: "), cur)
            add(j, p.span, f"param_{p.kind}", k.name)
        block(k.body, k.name)
    return out


def kernel_dtypes(k: model.Kernel) -> list[str]:
    """Element types the port accepts (torch names), from its type generics and concrete array types."""
    names: set[str] = set()
    for p in k.params:
        if p.kind != "array":
            continue
        if p.dtype in TORCH_NAME:
            names.add(TORCH_NAME[p.dtype])
        else:
            names.update(TORCH_NAME[d] for d in GENERIC_DTYPES)
    return sorted(names)


def analysis(mod: model.Module, fks: list[FfiKernel], kernel_rs: str, sites: dict, crate: str, profile) -> dict:
    kernels = []
    by_entry = {fk.name: fk for fk in fks}
    selectors = [fk.selector() for fk in fks]
    specs = []
    for s in sites.get("specialisations", []):
        s = dict(s)
        e = pick_entry(selectors, s["kernel"], s["constants"], {}) if s["complete"] else None
        s["entry"] = e["name"] if e else ""
        specs.append(s)
    for k in mod.kernels:
        fk = by_entry[k.name]
        py = fk.python_name
        conds = sorted({s.cond for s in _walk(k.body) if isinstance(s, model.IfConst)})
        dts = kernel_dtypes(k)
        stats = op_stats(k)
        # integer kernels and pure data movement (no float arithmetic rule fired) compare exactly
        copy_only = not any(kind in FLOAT_ARITH_KINDS for kind in stats)
        integer_only = copy_only or (all(d.startswith("int") for d in dts) if dts else False)
        kernels.append({
            "name": k.name,
            "python_name": py,
            "line": k.span.line,
            "entry": k.name,
            "symbol": fk.symbol,
            "c_signature": f"int32_t {fk.symbol}({fk.c_params})",
            "unsafe": k.unsafe,
            "variant": dict(fk.variant),
            "const_branches": conds,
            "generics": [{"name": g.name, "kind": g.kind, "origin": g.origin, "note": g.note,
                          **({"expr": g.expr.python()} if g.expr is not None else {}),
                          **({"unit": [g.test[0], int(g.test[1])]} if g.origin == "unit_extent" else {})}
                         for g in k.generics],
            "dtype_flags": fk.flags,
            "params": [{"name": p.name, "kind": p.kind, "dtype": p.dtype, "rank": p.ndim, "line": p.span.line}
                       for p in k.params],
            "constants": [p.name for p in k.params if p.kind == "constant"],
            "dtypes": dts,
            "tolerances": {TORCH_NAME[d]: ({"atol": 0, "rtol": 0, "exact": True} if integer_only or d.startswith("i")
                                           else {"atol": TOLERANCES[d][0], "rtol": TOLERANCES[d][1], "exact": False})
                           for d in TORCH_NAME if TORCH_NAME[d] in dts},
            "op_stats": stats,
            "launch_grids": sorted({s["grid"] for s in sites.get("launches", []) if s["kernel"] == py}),
            "launch_params": [[p["what"], p["rtype"]] for p in launch_params(fk)],
            "specialisations": [s["name"] for s in specs if s["kernel"] == py and s["entry"] == k.name],
        })
    pks = python_kernels(mod, fks, sites)
    disp = {d["name"]: d for d in c_dispatchers(pks)}
    return {
        "ctrs_analysis_version": 1,
        "source": mod.source,
        "crate": crate,
        "cutile": profile.version,  # the target profile the port is spelled and pinned for (check, bundle read it)
        "module": f"{mod.stem}_module",
        "dtype_codes": {TORCH_NAME[d]: c for d, c in DTYPE_CODES.items()},
        "return_codes": {"0": "ok", "-2": "unsupported dtype", "-3": "launch failed", "-4": "device init failed",
                         "-5": "null pointer", "-6": "invalid arguments",
                         "-7": "an assumed fact does not hold (negative stride, misaligned pointer)",
                         "-8": "an exchange entry could not read an argument (nothing launched)"},
        "kernels": kernels,
        "python_kernels": [{"name": d["name"], "entries": [fk.name for fk in d["entries"]], "inputs": d["inputs"],
                            "dispatcher": {"symbol": disp[d["name"]]["symbol"],
                                           "c_signature": f"int32_t {disp[d['name']]['symbol']}"
                                                          f"({disp[d['name']]['c_params']})"}
                            if d["name"] in disp else None,
                            "constants": d["consts"], "arrays": d["arrays"],
                            "variants": [{"entry": fk.name, "symbol": fk.symbol, "fixed": dict(fk.variant),
                                          "array_dtypes": fk.array_dtypes} for fk in d["entries"]]}
                           for d in pks],
        "specialisations": specs,
        "launch_sites": sites.get("launches", []),
        "config_lists": sites.get("configs", []),
        "source_map": source_map(mod, kernel_rs),
        **({"triton": sites["triton"]} if sites.get("triton") else {}),  # Triton param -> spec map (gpu_host)
    }


def analysis_json(data: dict) -> str:
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def render_port(mod: model.Module, kernel_rs: str, kernel_file: Path, sites: dict, profile) -> dict[str, str]:
    """All host-side files of the port crate (relative name -> text) for the target ``profile``
    (``ctrs.targets.Profile``); kernel.rs is rendered elsewhere."""
    name = crate_name(mod.stem, kernel_file)
    fks = ffi_kernels(mod)
    files = {
        "lib.rs": lib_rs(mod.stem),
        "ffi.rs": ffi_rs(mod, fks, sites, profile),
        "Cargo.toml": cargo_toml(name, profile),
        "wrapper.py": wrapper_py(mod, fks, name, sites),
        "analysis.json": analysis_json(analysis(mod, fks, kernel_rs, sites, name, profile)),
    }
    lock = cargo_lock(name, profile)
    if lock is not None:
        files["Cargo.lock"] = lock
    return files
