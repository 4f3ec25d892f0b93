"""cuTile Python -> typed tile IR, directly from libcst nodes (no Rust text anywhere).

lowering.py holds the core (parameters, statements, expressions, the environment); every ``ct.*`` call is
lowered by a handler registered in one module per op family (grid.py, memory.py, tiles.py); builder.py (one
level up) is what the cuTile and Triton front ends share. See docs/ir.md.
"""

from __future__ import annotations

import libcst as cst

from ... import errors, ir
from ...ir.naming import variant_entry
from ..pysource import compared_literals
from . import arith, dtypes, grid, memory, pybuiltins, scan, shapes, tiles  # noqa: F401 - importing a family module registers its handlers
from .control import FlagDType
from .lowering import Lowering, unsupported
from .module import Structural
from .recovery import finish, record
from .values import ELEMENT, ArrayRef, DT, PoisonUse

__all__ = ["ELEMENT", "ArrayRef", "DT", "Lowering", "lower_file", "lower_kernel", "unsupported"]


def lower_file(info, refused: dict[str, list[errors.CtrsError]] | None = None,
               element_dtypes: tuple = ("f32", "f16", "bf16"), on_unsupported=None, launches=None) -> ir.Module:
    """Every @ct.kernel of a parsed file (module.ModuleInfo) as typed IR, verified.

    Each kernel is lowered to the end whatever fails (recovery.py). Without ``refused`` the first blocker of
    the first refused kernel is raised; with it, ``refused[kernel]`` gets every blocker of each refused
    kernel (recording order) and the module holds the others.

    Every array has a dtype variable of its own; dtypes.py solves which are one, which are concrete, and lowers
    a kernel whose lowering depends on a variable (``v * ct.full(.., dtype=ct.bfloat16)``: the result type
    depends on it) once per dtype of it, as ``<name>_<dtype>`` entries (those whose lowering fails are left out;
    none left: refused).
    ``on_unsupported``: Lowering's hook for constructs without a rule (``ctrs translate --llm`` only).
    ``launches``: kernel name -> the launches the port must serve, each {array: IR dtype name} (from the specs
    given: translate.launch_dtypes); the arrays' free variables stay apart where one passes them in different
    dtypes (dtypes.launch_groups). None: one generic E, as always."""
    kernels = []
    for fn in info.kernels:
        ks, blockers = _flag_dtype_entries(info, fn, element_dtypes, on_unsupported,
                                           tuple((launches or {}).get(fn.name.value, ())))
        if blockers and refused is None:
            raise blockers[0]
        if blockers:
            refused[fn.name.value] = blockers
        kernels += ks
    return ir.Module(str(info.path), kernels)


def _flag_dtype_entries(info, fn: cst.FunctionDef, element_dtypes, on_unsupported, launches=()):
    """``fn``'s entries (dtypes.entries), once per value of each flag whose arms type the arrays differently
    (control.FlagDType: the reference types only the arm it keeps; each value gets dtype variables of its own)."""
    seeds: list[tuple[dict, dict, dict]] = [({}, {}, {})]
    out: list[ir.Kernel] = []
    order = [p.name.value for p in fn.params.params]
    while seeds:
        seed = seeds.pop(0)

        def lower(mapping, met=None, seed=seed):
            return lower_kernel(info, fn, mapping, on_unsupported, met_float=met, seed=seed)

        try:
            ks, blockers = dtypes.entries(lower, dtypes.array_names(Lowering, info, fn), fn.name.value,
                                          element_dtypes, info.loc(fn), index_dtypes=dtypes.INDEX_DTYPES,
                                          launches=launches)
        except FlagDType as s:
            fixed, other, why = seed
            if s.flag in fixed or s.flag in other or s.flag not in order:
                return [], [errors.CtrsError(errors.IR_UNSUPPORTED, f"typed-IR front end: cannot split ct.Constant "
                                             f"'{s.flag}' into entries here ({s.why})", "compare it with literals "
                                             "only", errors.Loc(str(info.path), s.line))]
            why = {**why, s.flag: (s.line, f"the arrays' dtypes depend on it: {s.why}")}
            seeds[0:0] = [(f, o, why) for f, o in _values(info, fn, s.flag, s.kind, fixed, other, None, s.literals)]
            continue
        if blockers:
            return [], blockers
        out += ks
    return out, []


def _values(info, fn, flag: str, kind: str, fixed: dict, other: dict, literals=None,
            tested: set[int] = frozenset()) -> list[tuple[dict, dict]]:
    """The (fixed, other) seeds of a structural split on ``flag``: a ``bool`` flag 0 and 1; an ``int`` flag each
    literal it is compared with (and ``tested``: the 0 of an ``if N:``), then the entry standing for any other
    value."""
    if kind == "bool":
        return [({**fixed, flag: v}, other) for v in (0, 1)]
    lits = set((literals or _compared_literals)(info, fn, flag)) | set(tested)
    top = max(lits, default=0) + 1
    return [({**fixed, flag: v}, other) for v in sorted(lits)] + [(fixed, {**other, flag: (top, lits)})]


def lower_kernel(info, fn: cst.FunctionDef, element=ELEMENT, on_unsupported=None, make=None, literals=None,
                 met_float: set | None = None, seed=None) -> tuple[list[ir.Kernel], list[errors.CtrsError]]:
    """One kernel, or one entry per value of each structural flag (control.py): a ``bool`` flag gets 0 and 1;
    an ``int`` flag one entry per literal the kernel compares it with, plus one (value max+1) standing for any
    other value, in which the flag stays a const generic and only its ``==``/``!=`` tests on those literals fold.
    Entries are named and recorded (Kernel.variant / python_name) as the text-model pipeline does, so ffi.rs,
    wrapper.py and ``ctrs check`` dispatch to them alike. Returns the verified entries, or no entry and the
    blockers of the first lowering that has any (recovery.py). ``seed``: (fixed, other, why) of a split made
    before the dtypes were solved (lower_file: control.FlagDType). The Triton front end passes ``make()`` (a fresh
    Lowering of ``fn``) and ``literals(info, fn, flag)`` (the literals a flag is compared with)."""
    order = [p.name.value for p in fn.params.params]
    pending: list[tuple[dict, dict]] = [(seed[0], seed[1]) if seed else ({}, {})]
    out: list[ir.Kernel] = []
    why: dict[str, tuple[int, str]] = dict(seed[2]) if seed else {}
    skipped: list[tuple[str, list]] = []  # (flag values, blockers) of entries the reference cannot compile either
    while pending:
        fixed, other = pending.pop(0)
        lw = make() if make is not None else Lowering(info, fn, element, on_unsupported)
        lw.fixed, lw.other = dict(fixed), {f: lits for f, (_, lits) in other.items()}
        if met_float is not None:
            lw.met_float = met_float  # the dtype variables that met a concrete float (dtypes.py's merge policy)
        try:
            k = lw.kernel()
            finish(lw)
            if not lw.blockers:
                k = ir.verify(k)
        except errors.CtrsError as e:  # outside any statement (decorator, signature) or the verifier
            record(lw, e)
        except PoisonUse:  # poison only exists once a blocker was recorded; never a silent refusal
            if not lw.blockers:
                record(lw, unsupported(info, fn, "a value left undefined by an earlier failure"))
        except Structural as s:
            if s.flag in fixed or s.flag in other or s.flag not in order:
                return [], [errors.CtrsError(errors.IR_UNSUPPORTED, f"typed-IR front end: cannot split ct.Constant "
                                             f"'{s.flag}' into entries here ({s.why})", "compare it with literals "
                                             "only", errors.Loc(str(info.path), s.line))]
            why.setdefault(s.flag, (s.line, s.why))
            pending[0:0] = _values(info, fn, s.flag, lw.flags.get(s.flag, "int"), fixed, other, literals,
                                   getattr(s, "literals", ()))
            continue
        if lw.blockers and (fixed or other) and (all(b.code in errors.NOT_IN_REFERENCE for b in lw.blockers)
                                              or any(b.code == errors.TRITON_UNBOUND_IN_ENTRY for b in lw.blockers)):
            # no launch with these flag values compiles in the reference either: no entry for them (a name read
            # where nothing bound it fails Triton's compile whatever else the entry holds: CTRS-E713)
            vals = [f"{f}={v}" for f, v in fixed.items()] + [f"{f} not in {sorted(ls)}" for f, (_, ls) in other.items()]
            skipped.append((", ".join(vals), sorted(lw.blockers, key=lambda b: b.code != errors.TRITON_UNBOUND_IN_ENTRY)))
            continue
        if lw.blockers:
            return [], lw.blockers
        if fixed or other:
            values = {**fixed, **{f: v for f, (v, _) in other.items()}}
            items = sorted(values.items(), key=lambda kv: order.index(kv[0]))
            k.name = variant_entry(fn.name.value, items)
            k.python_name = fn.name.value
            k.variant = tuple((f, int(v)) for f, v in items)
            k.notes += [(why[f][0], "variant", f"entry {k.name} <- {f}={v} (structural: {why[f][1]})")
                        for f, v in k.variant if f in why]
        out.append(k)
    if skipped and not out:
        return [], skipped[0][1]
    for k in out:
        k.notes += [(bs[0].loc.line if bs[0].loc else 0, "variant", f"no entry for {vals}: {bs[0].message}")
                    for vals, bs in skipped]
    return out, []


def _compared_literals(info, fn: cst.FunctionDef, flag: str) -> set[int]:
    def value(b):
        return int(b.value, 0) if isinstance(b, cst.Integer) else (
            info.consts.get(b.value) if isinstance(b, cst.Name) else None)

    return compared_literals([fn.body, *(h.body for h in info.helpers.values())], flag, value)
