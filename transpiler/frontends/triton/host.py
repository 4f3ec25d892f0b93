"""The host side of a typed Triton kernel the cuTile rewrite (frontend_triton) cannot take: its entry in
analysis.json's ``kernels`` (the port's parameters, constexpr flags) and its launch map (``triton``: how each
Triton parameter is fed from a spec), read from the typed lowering's facts, in the shape
frontend_triton.launch_map gives: ``array`` / ``descriptor`` / ``shape`` (a mask bound or block extent: the
array axis it names) / ``stride`` / ``constexpr`` (``port`` "scalar" for a float constexpr) / ``scalar``."""

from __future__ import annotations

import libcst as cst

from ... import errors, frontend_triton
from ..cutile.values import PoisonUse


def typed_map(tf, fn: cst.FunctionDef):
    """(kernels entry, launch map) of ``fn`` from its typed lowering (every structural entry's facts); None when
    that lowering fails too."""
    from . import lower_entries  # noqa: PLC0415 - the package registers the call handlers first

    try:
        _ks, blockers, made = lower_entries(tf, fn)  # flat arrays (gathers.py) found as lower_file finds them
    except (errors.CtrsError, PoisonUse):
        return None
    if blockers:
        return None
    facts = {key: {} for key in ("extents", "strides", "float_consts", "ties")}
    for lw in made:
        for key, d in facts.items():
            for k, v in getattr(lw, key).items():
                d.setdefault(k, v) if key != "ties" else d.setdefault(k, []).extend(x for x in v if x not in d[k])
    consts = {p.name.value for p in fn.params.params
              if p.annotation and tf.dotted(p.annotation.annotation) == "tl.constexpr"}
    lw = made[-1]
    entry, params = [], []
    for p in fn.params.params:
        name = p.name.value
        if name in facts["extents"]:
            arr, axis, _block = facts["extents"][name]
            params.append({"name": name, "kind": "shape", "array": arr, "dim": axis})
            continue
        if name in facts["strides"]:
            arr, axis = facts["strides"][name]
            params.append({"name": name, "kind": "stride", "array": arr, "dim": axis})
            continue
        entry.append([name, name in consts])
        if name in consts:
            params.append({"name": name, "kind": "constexpr", "const": name,
                           **({"port": "scalar"} if name in facts["float_consts"] else {})})
        elif name in lw.descs:
            params.append({"name": name, "kind": "descriptor", "array": name, "block": list(lw.descs[name] or ())})
        elif name in lw.arrays:
            params.append({"name": name, "kind": "array", "array": name})
        else:
            params.append({"name": name, "kind": "scalar", "arg": name})
    ties = [[b, kind, axes] for (b, kind), axes in sorted(facts["ties"].items())]
    return entry, {"kernel": fn.name.value, "params": params, "grid": "spec",
                   **frontend_triton.launch_flags(tf, fn), "ties": ties}
