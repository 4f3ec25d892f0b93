"""Target profiles (rules/targets/cutile-*.toml): loading, `--cutile`, doctor, and fixture ports under 0.5.0."""

from __future__ import annotations

import json
import re

import pytest

from ctrs.workflow import check, regen
from ctrs import errors, targets, translate
from ctrs.verify import ir_ref, ir_rs, irdiff
from ctrs.spec import load_specs

from .conftest import DATA, FIXTURES
from .test_backbone import _one_line_error, run_cli


def _locked(lock_text: str) -> dict[str, str]:
    return dict(re.findall(r'\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', lock_text))


def test_profiles_ship_both_versions_and_default_is_050():
    assert list(targets.profiles()) == ["0.3.1", "0.5.0"]
    assert targets.get().version == targets.DEFAULT == targets.current().version == "0.5.0"
    with targets.using("0.3.1"):
        assert targets.get().version == targets.current().version == "0.3.1"
        with targets.using(None):  # None keeps the enclosing choice (the LLM fallback re-enters translate)
            assert targets.current().version == "0.3.1"
    assert targets.current().version == "0.5.0"
    for v, p in targets.profiles().items():
        # every crate of the family is pinned at the profile's version in the committed harness lock
        locked = _locked(p.template(p.cargo_lock).read_text())
        assert {c: locked.get(c) for c in p.crates} == dict.fromkeys(p.crates, v), v
        assert p.bytecode == "13.3" and p.bytecode in p.bytecode_supported


def test_api_spellings_are_data():
    old, new = targets.get("0.3.1"), targets.get("0.5.0")
    assert old.api.keys() == new.api.keys()
    assert new.differences(old) == ["assume_div_by", "assume_lower_bound", "global_orderings", "global_type",
                                    "host_borrow_tensor", "host_context", "host_fast_launch", "join_tokens",
                                    "load_token", "ordered_store_view", "pack_bytes", "padding_tile", "partition_view",
                                    "set_tensor_token",
                                    "view_atomic_red", "view_store"]
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
    assert "--cutile 0.3.1" in lines[0] and "default" in lines[1]


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
    port = DATA / "safe_partition_view_031.rs"  # vector_add's port as written for 0.3.1 (a safe call)
    res = run_cli("ir-rs", str(port), "--spec", str(FIXTURES / "vector_add" / "specs.json"), "--cutile", "0.5.0")
    line = _one_line_error(res, "CTRS-E020")
    first = next(i for i, ln in enumerate(port.read_text().splitlines(), 1) if "make_partition_view(" in ln)
    assert f"safe_partition_view_031.rs:{first}:" in line
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


# --- emission per profile (no cargo) ---------------------------------------------------------------

# one fixture per pipeline: vector_add goes through the typed IR (rules/ir.toml), splitk_reduce through the
# text model (rules/cutile.toml); both emit make_partition_view
EMITTED = ("vector_add", "splitk_reduce")


@pytest.mark.parametrize("fixture", EMITTED)
@pytest.mark.parametrize("version", ["0.3.1", "0.5.0"])
def test_translate_spells_and_pins_the_chosen_profile(fixture, version):
    prof = targets.get(version)
    files = translate.translate_source(FIXTURES / fixture / "kernel.py", cutile=version)
    rs = files["kernel.rs"]
    calls = rs.count("make_partition_view(")
    wrapped = rs.count("unsafe { make_partition_view(")
    assert calls >= 1 and wrapped == (calls if version == "0.5.0" else 0), rs
    # the port crate pins every crate of the family exactly, and its lock resolves them at that version
    toml = files["Cargo.toml"]
    assert all(f'{c} = "={version}"' in toml for c in prof.crates), toml
    assert {c: _locked(files["Cargo.lock"]).get(c) for c in prof.crates} == dict.fromkeys(prof.crates, version)
    root = files["Cargo.lock"].split('name = "vector_add"' if fixture == "vector_add" else 'name = "splitk_reduce"')[1]
    assert all(f' "{c}",' in root.split("]")[0] for c in prof.crates)
    assert json.loads(files["analysis.json"])["cutile"] == version
    ffi = files["ffi.rs"]
    ctx = "Context" if version == "0.5.0" else "Device"
    assert f"{ctx}::new(device_id as usize)" in ffi and f"OnceLock<Arc<{ctx}>>" in ffi
    borrow = "dev.clone()" if version == "0.5.0" else "dev.ordinal()"
    assert f"Tensor::<T>::borrow_raw_parts(d.ptr, {borrow}, d.shape_i32(), d.view_strides(std::mem::size_of::<T>()))" in ffi
    other = "Device" if version == "0.5.0" else "Context"
    assert f"{other}::" not in ffi and f"Arc<{other}>" not in ffi


def test_kernel_rs_differs_between_profiles_only_by_the_unsafe_blocks():
    for fixture in EMITTED:
        new = translate.translate_source(FIXTURES / fixture / "kernel.py")["kernel.rs"]  # the default: 0.5.0
        old = translate.translate_source(FIXTURES / fixture / "kernel.py", cutile="0.3.1")["kernel.rs"]
        assert new != old
        assert re.sub(r"unsafe \{ (make_partition_view\([^;]*\)) \};", r"\1;", new) == old


def test_unknown_cutile_for_translate_writes_nothing(tmp_path):
    res = run_cli("translate", "fixtures/vector_add/kernel.py", "--cutile", "0.4.0", "-o", str(tmp_path / "p"))
    assert res.returncode == 3 and "unknown cutile version '0.4.0'" in _one_line_error(res, "CTRS-E170")
    assert not (tmp_path / "p").exists()


def test_a_port_without_a_recorded_version_was_made_for_031(tmp_path):
    assert check.port_target({}) == "0.3.1"
    assert check.port_target({"cutile": "0.5.0"}) == "0.5.0"
    # a port recording a version this ctrs has no profile for: coded, at its analysis.json, before any build
    port = tmp_path / "port"
    translate.translate(FIXTURES / "vector_add" / "kernel.py", port)
    ana = json.loads((port / "analysis.json").read_text())
    (port / "analysis.json").write_text(json.dumps({**ana, "cutile": "0.4.0"}))
    with pytest.raises(errors.CtrsError) as e:
        check.check(FIXTURES / "vector_add" / "kernel.py", port=port)
    assert e.value.code == "CTRS-E350" and e.value.loc.file == str(port / "analysis.json")
    assert "generated for cutile 0.4.0" in e.value.one_line() and "--cutile 0.3.1|0.5.0" in e.value.one_line()


def test_manifest_cutile_key(tmp_path):
    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "va.py").write_text((FIXTURES / "vector_add" / "kernel.py").read_text())
    (tmp_path / "ctrs.toml").write_text('[[port]]\nsource = "k/*.py"\noutput = "p/{stem}"\ncutile = "0.4.0"\n')
    with pytest.raises(errors.CtrsError) as e:
        regen.load_manifest(tmp_path / "ctrs.toml")
    assert "'cutile' must name a supported crate version, not '0.4.0'" in e.value.one_line()
    assert "one of 0.3.1, 0.5.0" in e.value.one_line()
    for pinned, want in (("", "0.5.0"), ('cutile = "0.3.1"\n', "0.3.1")):
        (tmp_path / "ctrs.toml").write_text(f'[[port]]\nsource = "k/*.py"\noutput = "p/{{stem}}"\n{pinned}')
        assert regen.regen([], manifest=str(tmp_path / "ctrs.toml")) == 0
        ana = json.loads((tmp_path / "p" / "va" / "analysis.json").read_text())
        assert ana["cutile"] == want
    # moving the port to another version makes it stale (the resolved version is a regen option)
    (tmp_path / "ctrs.toml").write_text('[[port]]\nsource = "k/*.py"\noutput = "p/{stem}"\ncutile = "0.5.0"\n')
    assert regen.regen([], check=True, manifest=str(tmp_path / "ctrs.toml")) == 1


# --- both profiles built for real: translate, cargo build of the port crate, IR proof (ctrs check) ----------


@pytest.mark.parametrize("fixture", EMITTED)
@pytest.mark.parametrize("version", ["0.3.1", "0.5.0"])
def test_translated_fixture_is_equivalent_under_both_profiles(fixture, version, tmp_path):
    rows = check.check(FIXTURES / fixture / "kernel.py", keep=tmp_path / "port", cutile=version)
    assert rows and all(r.verdict == "EQUIVALENT" for r in rows), check.render_table(rows)
    assert json.loads((tmp_path / "port" / "analysis.json").read_text())["cutile"] == version
    # --port: the port is rebuilt and compiled for the version it records, whatever the default
    again = check.check(FIXTURES / fixture / "kernel.py", port=tmp_path / "port")
    assert [r.verdict for r in again] == [r.verdict for r in rows]
