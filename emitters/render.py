"""Render the tile IR model (transpiler/model.py) to a cuTile Rust kernel.rs with Jinja templates.

Reads only the model; the Rust shape of each operation is the rule template stored on its Op.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from transpiler import model

TEMPLATES = Path(__file__).resolve().parent / "templates" / "port"


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined, autoescape=False)


def _param(p: model.Param) -> str:
    if p.kind == "array":
        return f"{p.name}: &Tensor<{p.dtype}, {{ [{', '.join(['-1'] * p.ndim)}] }}>"
    return f"{p.name}: {p.dtype}"


def _kernel_ctx(k: model.Kernel) -> dict:
    consts = [g.name for g in k.generics if g.kind == "const"]
    note = "generics " + ", ".join(f"{g.name} ({g.note})" for g in k.generics) if k.generics else "no generics"
    return {
        "name": k.name,
        "unsafe": k.unsafe,
        "generics": [{"text": g.rust()} for g in k.generics],
        "params": [_param(p) for p in k.params if p.kind != "constant"],
        "body": k.body,
        "note": note,
        "consts": consts,
    }


def render_kernel_rs(mod: model.Module) -> str:
    text = _env().get_template("kernel.rs.j2").render(
        stem=mod.stem, source=mod.source, kernels=[_kernel_ctx(k) for k in mod.kernels])
    return text if text.endswith("\n") else text + "\n"
