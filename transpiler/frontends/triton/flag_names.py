"""Names bound only for some values of the ``tl.constexpr`` flags (issue 18, the unsloth corpus).

Triton compiles a kernel per launch with every ``tl.constexpr`` folded: an ``if FLAG:`` arm that is not taken is
never type-checked, so a kernel may bind a name only under some flag values and read it only under others that
imply them (``if USE_DESC: d = tl.make_tensor_descriptor(..)`` ... ``if USE_DESC: x = d.load(..)``), or read it
under values no launch uses: those launches do not compile in Triton (a NameError at compile time) and the others
do. ctrs lowers such a kernel per flag combination (structural entries, the cuTile front end's
``lower_kernel``): a read of a name the kernel binds somewhere but that holds nothing here, met inside the arm of a
constant-flag ``if``, splits the kernel on that flag (the cuTile front end's ``dead_in_reference``); met in an
entry whose flags are all fixed on the way there, it is ``CTRS-E713``, and ``lower_kernel`` gives that flag
combination no entry (no launch of it compiles in the reference either; ``--explain`` notes the combination).
A kernel without a flag that reads a name before binding it is refused with the same code.
"""

from __future__ import annotations

import libcst as cst

from ... import errors
from ..cutile.control import dead_in_reference
from ..pysource import assigned_names
from .inline import helper_defs


def bound_somewhere(lw, name: str) -> bool:
    """``name`` is assigned in the kernel's body or in a @triton.jit helper it may inline."""
    seen = lw.__dict__.get("_bound_names")
    if seen is None:
        seen = set(assigned_names(lw.fn.body))
        for _tf, d in helper_defs(lw.tf).values():
            seen |= set(assigned_names(d.body)) | {p.name.value for p in d.params.params}
        lw._bound_names = seen
    return name in seen


def unbound(lw, node: cst.Name) -> errors.CtrsError | None:
    """The error for reading ``node``, a name holding nothing here that the kernel binds elsewhere: inside a
    constant-flag arm, :class:`~ctrs.frontends.cutile.module.Structural` on that flag is raised instead; None
    when the kernel never binds the name (an unknown name: the caller's error)."""
    if not bound_somewhere(lw, node.value):
        return None
    why = f"'{node.value}' read where no statement bound it"
    dead_in_reference(lw, node, why)
    fixed = ", ".join(f"{f}={v}" for f, v in sorted(lw.fixed.items()))
    return errors.CtrsError(errors.TRITON_UNBOUND_IN_ENTRY,
                            f"{why}{f' (with {fixed})' if fixed else ''}: Triton does not compile this launch either",
                            "the kernel binds it only under other tl.constexpr flag values; launches with these "
                            "values have no entry in the port", lw.tf.loc(node))
