"""The reference module of a kernel file whose host code imports packages this machine lacks (unsloth's kernels:
``from unsloth_zoo.log import logger`` in a sibling module, used by host functions only): only what the kernels and
their helpers reference must resolve (transpiler/verify/refmodule.py; docs/porting.md "Reference modules").

  * a ``from`` import is resolved for the names the kept statements use, not for every name it lists;
  * a name a module-level statement uses at import time is what the statements before it bound (a later,
    unrelated block re-importing it is not kept);
  * a name the kept code binds from an import that cannot be resolved, and that the kernels do not reference, is
    a stand-in that fails with CTRS-E722 and the import's location when used."""

from __future__ import annotations

import pytest

from ctrs import errors
from ctrs.verify import refmodule

KERNELS = '''import cuda.tile as ct
from .helpers import twice, host_entry, SCALE


@ct.kernel
def k(x, n: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(n,))
    ct.store(x, index=(0,), tile=twice(t) * SCALE)


def launch(x):  # host code
    host_entry(x)
'''

HELPERS = '''import math
from ctrs_absent_pkg.log import logger
import ctrs_absent_pkg_two as two
from ctrs_absent_pkg.device import DEVICE_TYPE

if math.pi > 3:
    SCALE = 2.0
else:
    SCALE = 3.0


def twice(t):
    return t + t


def host_entry(x):
    logger.info("launch")
    return two.run(x)


if DEVICE_TYPE == "xpu":  # an environment probe re-importing a name the block above used
    import math
'''


def _package(tmp_path, kernels=KERNELS, helpers=HELPERS):
    pkg = tmp_path / "hostpkg_dropped"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kernels.py").write_text(kernels)
    (pkg / "helpers.py").write_text(helpers)
    return pkg


def test_host_imports_of_missing_packages_are_left_out(tmp_path):
    pkg = _package(tmp_path)
    mod = refmodule.load(pkg / "kernels.py")
    assert mod.SCALE == 2.0 and mod.twice(3) == 6
    assert not hasattr(mod, "host_entry") and not hasattr(mod, "launch")
    assert [p.name for p in mod.__ctrs_files__] == ["helpers.py", "kernels.py"]
    assert sorted(p.name for p in refmodule.reads(pkg / "kernels.py")) == ["helpers.py", "kernels.py"]


def test_a_left_out_name_used_at_load_is_a_coded_error(tmp_path):
    helpers = HELPERS.replace("if math.pi > 3:", "if DEVICE_TYPE == 'cuda':")  # SCALE now depends on the probe
    pkg = _package(tmp_path, helpers=helpers)
    with pytest.raises(errors.CtrsError) as e:
        refmodule.load(pkg / "kernels.py")
    assert e.value.code == errors.REF_IMPORT_DROPPED and "DEVICE_TYPE" in e.value.message
    assert e.value.loc.file.endswith("helpers.py") and e.value.loc.line == 4


def test_a_missing_name_a_helper_uses_stays_an_import_error(tmp_path):
    helpers = HELPERS.replace("return t + t", "return logger(t)")  # the kernels' helper needs logger itself
    pkg = _package(tmp_path, helpers=helpers)
    with pytest.raises(errors.CtrsError) as e:
        refmodule.load(pkg / "kernels.py")
    assert e.value.code == errors.REF_EXTRACT and "ctrs_absent_pkg.log" in e.value.message
    assert e.value.loc.line == 2


@pytest.mark.model
def test_import_time_uses_follow_earlier_definitions_only():
    src = HELPERS + "\n\nLATE = SCALE\n"
    kept = {s.first for s in refmodule.needed(src, {"SCALE"})}
    assert kept == {1, 6}  # `import math`, the if: neither the probe at the end nor the imports it needs
    lazy = {s.first for s in refmodule.needed(src, {"twice", "host_entry"})}
    assert {2, 3, 12, 16} <= lazy and 4 not in lazy  # host_entry's body: logger, two; never DEVICE_TYPE
