"""The launch map (frontend_triton.launch_map's format) of a kernel only the typed front end lowers: how each
Triton parameter is fed from a spec of the port (the GPU harness launches the Triton original with it).

From the typed lowering: a pointer parameter is ``array``; a scalar the front end found to be an array extent is
``shape`` (``X.shape[k]``), a stride it dropped is ``stride``; a kept runtime scalar is ``scalar``; a constexpr is
``constexpr`` (a float constexpr the port reads at run time has ``port: scalar``). ``ties``: the axes a mask bound
names (one per bound: the axis the front end bound it to).
"""

from __future__ import annotations

import libcst as cst

from ... import errors, frontend_triton
from ...ir.types import ScalarType


def _lowered(tf, fn: cst.FunctionDef, first):
    from . import lower_kernel  # noqa: PLC0415 - the package lowers (structural entries, flat arrays)

    try:
        return lower_kernel(tf, fn)
    except errors.CtrsError:
        if first is None:
            raise
        raise first from None


def port_params(tf, fn: cst.FunctionDef, first=None) -> list:
    """[name, constexpr?] of each parameter the typed port keeps, in signature order (mine_sites' "kernels")."""
    _lw, k = _lowered(tf, fn, first)
    kept = {p.name for p in k.params}
    out = []
    for p in fn.params.params:  # a constexpr a structural entry fixes is still an input of the dispatcher
        name = p.name.value
        const = p.annotation is not None and tf.dotted(p.annotation.annotation) == "tl.constexpr"
        if const or name in kept:
            out.append([name, const])
    return out


def launch_map(tf, fn: cst.FunctionDef, first=None) -> dict:
    lw, k = _lowered(tf, fn, first)
    kept = {p.name: p for p in k.params}
    params = []
    for p in fn.params.params:
        name = p.name.value
        ann = p.annotation.annotation if p.annotation else None
        if ann is not None and tf.dotted(ann) == "tl.constexpr":
            kp = kept.get(name)
            floaty = kp is not None and kp.kind == "scalar" and isinstance(kp.value.type, ScalarType) \
                and kp.value.type.dtype.is_float
            params.append({"name": name, "kind": "constexpr", "const": name} | ({"port": "scalar"} if floaty else {}))
        elif name in lw.extents:
            arr, axis, _block = lw.extents[name]
            params.append({"name": name, "kind": "shape", "array": arr, "dim": axis})
        elif name in lw.strides:
            arr, axis = lw.strides[name]
            params.append({"name": name, "kind": "stride", "array": arr, "dim": axis})
        elif name in lw.descs and lw.descs[name] is not None:
            params.append({"name": name, "kind": "descriptor", "array": name, "block": list(lw.descs[name])})
        elif name in lw.arrays:
            params.append({"name": name, "kind": "array", "array": name})
        else:
            params.append({"name": name, "kind": "scalar", "arg": name})
    tf32 = False
    autotuned = any(isinstance(d.decorator, cst.Call) and tf.dotted(d.decorator.func) == "triton.autotune"
                    for d in fn.decorators)

    class V(cst.CSTVisitor):
        def visit_Call(self, node):
            nonlocal tf32
            if tf.dotted(node.func) != "tl.dot":
                return
            kw = {a.keyword.value: frontend_triton._lit(a.value) for a in node.args if a.keyword}
            if kw.get("allow_tf32") is not False and kw.get("input_precision") not in ("ieee",):
                tf32 = True

    fn.body.visit(V())
    ties = [[b, "param", [[arr, axis]]] for b, (arr, axis, _blk) in sorted(lw.extents.items())]
    return {"kernel": fn.name.value, "params": params, "grid": "spec", "tf32": tf32, "autotuned": autotuned,
            "ties": ties}


_KEPT = ("array", "scalar", "constexpr", "descriptor")


def agreeing(tf, fn: cst.FunctionDef, rewrite_map: dict) -> dict:
    """The rewrite path's launch map when it feeds every parameter as the typed front end's does, else the typed
    front end's map: the port the default pipeline writes is the typed one when it lowers (``numel`` of a flat
    gather is ``out.shape[0]`` there, not the rewrite's ``partial.shape[0]``)."""
    try:
        typed = launch_map(tf, fn)
    except errors.CtrsError:
        return rewrite_map
    # the same parameters fed the same way (the rewrite's ties name every axis a bound limits: kept then)
    return rewrite_map if typed["params"] == rewrite_map["params"] else typed
