"""A kernel file whose helper is chosen by a version check through a package the machine lacks
(`from unsloth_zoo.utils import Version`): the reference module binds the installed stand-in
(refmodule.PACKAGE_STANDINS), so the helper the check picks is defined; a name of that import the kernels do not
use is left out (tests/test_ref_dropped_imports.py), one they use without a stand-in stays a coded error."""

from __future__ import annotations

import importlib.util

import pytest

from ctrs import errors
from ctrs.verify import refmodule

pytestmark = pytest.mark.skipif(importlib.util.find_spec("unsloth_zoo") is not None,
                                reason="unsloth_zoo installed: the real one")

SRC = '''import cuda.tile as ct
from unsloth_zoo.utils import Version

if Version("3.1.0") >= Version("3.0.0"):
    SCALE = 2.0
else:
    SCALE = 3.0


@ct.kernel
def k(x, n: ct.Constant[int]):
    ct.store(x, index=(0,), tile=ct.full((n,), SCALE, x.dtype))
'''


def test_version_from_a_missing_package_is_the_installed_equivalent(tmp_path):
    p = tmp_path / "k.py"
    p.write_text(SRC)
    mod = refmodule.load(p)
    assert mod.SCALE == 2.0 and mod.Version("2.4.0") < mod.Version("2.10.0")  # version order, not text order


def test_a_name_without_a_standin_stays_a_coded_error(tmp_path):
    p = tmp_path / "k.py"
    p.write_text(SRC.replace("import Version", "import Version, SCALE_OF").replace("SCALE = 2.0", "SCALE = SCALE_OF(2)")
                 .replace("x.dtype))", "x.dtype) * SCALE_OF)"))
    with pytest.raises(errors.CtrsError) as e:
        refmodule.load(p)
    assert e.value.code == errors.REF_EXTRACT and "unsloth_zoo.utils" in str(e.value) and e.value.loc.line == 2


def test_a_name_the_kernels_do_not_use_is_left_out(tmp_path):
    p = tmp_path / "k.py"
    p.write_text(SRC.replace("import Version", "import Version, patch_loss"))
    mod = refmodule.load(p)
    assert mod.SCALE == 2.0 and not hasattr(mod, "patch_loss")
