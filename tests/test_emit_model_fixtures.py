"""`ctrs translate --emit model` on every fixture (issue 11): each prints the typed IR of every kernel after the
last stage; a verified IR names each op's kind and result type. Model-only: no cargo, no reference compiler.
(One kernel's op kinds and types in detail: tests/test_ir.py test_printer_matmul_frontend.)"""

from __future__ import annotations

import re

import pytest

from ctrs import errors, pipeline

from .conftest import FIXTURES

pytestmark = pytest.mark.model

ALL = sorted(p.name for p in FIXTURES.iterdir() if (p / "kernel.py").exists())
REFUSED = {"triton_unsupported": (errors.IR_UNSUPPORTED, 17, 13)}  # tl.randn: no rule (the fixture's point)
_OP = re.compile(r"^\s+(?:%[\w.]+(?:, %[\w.]+)* = )?([a-z_0-9]+)\b")


@pytest.mark.parametrize("fixture", ALL)
def test_emit_model_prints_every_fixture(fixture):
    path = FIXTURES / fixture / "kernel.py"
    if fixture in REFUSED:
        with pytest.raises(errors.CtrsError) as e:
            pipeline.emit_model(path, "final")
        assert (e.value.code, e.value.loc.line, e.value.loc.col) == REFUSED[fixture]
        return
    text = pipeline.emit_model(path, "final")
    kernels = re.findall(r"^// stage: final\nkernel @(\w+)", text, re.M)
    assert kernels, text[:200]
    ops = [m.group(1) for line in text.splitlines() if (m := _OP.match(line))]
    assert ops.count("yield") >= len(kernels)  # every kernel body ends in its yield
    for line in text.splitlines():
        if re.match(r"\s+%[\w.]+(?:, %[\w.]+)* = ", line) and "{  loc(" not in line:  # a result, not a region op
            assert re.search(r" : \S", line) and "loc(" in line, line  # a typed, located result
