"""Module-level ``if`` statements of a Triton file that the Triton version the reference runs with decides.

A kernel package may define a ``@triton.jit`` helper only where the running Triton has an op
(``if hasattr(tl, "gather"): def _lut_gather(..): .. tl.gather .. else: def _lut_gather(..): ..``): Triton's JIT
resolves every attribute of a body, so the test picks the helper at import time. ctrs reads the file, never runs
it: a test of the form ``hasattr(<tl alias>, "<name>")`` (or ``not`` of one) is decided by whether the reference
Triton (:data:`REFERENCE_TRITON`) has ``tl.<name>``, and a comparison of versions
(``Version(triton.__version__) >= Version("3.0.0")``, ``packaging.version.parse(..)`` alike) by the reference's
version; any other test is undecided, and a helper defined under it is refused where it is called (CTRS-E742).
"""

from __future__ import annotations

import operator

import libcst as cst
from packaging.version import InvalidVersion, Version

REFERENCE_TRITON = "3.6"  # the Triton the unsloth / TileGym references run with
# tl.* names Triton 3.6 has that kernels test with hasattr (a name not listed leaves the test undecided)
TL_NAMES = frozenset({"gather", "join", "split", "interleave", "make_tensor_descriptor", "histogram", "cast",
                      "permute", "reshape", "dot_scaled", "clamp", "sort", "flip"})


_COMPARE = {cst.GreaterThanEqual: operator.ge, cst.GreaterThan: operator.gt, cst.LessThanEqual: operator.le,
            cst.LessThan: operator.lt, cst.Equal: operator.eq, cst.NotEqual: operator.ne}
_VERSION_CALLS = {"Version", "parse", "version.parse", "version.Version", "packaging.version.parse",
                  "packaging.version.Version"}


def _version(tf, node) -> Version | None:
    """``Version(triton.__version__)`` (the reference's version) or ``Version("3.0.0")``, else None."""
    if not (isinstance(node, cst.Call) and len(node.args) == 1 and tf.dotted(node.func) in _VERSION_CALLS):
        return None
    arg = node.args[0].value
    if isinstance(arg, cst.SimpleString):
        try:
            return Version(arg.evaluated_value)
        except InvalidVersion:
            return None
    return Version(REFERENCE_TRITON) if tf.dotted(arg) == "triton.__version__" else None


def truth(tf, test) -> bool | None:
    """The value of a module-level test under the reference Triton, or None (undecided)."""
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 \
            and type(test.comparisons[0].operator) in _COMPARE:
        left, right = _version(tf, test.left), _version(tf, test.comparisons[0].comparator)
        if left is None or right is None:
            return None
        return _COMPARE[type(test.comparisons[0].operator)](left, right)
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
