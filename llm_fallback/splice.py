"""The splice point: the front end calls ``lower`` where a ct.* call has no rule (frontend_cutile._call,
only through the ``llm_hook`` callback fallback.py passes to the front end). An answer for this construct's file:line:col
becomes ordinary model ``let``s (op kind ``llm``), so specialisation, per-dtype expansion, rendering,
op stats and the source map treat it like any rule output. Bound names are renamed to fresh names."""

from __future__ import annotations

import re

from ctrs import model

from . import answer

MARK = "ctrs-llm"


def key_of(loc) -> tuple[str, int, int]:
    return (str(loc.file), int(loc.line), int(loc.col))


def scope(front) -> list[dict]:
    """Names in scope at the construct: Python name, Rust name, kind and Rust type (what the front end has)."""
    out = []
    for py, v in sorted(front.env.items()):
        if v.kind in ("tile", "scalar", "array") and v.name:
            typ = v.type.rust() if v.type is not None else ""
            if v.kind == "array" and not typ:
                p = next((p for p in front.params() if p.name == py), None)
                typ = f"&Tensor<{p.dtype}, {{ [{', '.join(['-1'] * max(p.ndim, 1))}] }}>" if p else ""
            out.append({"python": py, "rust": v.name, "kind": v.kind, "type": typ})
        elif v.kind == "literal" and isinstance(v.value, (int, float, bool)):
            out.append({"python": py, "rust": repr(v.value), "kind": "literal", "type": type(v.value).__name__})
    for p in front.params():
        if p.kind == "constant" and not any(s["python"] == p.name for s in out):
            out.append({"python": p.name, "rust": p.name, "kind": "const generic", "type": "i32"})
    return out


def _to_type(text: str) -> model.Type:
    kind, dt, dims = answer.parse_type(text)
    if kind == "tile":
        return model.TileT(dt, dims)
    if kind == "scalar":
        return model.ScalarT(dt)
    return model.OpaqueT(text)


def hook(splices: dict):
    """The front end's LLM hook (frontend_cutile.parse_file(llm_hook=...)) for these answers; None if none."""
    if not splices:
        return None
    return lambda front, node, hint: lower(front, node, hint, splices)


def lower(front, node, hint: str, splices: dict):
    from ctrs.frontend_cutile import Val  # noqa: PLC0415

    got = splices.get(key_of(front.info.loc(node)))
    if got is None:
        return None
    rename: dict[str, str] = {}
    last = None
    for st in got["stmts"]:
        expr = st.expr
        if rename:
            expr = re.sub(r"\b(" + "|".join(map(re.escape, rename)) + r")\b", lambda m: rename[m.group(1)], expr)
        typ = _to_type(st.type)
        tmpl = f"/* {MARK} {got['model']} {got['hash'][:16]} */ {expr}".replace("{", "{{").replace("}", "}}")
        name = front.let(st.name if st is not got["stmts"][-1] else hint, typ, front.op("llm", tmpl, node), node)
        rename[st.name] = name
        last = (name, typ)
    name, typ = last
    if isinstance(typ, model.TileT):
        return Val("tile", name, typ, typ.dtype, let=front._last_let)
    return Val("scalar", name, typ, typ.dtype, let=front._last_let)
