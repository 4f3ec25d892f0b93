"""Module-level ``if`` statements of a Triton file that the Triton version the reference runs with decides.

A kernel package may define a ``@triton.jit`` helper only where the running Triton has an op
(``if hasattr(tl, "gather"): def _lut_gather(..): .. tl.gather .. else: def _lut_gather(..): ..``): Triton's JIT
resolves every attribute of a body, so the test picks the helper at import time. ctrs reads the file, never runs
it: a test of the form ``hasattr(<tl alias>, "<name>")`` (or ``not`` of one) is decided by whether the reference
Triton (:data:`REFERENCE_TRITON`) has ``tl.<name>``; any other test is undecided, and a helper defined under it is
refused where it is called (CTRS-E742).
"""

from __future__ import annotations

import libcst as cst

REFERENCE_TRITON = "3.6"  # the Triton the unsloth / TileGym references run with
# tl.* names Triton 3.6 has that kernels test with hasattr (a name not listed leaves the test undecided)
TL_NAMES = frozenset({"gather", "join", "split", "interleave", "make_tensor_descriptor", "histogram", "cast",
                      "permute", "reshape", "dot_scaled", "clamp", "sort", "flip"})


def truth(tf, test) -> bool | None:
    """The value of a module-level test under the reference Triton, or None (undecided)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = truth(tf, test.expression)
        return None if inner is None else not inner
    if isinstance(test, cst.Call) and isinstance(test.func, cst.Name) and test.func.value == "hasattr" \
            and len(test.args) == 2 and isinstance(test.args[1].value, cst.SimpleString):
        if tf.dotted(test.args[0].value) != "tl":
            return None
        return test.args[1].value.evaluated_value in TL_NAMES
    return None


def taken_arm(tf, node: cst.If) -> list | None:
    """The statements of the arm the reference takes (``[]`` for a missing else), or None (undecided)."""
    t = truth(tf, node.test)
    if t is None:
        return None
    if t:
        return list(node.body.body)
    if node.orelse is None:
        return []
    if isinstance(node.orelse, cst.If):
        return taken_arm(tf, node.orelse)
    return list(node.orelse.body.body)
