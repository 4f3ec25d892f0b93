"""``@ct.kernel(occupancy=.., num_ctas=.., num_worker_warps=.., opt_level=..)``: the kernel-level hints a port
carries, read once by the lowering (lowering.py).

Values are ints, module constants, or ``ct.ByTarget(sm_XX=.., default=..)`` (the port target's value, else the
default). cuTile Python writes them as the entry's optimization_hints; cutile takes them as
``#[cutile::entry(optimization_hints = (sm_90 = (..),))]`` (emitters/render.py entry_args spells them from
``model.Kernel.hints``). ``opt_level`` is a tileiras flag, not IR: only the default (3, cutile's too) is accepted.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from ... import toolchain
from ...spec import LAUNCH_HINTS
from ..pysource import const_eval

# cuTile Python keyword -> cutile entry optimization_hints key (cuda/tile/_ir2bytecode.py: EntryHints); the same
# keys of a launch (replace_hints, a spec's "hints") are cutile CompileOptions fields
ENTRY_HINTS = LAUNCH_HINTS


def read_hints(info, deco, err: Callable, note: Callable) -> tuple[tuple[str, int], ...]:
    """The hints of the ``@ct.kernel`` decorator expression ``deco`` for the port's target (toolchain.GPU_TARGET),
    as (optimization_hints key, value) pairs in ENTRY_HINTS order. ``err(node, msg, hint)`` builds the
    diagnostic (CTRS-E1xx KERNEL_HINT), ``note(node, text)`` records a --explain decision."""
    if not isinstance(deco, cst.Call):
        return ()
    found: dict[str, int] = {}
    for a in deco.args:
        key = a.keyword.value if a.keyword is not None else None
        if key not in (*ENTRY_HINTS, "opt_level"):
            raise err(a, f"no rule for @ct.kernel({key or '<positional>'}=..)",
                      f"cuTile Python's kernel hints are {', '.join([*ENTRY_HINTS, 'opt_level'])}")
        v = _hint_value(info, a.value, key, toolchain.GPU_TARGET, err)
        if key == "opt_level":
            if v not in (None, 3):
                raise err(a, f"opt_level={v} cannot be carried: cutile compiles every entry at "
                             "tileiras --opt-level 3 unless the host passes CompileOptions",
                          "drop opt_level (the default is 3)")
        elif v is not None:
            found[ENTRY_HINTS[key]] = v
            note(a, f"@ct.kernel({key}={v}) -> entry optimization_hints "
                    f"{toolchain.GPU_TARGET}.{ENTRY_HINTS[key]} = {v}")
    return tuple((k, found[k]) for k in ENTRY_HINTS.values() if k in found)


def _hint_value(info, node, key: str, target: str, err: Callable) -> int | None:
    if isinstance(node, cst.Call) and info.dotted(node.func) == "ct.ByTarget":
        by = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if len(by) != len(node.args):
            raise err(node, "ct.ByTarget takes keywords only", "ct.ByTarget(sm_90=.., default=..)")
        pick = by.get(target, by.get("default"))
        return None if pick is None else _hint_value(info, pick, key, target, err)
    if isinstance(node, cst.Name) and node.value == "None":
        return None
    v = const_eval(node, info.consts.get, info.dotted)
    if not isinstance(v, int) or isinstance(v, bool):
        raise err(node, f"@ct.kernel({key}=..) must be an int known at translate time",
                  "an int literal, a module constant or ct.ByTarget(...) of those")
    return v
