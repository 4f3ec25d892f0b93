"""Target profiles (rules/targets/cutile-*.toml): loading, `--cutile`, doctor, and fixture ports under 0.5.0."""

from __future__ import annotations

import json
import re

import pytest

from ctrs import errors, ir_ref, ir_rs, irdiff, targets
from ctrs.spec import load_specs

from .conftest import DATA, FIXTURES
from .test_backbone import _one_line_error, run_cli


def _locked(lock_text: str) -> dict[str, str]:
    return dict(re.findall(r'\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', lock_text))


def test_profiles_ship_both_versions_and_default_is_031():
    assert list(targets.profiles()) == ["0.3.1", "0.5.0"]
    assert targets.get().version == targets.DEFAULT == "0.3.1"
    for v, p in targets.profiles().items():
        # every crate of the family is pinned at the profile's version in the committed harness lock
        locked = _locked(p.template(p.cargo_lock).read_text())
        assert {c: locked.get(c) for c in p.crates} == dict.fromkeys(p.crates, v), v
        assert p.bytecode == "13.3" and p.bytecode in p.bytecode_supported


def test_api_spellings_are_data():
    old, new = targets.get("0.3.1"), targets.get("0.5.0")
    assert old.api.keys() == new.api.keys()
    assert new.differences(old) == ["global_orderings", "global_type", "host_borrow_tensor", "host_context",
                                    "partition_view", "set_tensor_token"]
    args = dict(tensor="x", shape="shape![TILE]", padding="padding::None", dim_map="dim_map::Identity",
                token="get_tensor_token(x)")
    call = "make_partition_view(x, shape![TILE], padding::None, dim_map::Identity, get_tensor_token(x))"
    assert old.render("partition_view", **args) == call
    assert new.render("partition_view", **args) == f"unsafe {{ {call} }}"
    assert new.render("partition_view", in_unsafe=True, **args) == call
    assert new.render("host_context", ordinal="0") == "Context::new(0)"
    with pytest.raises(errors.CtrsError) as e:
        new.render("no_such_api")
    assert e.value.code == "CTRS-E171"


def test_unknown_cutile_version_is_a_coded_error(tmp_path):
    out = tmp_path / "out"
    res = run_cli("ir-rs", "fixtures/vector_add/port.rs", "--spec", "fixtures/vector_add/specs.json",
                  "--cutile", "0.4.0", "-o", str(out))
    line = _one_line_error(res, "CTRS-E170")
    assert res.returncode == 3
    assert "unknown cutile version '0.4.0'" in line and "0.3.1, 0.5.0" in line
    assert not out.exists()  # nothing written


def test_malformed_profile_is_a_coded_error(tmp_path, monkeypatch):
    (tmp_path / "cutile-9.9.9.toml").write_text('[crate]\nversion = "9.9.9"\ncrates = {}\n')
    monkeypatch.setattr(targets, "_profile_dir", lambda: tmp_path)
    targets.profiles.cache_clear()
    try:
        with pytest.raises(errors.CtrsError) as e:
            targets.get("9.9.9")
        # the schema of rules/targets/*.toml (transpiler/rules_loader.py) finds it before any other check
        assert e.value.one_line() == (f"{tmp_path / 'cutile-9.9.9.toml'}: error[CTRS-E191]: the file lacks the table "
                                      "[harness] (hint: the file needs [crate], [harness], [bytecode] (docs/rules.md))")
    finally:
        targets.profiles.cache_clear()


def test_doctor_lists_every_profile():
    res = run_cli("doctor")
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("found") and " cutile " in ln]
    assert [ln.split()[2] for ln in lines] == ["=0.3.1", "=0.5.0"], res.stdout
    assert "default" in lines[0] and "--cutile 0.5.0" in lines[1]


# --- the 0.5.0 harness, built for real (cargo, cutile 0.5.0 from crates.io) -----------------------

# Fixture ports written for 0.3.1 that are IR-equivalent under 0.5.0 as they are (docs/cutile-0.5.0.md).
PROVEN_050 = "bmm"


def test_fixture_port_is_equivalent_under_050():
    fx = FIXTURES / PROVEN_050
    specs = load_specs(str(fx / "specs.json"))
    gens = ir_rs.compile_ports(fx / "port.rs", [(s, s.rust.get("entry") or s.kernel) for s in specs], cutile="0.5.0")
    for s, gen in zip(specs, gens):
        assert gen.bytecode[8:10] == bytes([13, 3])  # written at the profile's bytecode version
        report = irdiff.diff(ir_ref.compile_reference(fx / "kernel.py", s).text, gen.text, "ref", "port")
        assert report.exit_code() == 0, report.render()
        assert report.stats["matched"] == report.stats["ref_ops"] == report.stats["gen_ops"] > 3


def test_safe_make_partition_view_call_fails_under_050_at_its_line():
    port = FIXTURES / "vector_add" / "port.rs"
    res = run_cli("ir-rs", str(port), "--spec", str(FIXTURES / "vector_add" / "specs.json"), "--cutile", "0.5.0")
    line = _one_line_error(res, "CTRS-E020")
    first = next(i for i, ln in enumerate(port.read_text().splitlines(), 1) if "make_partition_view(" in ln)
    assert f"port.rs:{first}:" in line
    assert "call to unsafe function `cutile::core::make_partition_view`" in line and "[E0133]" in line


@pytest.mark.parametrize("version", ["0.3.1", "0.5.0"])
def test_bf16_neg_inf_constant_encoding_matches_the_profile(version):
    """The upstream defect the profiles record: bf16 typed constants are decoded as f16 bits before encoding."""
    assert targets.get(version).syntax["bf16_hex_constants"] == "decoded_as_f16"
    spec = {"name": "probe", "kernel": "probe", "rust": {"entry": "probe", "generics": []},
            "args": {"z": {"dtype": "bfloat16", "shape": [128]}, "w": {"dtype": "float16", "shape": [128]},
                     "o": {"dtype": "bfloat16", "shape": [128]}}}
    (gen,) = ir_rs.compile_ports(DATA / "bf16_neg_inf_probe.rs", [(load_specs(json.dumps(spec))[0], "probe")],
                                 cutile=version)
    consts = re.findall(r"constant <(bf16|f16): (\S+)>", gen.text)
    # f16 -inf is 0xFC00 (right); bf16 -inf (0xFF80) becomes the NaN 0xFFF0, bf16 1.0 (0x3F80) becomes 1.875 and
    # bf16 e (0x402E) 2.09375: the f16 values of those bit patterns
    assert ("f16", "0xFC00") in consts and ("bf16", "0xFFF0") in consts and ("bf16", "0xFF80") not in consts, consts
    assert ("bf16", "1.875000e+00") in consts and ("bf16", "2.093750e+00") in consts, consts
