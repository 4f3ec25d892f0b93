"""Render the tile IR model (emitters/rust_model.py) to a cuTile Rust kernel.rs with Jinja templates.

Reads only the model; the Rust shape of each operation is the rule template stored on its Op.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from . import rust_model as model
from ctrs.ir_rules import ir_rules

TEMPLATES = Path(__file__).resolve().parent / "templates" / "port"


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined, autoescape=False)


def _param(p: model.Param) -> str:
    if p.kind == "array" and p.raw:  # the Tile IR entry arguments of an array: pointer, shape..., strides...
        dims = [f"{p.name}_{k}_{i}: i32" for k in ("shape", "stride") for i in range(p.ndim)]
        return ",\n        ".join([f"{p.name}: *mut {p.dtype}", *dims])
    if p.kind == "array":
        return f"{p.name}: &Tensor<{p.dtype}, {{ [{', '.join(['-1'] * p.ndim)}] }}>"
    return f"{p.name}: {p.dtype}"


def _kernel_ctx(k: model.Kernel) -> dict:
    consts = [g.spelled for g in k.generics if g.kind == "const"]
    note = "generics " + ", ".join(f"{g.spelled} ({g.note})" for g in k.generics) if k.generics else "no generics"
    if k.variant:
        fixed = ", ".join(f"{f}={v}" for f, v in k.variant)
        note = f"structural variant of {k.python_name} with {fixed}; {note}"
    return {
        "name": k.name,
        "unsafe": k.unsafe or any(p.raw for p in k.params),  # raw-pointer entries are `unsafe fn`
        "generics": [{"text": g.rust()} for g in k.generics],
        "params": [_param(p) for p in k.params if p.kind != "constant" and not p.bits],
        "body": k.body,
        "note": note,
        "consts": consts,
        "entry_args": entry_args(k.hints),
    }


def entry_args(hints: tuple[tuple[str, int], ...], target: str | None = None) -> str:
    """The ``#[cutile::entry(...)]`` arguments carrying ``@ct.kernel`` hints:
    ``optimization_hints = (sm_90 = (occupancy = 2,),)`` (cutile-compiler hints.rs); "" without hints."""
    from ctrs import toolchain  # noqa: PLC0415

    if not hints:
        return ""
    body = " ".join(f"{k} = {v}," for k, v in hints)
    return f"optimization_hints = ({target or toolchain.GPU_TARGET} = ({body}),)"


def _declarations(mod: model.Module) -> list[str]:
    """Module-local op declarations (templates/port/declarations/, named by rules [declarations]) that some op of
    the module calls (``Op.decl``, set where the op was spelled), in rules order."""
    called: set[str] = set()

    def walk(stmts) -> None:
        for s in stmts:
            op = getattr(s, "op", None)
            if isinstance(op, model.Op) and op.decl:
                called.add(op.decl)
            for attr in ("body", "then", "otherwise"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    walk(sub)

    for k in mod.kernels:
        walk(k.body)
    env = _env()
    return [env.get_template(f"declarations/{name}.rs.j2").render().strip("\n")
            for name in ir_rules()["declarations"]["names"] if name in called]


def render_kernel_rs(mod: model.Module) -> str:
    text = _env().get_template("kernel.rs.j2").render(
        stem=mod.stem, source=mod.source,
        rules="rules/ir.toml", kernels=[_kernel_ctx(k) for k in mod.kernels], decls=_declarations(mod))
    return text if text.endswith("\n") else text + "\n"
