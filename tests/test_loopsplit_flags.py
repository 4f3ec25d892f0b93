"""A loop-split candidate (`if j >= mask_start` on the loop index) that a ct.Constant[bool] flag leaves at the
loop body's top level (TileGym's causal attention: `if (CAUSAL or not EVEN_K) and j >= mask_start`): cuTile
Python folds the flags, then its loop_split makes two loops. The port gets one entry per value of those flags
(passes/specialise.py _loop_split_flags), and passes/loopsplit.py splits the loop in the entries where the if is
left (tests/data/loopsplit_flags.py; it was refused, CTRS-E325)."""

from __future__ import annotations

import re

import pytest

from ctrs import pipeline

from .conftest import DATA, assert_port_equivalent, data_cases, translate_data

KERNEL = "loopsplit_flags"


@pytest.fixture(scope="module")
def port(tmp_path_factory):
    return translate_data(tmp_path_factory.mktemp("lsf"), [KERNEL])[KERNEL]


def _loops(rs: str, entry: str) -> int:
    body = rs.split(f"pub fn {entry}<", 1)[1].split("pub fn ", 1)[0]
    return len(re.findall(r"^\s+for \w+ in ", body, re.M))


@pytest.mark.model
def test_one_entry_per_flag_value_and_two_loops_where_the_if_is_left():
    ks = {k.name: k for k in pipeline.lower(DATA / f"{KERNEL}.py")}
    assert sorted(ks) == ["causal_sum__CAUSAL_0__EVEN_K_0", "causal_sum__CAUSAL_0__EVEN_K_1", "causal_sum__CAUSAL_1"]


@pytest.mark.parametrize("name,spec", list(data_cases([KERNEL])))
def test_flag_split_loops_are_ir_equivalent(port, name, spec):
    rs = port.read_text()
    assert _loops(rs, "causal_sum__CAUSAL_1") == 2 and _loops(rs, "causal_sum__CAUSAL_0__EVEN_K_0") == 2
    assert _loops(rs, "causal_sum__CAUSAL_0__EVEN_K_1") == 1  # the if folds away: nothing to split
    assert_port_equivalent(DATA / f"{KERNEL}.py", port, spec)
