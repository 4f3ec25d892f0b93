"""The typed-IR pipeline: cuTile Python (frontends/cutile/) or Triton (frontends/triton/) -> IR -> passes (passes/)
-> Rust (emitters/ir_rust.py).

The one pipeline of ctrs: a construct outside its subset is a blocker (CTRS-E124 from the front end, CTRS-E125
from the emitter, ...), reported at its file:line:col; there is no other pipeline to fall back to.

Keep-going (``refused`` below): every kernel is lowered, specialised and emitted on its own; a kernel
whose front end, passes or emitter raise is refused with all its blockers, and the others still make a module
(the port of the others: translate.translate_module).
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from . import errors, targets
from .emitters import rust_model as model
from .frontends import cutile as fe_cutile
from .frontends import triton as fe_triton
from .frontends.cutile.module import ModuleInfo
from .frontends import pysource
from .frontends.pysource import read_kernel_source
from .ir import Kernel, OpKind, print_kernel, walk
from .ir_rules import cutile_rules
from .passes import STAGES, run_pipeline

# "outside the typed subset" blockers: a statement stopped by one can be asked for as a whole (ctrs translate --llm)
FALLBACK_CODES = (errors.IR_UNSUPPORTED, errors.IR_EMIT, *errors.IR_OPS2_FALLBACK, errors.IR_DTYPE_CONFLICT,
                  errors.IR_DTYPE_UNSOLVED)
PIPELINE_NAME = "typed-ir"


def _info(path: Path) -> ModuleInfo:
    info = ModuleInfo(path, read_kernel_source(path))
    if info.ct_names and not info.kernels:
        refuse_kernel_factories(info)
    pysource.check_kernel_file(path, pysource.CUTILE, bool(info.ct_names), info.kernels)
    return info


def refuse_kernel_factories(info: ModuleInfo) -> None:
    """A file whose @ct.kernel functions are all defined inside module-level functions (``@lru_cache def
    make(occupancy): @ct.kernel(occupancy=occupancy) def k(..)``): cuTile Python makes one kernel object per
    factory call, the factory's arguments bound as closure values; the port's kernels are module-level functions
    whose compile-time values are const generics. CTRS-E327 at the first such kernel, naming its factory."""
    for stmt in info.module.body:
        if not isinstance(stmt, cst.FunctionDef):
            continue
        for inner in stmt.body.body:
            if isinstance(inner, cst.FunctionDef) and any(info._is_kernel_deco(d.decorator) for d in inner.decorators):
                params = ", ".join(p.name.value for p in stmt.params.params) or "no parameters"
                decos = [info.module.code_for_node(d.decorator) for d in stmt.decorators]
                raise errors.CtrsError(
                    errors.IR_KERNEL_IN_FACTORY,
                    f"@ct.kernel '{inner.name.value}' is defined inside function '{stmt.name.value}' "
                    f"({', '.join('@' + d for d in decos) + ' ' if decos else ''}kernel factory of {params}): "
                    f"cuTile Python makes a kernel per factory call with those arguments as closure values "
                    f"({_closure_uses(info, stmt, inner)}); ctrs ports module-level kernels only (a ctrs gap, not "
                    "a cutile one: docs/porting.md \"Kernel factories\")",
                    "define the kernel at module level and pass the factory's values as ct.Constant parameters "
                    "or launch hints", info.loc(inner))


def _closure_uses(info: ModuleInfo, factory: cst.FunctionDef, kernel: cst.FunctionDef) -> str:
    """Where ``kernel`` reads the parameters of ``factory`` (``occupancy in @ct.kernel(..) at line 8``)."""
    params = {p.name.value for p in factory.params.params}
    found: list[str] = []

    class V(cst.CSTVisitor):
        def __init__(self, where: str):
            self.where = where

        def visit_Name(self, node: cst.Name) -> None:
            if node.value in params:
                found.append(f"{node.value} in {self.where} at line {info.span(node).line}")

    for d in kernel.decorators:
        d.decorator.visit(V(f"@{info.module.code_for_node(d.decorator).split('(')[0]}(..)"))
    kernel.body.visit(V("its body"))
    return ", ".join(dict.fromkeys(found)) or "the kernel reads none of them"


def lower(path: Path, stages=None, refused: dict | None = None, notes: list | None = None,
          on_unsupported=None, launches=None) -> list[Kernel]:
    """Every entry of a cuTile Python or Triton file, specialised; ``stages(name, kernels)`` sees each stage.
    With ``refused`` (kernel -> blockers) a kernel that fails is recorded there and the others go
    on. ``notes`` receives the Triton front end's (line, kernel, kind, text) notes; ``on_unsupported``: the
    front ends' hook for constructs without a rule (``ctrs translate --llm``). ``launches``: kernel -> the launches
    the port must serve (translate.launch_dtypes; the cuTile front end keeps arrays apart by them)."""
    if fe_triton.source.is_triton_file(Path(path)):
        mod, tnotes = fe_triton.lower_file(Path(path), refused, on_unsupported=on_unsupported)
        if notes is not None:
            notes.extend(tnotes)
    else:
        mod = fe_cutile.lower_file(_info(Path(path)), refused, on_unsupported=on_unsupported, launches=launches)
    out: list[Kernel] = []
    rules = cutile_rules()["element_entries"]
    # integer element entries: cuTile kernels (a Triton kernel's pointers keep their float entries)
    ints = None if fe_triton.source.is_triton_file(Path(path)) else rules
    # the cap is the Python kernel's: its front end's per-dtype entries (frontends/cutile/dtypes.py) share it
    shares: dict[str, int] = {}
    for k in mod.kernels:
        shares[k.python_name or k.name] = shares.get(k.python_name or k.name, 0) + 1
    for k in mod.kernels:
        share = None if ints is None else dict(ints, max_entries=ints.get("max_entries", 16)
                                               // shares[k.python_name or k.name])
        try:
            out += run_pipeline(k, rules["dtypes"], stages, share)
        except errors.CtrsError as e:
            if refused is None:
                raise
            refused[k.name] = [e]
    return out


def _decisions(path: Path, entries: list[Kernel]) -> list[model.Decision]:
    out, seen = [], set()
    for k in entries:
        py = k.python_name or k.name
        for g in k.generics:
            if (py, g.name) in seen:
                continue
            seen.add((py, g.name))
            if g.origin == "array_dtype":
                of = g.note.removeprefix("element type of ")
                text = f"{g.name}: ElementType <- dtype of {'every array parameter' if of == 'every array' else of}"
            elif g.origin == "constant":
                kind = "bool" if g.note == "ct.Constant[bool]" else "int"
                how = "0/1, tested `== 1i32`" if kind == "bool" else "value"
                text = f"const {g.name}: i32 <- ct.Constant[{kind}] {g.name} ({how})"
            elif g.origin == "derived":
                text = f"const {g.name}: i32 <- {g.expr.python()} (a shape dimension computed from the constants: " \
                       "host-computed per launch)"
            elif g.origin == "float_expr":
                what = "0/1" if g.expr.compare() else f"the f32 bits of its value rounded to {g.expr.args[0]}"
                text = f"const {g.name}: i32 <- {g.expr.python()} (a compile-time float expression of the " \
                       f"constants, double precision as cuTile Python: {what}, host-computed per launch)"
            elif g.origin == "float_bits":
                text = f"const {g.name}: i32 <- ct.Constant[float] {g.name} (its f32 bits, host-computed)"
            else:
                text = f"const {g.name}: i32 <- {g.note.removeprefix('1 when ').removesuffix(' (host-computed)')} " \
                       "(host-computed flag)"
            out.append(model.Decision(k.loc.line, py, "generic", text))
        for op in walk(k.body):
            if op.kind == OpKind.STORE_VIEW and op.attrs.get("ordered") and op.attrs.get("chain"):
                prof = targets.current()
                key = (py, "chain", op.loc.line)
                if key not in seen:
                    seen.add(key)
                    how = ("the port spells that order (a view per store from a join_tokens of those tokens, "
                           "[api.ordered_store_view])") if prof.spelling("ordered_store_view")["rust"] else \
                        f"cutile {prof.version} cannot spell it: the port stores unordered"
                    out.append(model.Decision(op.loc.line, py, "ordering",
                                              f"{k.name}: the store at line {op.loc.line} waits for the array's "
                                              "earlier loads and stores, as the reference orders it (straight-line "
                                              f"memory tokens, passes/memtokens.py); {how}"))
                continue
            if op.kind == OpKind.STORE_VIEW and op.attrs.get("ordered"):
                prof = targets.current()
                how = ((f"cutile {prof.version} carries it too (a `let mut` Token, a view per store: "
                        "[api.ordered_store_view])") if prof.spelling("ordered_store_view")["rust"] else
                       (f"cutile {prof.version} cannot carry a store token through a loop, so the port stores "
                        "unordered (equal results when iterations write distinct tiles)"))
                out.append(model.Decision(op.loc.line, py, "ordering",
                                          f"{k.name}: the store at line {op.loc.line} is ordered across loop "
                                          "iterations "
                                          "by the reference (its index is not the loop variable: the array's token is "
                                          f"loop-carried); {how}"))
        noted = {f for f, _ in k.variant if any(kind == "variant" and f"<- {f}=" in t for _, kind, t in k.notes)}
        for line, kind, text in k.notes:
            if kind == "variant" or (py, line, text) not in seen:
                seen.add((py, line, text))
                out.append(model.Decision(line, k.name if kind == "variant" else py, kind, text))
        for f, v in k.variant:
            if f not in noted:  # split by the specialise pass
                out.append(model.Decision(k.loc.line, k.name, "variant", f"entry {k.name} <- {f}={v} (an fma "
                                          "contraction crosses its constant ifs: the reference folds the flag first)"))
        if k.python_name and k.python_name != k.name and not k.variant:
            ints = cutile_rules()["element_entries"].get("int_dtypes", ())
            why = ("integer element entry: every use of the array dtype variable has an integer counterpart"
                   if any(k.name.endswith(f"_{d}") for d in ints) else
                   "fma contraction needs a concrete float dtype")
            out.append(model.Decision(k.loc.line, py, "variant", f"{k.name}: element entry ({why})"))
    return out


def translate_module(path: Path, stem: str, refused: dict | None = None, on_unsupported=None,
                     launches=None) -> model.Module:
    """The Rust-spelled model of a file through the typed IR; raises CtrsError. With ``refused``: the kernels that lower, specialise and
    emit (every entry of a kernel, or none of them); each other kernel's blockers go into ``refused``."""
    from ctrs.emitters import ir_rust

    notes: list = []
    entries = lower(path, refused=refused, notes=notes, on_unsupported=on_unsupported, launches=launches)
    emitted = []
    for k in entries:
        try:
            emitted.append((k, ir_rust.emit_kernel(k, str(path))))
        except errors.CtrsError as e:
            if k.optional:  # an integer element entry the emitter cannot spell: left out, the kernel kept
                continue
            if refused is None:
                raise
            refused.setdefault(k.python_name or k.name, []).append(e)
    keep = [(k, mk) for k, mk in emitted if (k.python_name or k.name) not in (refused or {})]
    ok = [k for k, _ in keep]
    decisions = _decisions(Path(path), ok) + [model.Decision(line, k, kind, text) for line, k, kind, text in notes]
    return model.Module(stem, Path(path).name, [mk for _, mk in keep], decisions, PIPELINE_NAME)


def emit_model(path: Path, stage: str = "final") -> str:
    """``ctrs translate --emit model[:STAGE]``: the IR of every kernel after STAGE (all stages for ``all``)."""
    if stage not in (*STAGES, "all"):
        raise errors.CtrsError(errors.IR_STAGE, f"no IR stage '{stage}'",
                               f"one of: {', '.join(STAGES)}, all", errors.Loc(str(path)))
    chunks: list[str] = []

    def seen(name: str, ks: list[Kernel]) -> None:
        if stage in (name, "all"):
            chunks.extend(f"// stage: {name}\n{print_kernel(k)}" for k in ks)

    lower(path, seen)
    return "\n".join(chunks)
