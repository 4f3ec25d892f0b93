"""A kernel file that imports torch for annotations and dtypes is proven without torch: the reference module
binds the torch stand-in (transpiler/refmodule.py; docs/porting.md "Reference modules")."""

from __future__ import annotations

import importlib.util

import pytest

from ctrs import errors
from ctrs.workflow import check
from ctrs.verify import refmodule

from .conftest import DATA

KERNEL = DATA / "ref_torch_standin.py"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch installed: the real one")


def test_standin_has_tensor_and_dtypes_only(tmp_path):
    import cuda.tile as ct

    mod = refmodule.load(KERNEL)
    assert mod.torch.float32 is ct.float32 and mod.torch.bfloat16 is ct.bfloat16 and mod.torch.bool is ct.bool_
    with pytest.raises(AttributeError, match="torch.zeros: torch is not installed"):
        mod.torch.zeros  # noqa: B018


def test_other_torch_use_is_a_coded_error(tmp_path):
    p = tmp_path / "k.py"
    p.write_text("import torch\nimport cuda.tile as ct\n\nN = torch.cuda.device_count()\n\n\n@ct.kernel\n"
                 "def k(x, n: ct.Constant[int]):\n    ct.store(x, index=(0,), tile=ct.full((n,), N, x.dtype))\n")
    with pytest.raises(errors.CtrsError) as e:
        refmodule.load(p)
    assert e.value.code == errors.REF_EXTRACT and "torch.cuda" in str(e.value)


def test_torch_annotated_kernel_is_ir_equivalent(tmp_path):
    rows = check.check(KERNEL, [str(KERNEL.with_suffix(".json"))], keep=tmp_path / "port")
    assert sorted((r.spec, r.verdict) for r in rows) == [("rows_f16", "EQUIVALENT"), ("rows_f32", "EQUIVALENT")]
