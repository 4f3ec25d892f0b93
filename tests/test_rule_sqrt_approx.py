"""A rule added as data only (issue 11's closing figure "what a new rule costs"): ``ct.sqrt(x,
rounding_mode=ct.RoundingMode.APPROX)`` is the ``rust_approx`` line of rules/ir.toml ``[math."ct.sqrt"]``; no
Python changed. The port is IR-equivalent to cuTile Python's (``cuda_tile.sqrt .. rounding<approx>``)."""

from __future__ import annotations

import pytest

from ctrs import translate
from ctrs.ir import OpKind, walk
from ctrs.ir_rules import ir_rules
from ctrs.pipeline import lower

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNEL = DATA / "rule_sqrt_approx.py"


def test_the_rule_is_data():
    assert ir_rules()["math"]["ct.sqrt"]["rust_approx"] == "sqrt({x}, rounding::Approx, ftz::Disabled)"


def test_lowered_and_spelled_from_the_rule():
    (k,) = lower(KERNEL)
    (op,) = [o for o in walk(k.body) if o.kind == OpKind.MATH]
    assert (op.attrs["fn"], op.attrs.get("approx")) == ("sqrt", True)
    rs = translate.translate_source(KERNEL)["kernel.rs"]
    assert "let r: Tile<f32, { [TILE] }> = sqrt(t_c, rounding::Approx, ftz::Disabled);" in rs


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("sqrt"), ["rule_sqrt_approx"])["rule_sqrt_approx"]


@pytest.mark.parametrize(("kernel", "spec"), list(data_cases(["rule_sqrt_approx"])))
def test_ir_equivalent(port, kernel, spec):
    assert_port_equivalent(DATA / f"{kernel}.py", port, spec)
