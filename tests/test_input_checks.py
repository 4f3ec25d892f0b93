"""The two input checks both front ends make before lowering (frontends/pysource.check_kernel_file): the
language's import is present, a decorated kernel exists. One coded diagnostic each, at the file."""

from __future__ import annotations

import pytest

from ctrs import errors, pipeline
from ctrs.frontends.triton import source as triton_source

pytestmark = pytest.mark.model

CASES = [
    (pipeline._info, "def f():\n    pass\n", errors.TRANSLATE_INPUT,
     "no 'import cuda.tile as ct' in the file (hint: cuTile Python kernels import cuda.tile)"),
    (pipeline._info, "import cuda.tile as ct\n\ndef f():\n    pass\n", errors.KERNEL_NOT_FOUND,
     "no @ct.kernel function in the file (hint: decorate the kernel with @ct.kernel)"),
    (triton_source.load, "import triton\n\n@triton.jit\ndef f():\n    pass\n", errors.TRANSLATE_INPUT,
     "no 'import triton.language as tl' in the file (hint: Triton kernels import triton.language)"),
    (triton_source.load, "import triton\nimport triton.language as tl\n\ndef f():\n    pass\n",
     errors.KERNEL_NOT_FOUND, "no @triton.jit function in the file (hint: decorate the kernel with @triton.jit)"),
]


@pytest.mark.parametrize("read, text, code, message", CASES, ids=["ct-import", "ct-kernel", "tl-import", "tl-jit"])
def test_input_check(tmp_path, read, text, code, message):
    path = tmp_path / "kernel.py"
    path.write_text(text)
    with pytest.raises(errors.CtrsError) as e:
        read(path)
    assert e.value.code == code
    assert e.value.one_line() == f"{path}: error[{code}]: {message}"
