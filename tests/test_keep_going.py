"""The translator keeps going after a blocker (issue 11): every blocker of a file is reported once, at its
construct (file:line:col, code), kernels without one are still emitted, and the exit code says some were
refused. Data: tests/data/keep_going.py (six kernels, four refused)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ctrs.workflow import check, cli
from ctrs import errors, pipeline, spec as specmod, translate
from ctrs.frontends import cutile as fe

DATA = Path(__file__).resolve().parent / "data"
KG = DATA / "keep_going.py"
TYPED_HINT = " (hint: not in the typed IR front end's subset yet (docs/ir.md))"
SUMMARY = ("error[CTRS-E240]: 2 of 6 kernels translated; 4 refused (helper_again, helper_twice, loop_and_scalar, "
           "two_blockers) (hint: each blocker has its own line; ctrs translate --dry-run lists them without writing)")


def typed(what: str) -> str:
    return f"error[CTRS-E124]: typed-IR front end: {what}{TYPED_HINT}"


def blockers(path: Path) -> list[str]:
    """The blocker lines of keep_going.py, by position: the helper's once (not per call, not per kernel), the
    two independent ones of two_blockers (not `v = u * 2` nor the store, which only use what failed) and the
    loop's (`scale`, used only as a number, is a runtime i32 parameter)."""
    return [f"{path}:11:9: " + typed("call 'ct.roll_it'"),
            f"{path}:27:9: " + typed("call 'ct.mystery'"),
            f"{path}:29:9: " + typed("tile subscripts other than None and ':' (new axes)"),
            f"{path}:54:21: " + typed("call 'ct.mystery'")]


DEFAULT = blockers(KG)


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = cli.main([str(a) for a in argv])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


# ---------------------------------------------------------------------------------------------- model only


@pytest.mark.model
def test_lowering_records_every_blocker_per_kernel_and_lowers_the_others():
    refused: dict[str, list[errors.CtrsError]] = {}
    mod = fe.lower_file(pipeline._info(KG), refused)
    assert [k.name for k in mod.kernels] == ["add", "double"]
    where = {k: [(b.loc.line, b.loc.col, b.code) for b in bs] for k, bs in refused.items()}
    assert where == {"two_blockers": [(27, 9, "CTRS-E124"), (29, 9, "CTRS-E124")],
                     "helper_twice": [(11, 9, "CTRS-E124")],  # two calls of the helper: one blocker
                     "loop_and_scalar": [(54, 21, "CTRS-E124")],
                     "helper_again": [(11, 9, "CTRS-E124")]}


@pytest.mark.model
def test_lowering_without_refused_raises_the_first_blocker():
    with pytest.raises(errors.CtrsError) as ei:
        fe.lower_file(pipeline._info(KG))
    assert (ei.value.loc.line, ei.value.code) == (27, "CTRS-E124")


@pytest.mark.model
def test_unused_parameter_does_not_block_and_one_used_only_by_a_failing_call_does_not_either(tmp_path):
    """A parameter the body never names is kept as an unused argument (cuTile Python passes it too): the only
    blocker is the failing call, not the parameter it alone used."""
    k = tmp_path / "k.py"
    k.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef f(a, out, unused, n: ct.Constant[int]):\n"
                 "    t = ct.load(a, index=(0,), shape=(n,))\n    ct.atomic_thing(out, t)\n")
    refused: dict = {}
    fe.lower_file(pipeline._info(k), refused)
    assert [(b.loc.line, b.loc.col, b.message) for b in refused["f"]] == [
        (7, 5, "typed-IR front end: call 'ct.atomic_thing'")]


@pytest.mark.model
def test_refusal_lists_shared_blockers_once_sorted():
    e1 = errors.CtrsError("CTRS-E124", "b", "", errors.Loc("f.py", 9, 1))
    e2 = errors.CtrsError("CTRS-E124", "a", "", errors.Loc("f.py", 3, 5))
    r = errors.Refused("f.py", {"k1": [e1, e2], "k2": [errors.CtrsError("CTRS-E124", "b", "", errors.Loc("f.py", 9, 1))]}, 3)
    assert r.lines() == ["f.py:3:5: error[CTRS-E124]: a", "f.py:9:1: error[CTRS-E124]: b",
                         "f.py: error[CTRS-E240]: 1 of 3 kernels translated; 2 refused (k1, k2) (hint: each blocker "
                         "has its own line; ctrs translate --dry-run lists them without writing)"]


@pytest.mark.model
def test_check_gives_each_spec_of_a_refused_kernel_a_refused_row():
    r = translate.translate_module(KG).refused
    spec = specmod.load_specs(json.dumps([{"name": "s1", "kernel": "two_blockers", "args": {
        "a": {"shape": [64], "dtype": "float32"}, "c": {"shape": [64], "dtype": "float32"}, "n": 64}}]))
    rows = check.refused_rows(r, [(s, "--spec") for s in spec])
    assert [(x.kernel, x.spec, x.verdict, len(x.findings)) for x in rows] == [
        ("helper_again", "*", "REFUSED", 1), ("helper_twice", "*", "REFUSED", 1),
        ("loop_and_scalar", "*", "REFUSED", 1), ("two_blockers", "s1", "REFUSED", 2)]
    assert rows[-1].critical and rows[-1].findings == DEFAULT[1:3]


# ---------------------------------------------------------------------------------------------- CLI


@pytest.mark.model
def test_translate_reports_every_blocker_and_writes_the_good_kernels(tmp_path, capsys):
    out = tmp_path / "port"
    rc, stdout, err = run(capsys, "translate", KG, "-o", out)
    assert rc == 1
    assert err.splitlines() == [*DEFAULT, f"{KG}: {SUMMARY}"]
    assert [Path(p).name for p in stdout.split()] == ["kernel.rs", "lib.rs", "ffi.rs", "Cargo.toml", "wrapper.py",
                                                      "analysis.json", "Cargo.lock"]
    ffi = (out / "ffi.rs").read_text()
    assert re.findall(r'extern "C" fn (ctrs_\w+)', ffi) == ["ctrs_set_launch_hints", "ctrs_set_fast_path", "ctrs_add",
                                                            "ctrs_double", "ctrs_xc_usable", "ctrs_xc_descs",
                                                            "ctrs_xc_add", "ctrs_xc_double"]
    assert re.findall(r"pub fn (\w+)<", (out / "kernel.rs").read_text()) == ["add", "double"]
    assert [f for f in re.findall(r"^def (\w+)\(", (out / "wrapper.py").read_text(), re.M) if "add" in f or "double"
            in f or "blockers" in f or "helper" in f or "scalar" in f] == ["_plan_add", "add", "_plan_double", "double"]
    ana = json.loads((out / "analysis.json").read_text())
    assert [k["name"] for k in ana["kernels"]] == ["add", "double"]
    assert [k["name"] for k in ana["python_kernels"]] == ["add", "double"]


@pytest.mark.model
def test_ctrs_pipeline_typed_is_accepted_and_changes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CTRS_PIPELINE", "typed")  # older scripts set it: there is one pipeline
    rc, _, err = run(capsys, "translate", KG, "-o", tmp_path / "port")
    assert rc == 1 and err.splitlines() == [*DEFAULT, f"{KG}: {SUMMARY}"]


@pytest.mark.model
def test_dry_run_lists_the_same_blockers_and_writes_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, stdout, err = run(capsys, "translate", "--dry-run", KG)
    assert rc == 1 and stdout.splitlines() == DEFAULT
    assert err == ("ctrs translate --dry-run: 4 blocker(s); 2 of 6 kernels translated; 4 refused (helper_again, "
                   "helper_twice, loop_and_scalar, two_blockers)\n")
    assert list(tmp_path.iterdir()) == []
    rc, stdout, err = run(capsys, "translate", "--dry-run", DATA.parent.parent / "fixtures" / "vector_add" / "kernel.py")
    assert (rc, stdout) == (0, "") and "0 blockers" in err


@pytest.mark.model
def test_every_kernel_refused_writes_nothing_and_lists_every_blocker(tmp_path, capsys):
    k = tmp_path / "bad.py"
    k.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef f(a, n: ct.Constant[int]):\n"
                 "    t = ct.load(a, index=(0,), shape=(n,))\n    u = t[1]\n    ct.store(a, index=(0,), tile=u)\n"
                 "\n\n@ct.kernel\ndef g(a):\n    x = ct.zap(a)\n")
    rc, stdout, err = run(capsys, "translate", k, "-o", tmp_path / "out")
    assert (rc, stdout) == (3, "")
    assert err.splitlines() == [
        f"{k}:7:9: " + typed("tile subscripts other than None and ':' (new axes)"),
        f"{k}:13:9: " + typed("call 'ct.zap'"),
        f"{k}: error[CTRS-E240]: 0 of 2 kernels translated; 2 refused (f, g) (hint: each blocker has its own line; "
        "ctrs translate --dry-run lists them without writing)"]
    assert not (tmp_path / "out").exists()


@pytest.mark.model
def test_partial_port_never_replaces_a_user_file(tmp_path, capsys):
    out = tmp_path / "port"
    out.mkdir()
    (out / "wrapper.py").write_text("mine\n")
    rc, stdout, err = run(capsys, "translate", KG, "-o", out)
    assert (rc, stdout) == (3, "") and "error[CTRS-E051]" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in out.iterdir()) == ["wrapper.py"] and (out / "wrapper.py").read_text() == "mine\n"


@pytest.mark.model
def test_translate_dir_marks_the_file_partial(tmp_path):
    d = tmp_path / "src"
    d.mkdir()
    (d / "kg.py").write_text(KG.read_text())
    (row,) = translate.translate_dir(d, tmp_path / "out")
    assert (row["status"], row["code"]) == ("partial", "CTRS-E240")
    assert row["message"].splitlines()[:-1] == blockers(d / "kg.py")
    assert (tmp_path / "out" / "kg_rs" / "ffi.rs").exists()


def test_the_partial_port_builds(tmp_path, capsys):
    out = tmp_path / "port"
    rc, _, _ = run(capsys, "translate", KG, "-o", out)
    assert rc == 1
    lib = check.build_crate(out)
    assert lib.exists()


@pytest.mark.model
def test_port_of_the_translated_kernel_when_another_is_refused(tmp_path, capsys):
    """`expo` (ct.exp of the array's dtype variable, generic since per-array dtype variables) translates on the
    typed IR; `broken` is refused: the port holds `expo` alone, spelled from the typed IR's rules, and `broken` is
    reported at its construct."""
    k = tmp_path / "mix.py"
    body = "    bid = ct.bid(0)\n    t = ct.load(a, index=(bid,), shape=(n,))\n    ct.store(c, index=(bid,), tile={})\n"
    k.write_text("import cuda.tile as ct\n\n\n@ct.kernel\ndef expo(a, c, n: ct.Constant[int]):\n" + body.format("ct.exp(t)")
                 + "\n\n@ct.kernel\ndef broken(a, c, n: ct.Constant[int]):\n" + body.format("ct.mystery(t)"))
    rc, _, err = run(capsys, "translate", k, "-o", tmp_path / "out")
    assert rc == 1
    assert err.splitlines() == [
        f"{k}:15:36: " + typed("call 'ct.mystery'"),
        f"{k}: error[CTRS-E240]: 1 of 2 kernels translated; 1 refused (broken) (hint: each blocker has its own line; "
        "ctrs translate --dry-run lists them without writing)"]
    assert re.findall(r'extern "C" fn (ctrs_\w+)', (tmp_path / "out" / "ffi.rs").read_text()) == [
        "ctrs_set_launch_hints", "ctrs_set_fast_path", "ctrs_expo", "ctrs_xc_usable", "ctrs_xc_descs", "ctrs_xc_expo"]
    assert "(rules: rules/ir.toml)" in (tmp_path / "out" / "kernel.rs").read_text()


@pytest.mark.model
def test_explain_explains_the_translated_kernels_then_lists_the_blockers(tmp_path, capsys):
    rc, stdout, err = run(capsys, "translate", KG, "-o", tmp_path / "port", "--explain")
    assert rc == 1 and err.splitlines() == [*DEFAULT, f"{KG}: {SUMMARY}"]
    explained = [line.split(": ")[1] for line in stdout.splitlines() if line.startswith(f"{KG}:")]
    assert explained == ["add", "add", "double", "double"]
