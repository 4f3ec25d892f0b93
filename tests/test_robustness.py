"""Hostile inputs (issue 20): every input gives a result or one coded diagnostic with its location; no user
file is replaced; every spec is validated; ill-formed IR is refused and assume facts are compared."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ctrs.workflow import check, cli, regen
from ctrs import errors, spec as specmod, translate
from ctrs.verify import irdiff, irparse
from ctrs.emitters import render_host

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
IR = Path(__file__).resolve().parent / "data" / "ir"
VA = FIXTURES / "vector_add" / "kernel.py"
VA_TEXT = VA.read_text()


def ctrs(capsys, *argv) -> tuple[int, str]:
    rc = cli.main([str(a) for a in argv])
    return rc, capsys.readouterr().err.strip()


def one_error(capsys, *argv) -> str:
    rc, err = ctrs(capsys, *argv)
    assert rc == 3, err
    assert len(err.splitlines()) == 1, err
    return err


def kernel(tmp_path: Path, data: bytes | str, name: str = "k.py") -> Path:
    p = tmp_path / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


# ---------------------------------------------------------------------------------------------- source decoding


def test_invalid_utf8_byte_is_located(tmp_path, capsys):
    k = kernel(tmp_path, VA_TEXT.encode().replace(b"pid = ct.bid(0)", b"pid = ct.bid(0)  # \xff"))
    err = one_error(capsys, "translate", k, "-o", tmp_path / "o")
    assert err.startswith(f"{k}:10:") and "error[CTRS-E105]: not valid utf-8 (byte 0xff)" in err
    assert not (tmp_path / "o").exists()


def test_latin1_cookie_is_decoded_and_translated(tmp_path, capsys):
    k = kernel(tmp_path, b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + VA.read_bytes(), "kernel.py")
    rc, err = ctrs(capsys, "translate", k, "-o", tmp_path / "o")
    assert rc == 0, err
    plain = translate.translate(VA, tmp_path / "plain")[0].read_text()
    assert "fn vector_add" in plain
    assert (tmp_path / "o" / "kernel.rs").read_text().split("\n", 2)[2] == plain.split("\n", 2)[2]


@pytest.mark.parametrize(("data", "msg"), [
    (VA_TEXT.encode("utf-16"), "file is UTF-16 LE (byte-order mark)"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00", "binary file (NUL byte)"),
    (b"# coding: bogus\n" + VA.read_bytes(), "bad source encoding declaration: unknown encoding: bogus"),
], ids=["utf16", "binary", "unknown-cookie"])
def test_undecodable_files(tmp_path, capsys, data, msg):
    k = kernel(tmp_path, data)
    err = one_error(capsys, "translate", k, "-o", tmp_path / "o")
    assert f"error[{errors.INPUT_ENCODING}]: {msg}" in err and err.startswith(str(k))


def test_fifo_is_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "k.py"
    os.mkfifo(fifo)

    def hang(*_):
        raise TimeoutError("ctrs blocked on a FIFO")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(20)
    try:
        err = one_error(capsys, "translate", fifo, "-o", tmp_path / "o")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert err == f"{fifo}: error[{errors.INPUT_NOT_REGULAR}]: kernel file is a FIFO; only regular files are read " \
                  "(hint: pass the path of a kernel file)"


def test_translate_dir_skips_fifos_and_reports_oversized_files(tmp_path, capsys):
    d = tmp_path / "src"
    d.mkdir()
    os.mkfifo(d / "pipe.py")
    (d / "va.py").write_text(VA_TEXT)
    (d / "zz_big.py").write_text(VA_TEXT + "#\n" * 200_000)
    rows = translate.translate_dir(d, tmp_path / "o")
    assert [(r["file"], r["status"], r["code"]) for r in rows] == [("va.py", "ok", ""),
                                                                    ("zz_big.py", "error", errors.INPUT_TOO_LARGE)]


# ---------------------------------------------------------------------------------------------- limits


def _with_body(line: str) -> str:
    return VA_TEXT.replace("    ct.store(z, index=(pid,), tile=lhs + rhs)", f"    {line}\n    ct.store(z, index=(pid,), tile=s)")


@pytest.mark.parametrize(("expr", "where", "msg"), [
    (" + ".join(["lhs"] * 3000), "", "source nested too deeply for Python's own parser"),
    (" + ".join(["lhs"] * 300), ":13:", "nesting deeper than 64 levels"),
    ("lhs" + "[0]" * 100, ":13:", "nesting deeper than 64 levels"),
], ids=["3000-terms", "300-terms", "100-subscripts"])
def test_deep_expressions_are_refused_before_parsing(tmp_path, capsys, expr, where, msg):
    k = kernel(tmp_path, _with_body(f"s = {expr}"))
    err = one_error(capsys, "translate", k, "-o", tmp_path / "o")
    assert err.startswith(f"{k}{where}") and f": error[{errors.INPUT_TOO_DEEP}]: {msg} (hint: " in err, err
    if not where:
        assert err.startswith(f"{k}: error")  # CPython's parser gives up without a position: a file-level error


def test_5000_nested_parentheses_no_segfault(tmp_path):
    k = kernel(tmp_path, _with_body("s = " + "(" * 5000 + "lhs" + ")" * 5000))
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "translate", str(k), "-o", str(tmp_path / "o")],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 3, res.stderr
    assert f"{k}:13:" in res.stderr and "error[CTRS-E106]: too many nested parentheses" in res.stderr


def test_nesting_at_the_limit_translates(tmp_path):
    body = "s = " + " + ".join(["lhs"] * 50)  # 50 levels: below MAX_DEPTH (64)
    rs = translate.translate(kernel(tmp_path, _with_body(body)), tmp_path / "o")[0].read_text()
    assert rs.count("lhs") >= 50


def test_size_and_kernel_count_limits(tmp_path, capsys):
    big = kernel(tmp_path, VA_TEXT + "\n" + "# padding\n" * 30000, "big.py")
    err = one_error(capsys, "translate", big, "-o", tmp_path / "o")
    assert f"{big}: error[{errors.INPUT_TOO_LARGE}]: kernel file is" in err and "over the 262144-byte limit" in err
    head, fn = VA_TEXT.split("\n@ct.kernel\n")
    many = head + "".join(f"\n@ct.kernel\n{fn.replace('def vector_add(', f'def vector_add_{i}(')}" for i in range(129))
    k = kernel(tmp_path, many, "many.py")
    err = one_error(capsys, "translate", k, "-o", tmp_path / "o")
    assert f"error[{errors.INPUT_TOO_LARGE}]: more than 128 decorated functions in one file" in err


# ---------------------------------------------------------------------------------------------- call signatures


@pytest.mark.parametrize(("old", "new", "msg"), [
    ("ct.store(z, index=(pid,), tile=lhs + rhs)", "ct.store(z, tile=lhs + rhs)",
     "13:5: error[CTRS-E107]: store(): missing a required argument: 'index'"),
    ("ct.load(y, index=(pid,), shape=(TILE,))", "ct.load(y, index=(pid,))",
     "12:11: error[CTRS-E107]: load(): missing a required argument: 'shape'"),
    ("ct.load(y, index=(pid,), shape=(TILE,))", "ct.load(y, index=(pid,), shape=(TILE,), pading_mode=0)",
     "12:11: error[CTRS-E107]: load(): got an unexpected keyword argument 'pading_mode'"),
    ("ct.bid(0)", "ct.bid(0, 1)", "10:11: error[CTRS-E107]: bid(): too many positional arguments"),
], ids=["store-no-index", "load-no-shape", "load-unknown-kw", "bid-arity"])
def test_cutile_call_signatures(tmp_path, capsys, old, new, msg):
    k = kernel(tmp_path, VA_TEXT.replace(old, new))
    err = one_error(capsys, "translate", k, "-o", tmp_path / "o")
    assert err.startswith(f"{k}:{msg} (hint: cuTile Python signature: ")


@pytest.mark.parametrize(("old", "new", "msg"), [
    ("tl.zeros((TM, TN), dtype=tl.float32)", "tl.zeros((TM, TN))",
     "error[CTRS-E107]: zeros() missing 1 required positional argument: 'dtype'"),
    ("tl.dot(a, b)", "tl.dot(a)", "error[CTRS-E107]: dot() missing 1 required positional argument: 'other'"),
], ids=["zeros-no-dtype", "dot-no-other"])
def test_triton_call_signatures(tmp_path, capsys, old, new, msg):
    src = (FIXTURES / "triton_matmul" / "kernel.py").read_text()
    assert old in src
    k = kernel(tmp_path, src.replace(old, new))
    err = one_error(capsys, "translate", k, "-o", tmp_path / "o")
    assert msg in err and err.startswith(f"{k}:")
    rc, _ = ctrs(capsys, "translate", "--dry-run", k)  # the subset checker lists it too
    assert rc == 1


# ---------------------------------------------------------------------------------------------- names and outputs


def test_non_utf8_file_name(tmp_path):
    k = tmp_path / "k\udcff.py"
    k.write_text(VA_TEXT)
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "translate", os.fsencode(k)], capture_output=True,
                         timeout=120)
    assert res.returncode == 3, res.stderr
    assert res.stderr.endswith(b"k\xff.py: error[CTRS-E108]: kernel file name is not valid UTF-8; it cannot be named "
                               b"in the generated files (hint: rename the file (e.g. with convmv))\n")


def test_output_parent_not_writable(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    err = one_error(capsys, "translate", VA, "-o", tmp_path / "file" / "o")
    assert err.startswith(f"{tmp_path / 'file' / 'o'}: error[{errors.OUTPUT_WRITE}]: cannot write the output: ")


def test_user_files_are_never_overwritten(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / "Cargo.toml").write_text("[package]\nname = 'mine'\n")
    (out / "lib.rs").write_text("// mine\n")
    err = one_error(capsys, "translate", VA, "-o", out)
    assert err == (f"{out / 'lib.rs'}: error[{errors.OUTPUT_NOT_GENERATED}]: exists and was not generated by ctrs "
                   "(no valid @generated checksum); not overwriting it (also Cargo.toml); nothing was written "
                   "(hint: move it away, choose another -o directory, or pass --force to replace it)")
    assert sorted(p.name for p in out.iterdir()) == ["Cargo.toml", "lib.rs"]
    assert (out / "lib.rs").read_text() == "// mine\n"
    rc, err = ctrs(capsys, "translate", VA, "-o", out, "--force")
    assert rc == 0, err
    assert regen.verify_header("lib.rs", (out / "lib.rs").read_bytes()) is True


def test_rerun_replaces_own_files_but_not_hand_edits(tmp_path, capsys):
    out = tmp_path / "o"
    files = translate.translate(VA, out)
    assert all(regen.verify_header(f.name, f.read_bytes()) in (True, None) for f in files)
    (out / "notes.txt").write_text("mine")
    assert translate.translate(VA, out) == files  # its own files: replaced (identical)
    ffi = out / "ffi.rs"
    ffi.write_text(ffi.read_text() + "// hand edit\n")
    err = one_error(capsys, "translate", VA, "-o", out)
    assert f"{ffi}: error[{errors.OUTPUT_NOT_GENERATED}]" in err
    assert ffi.read_text().endswith("// hand edit\n") and (out / "notes.txt").read_text() == "mine"


def test_cargo_lock_counts_as_generated_only_beside_a_generated_cargo_toml(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / "Cargo.lock").write_text("# mine\n")
    err = one_error(capsys, "translate", VA, "-o", out)
    assert f"{out / 'Cargo.lock'}: error[{errors.OUTPUT_NOT_GENERATED}]" in err
    translate.translate(VA, out, force=True)
    (out / "Cargo.lock").write_text("# changed by cargo\n")
    translate.translate(VA, out)  # Cargo.toml is ctrs's: its lock file may be regenerated
    assert (out / "Cargo.lock").read_text() != "# changed by cargo\n"


def test_directory_in_the_way_leaves_no_partial_write(tmp_path, capsys):
    out = tmp_path / "o"
    (out / "wrapper.py").mkdir(parents=True)
    for argv in (["translate", VA, "-o", out], ["translate", VA, "-o", out, "--force"]):
        err = one_error(capsys, *argv)
        assert err == (f"{out / 'wrapper.py'}: error[{errors.OUTPUT_BLOCKED}]: output file path is a directory; "
                       "nothing was written (hint: move it away or choose another -o directory)")
        assert [p.name for p in out.iterdir()] == ["wrapper.py"]
    assert not list(tmp_path.glob(".o.ctrs-*"))  # no staging directory left behind


# ---------------------------------------------------------------------------------------------- specs


def _spec(**arr) -> str:
    x = {"dtype": "float32", "shape": [1024], **arr}
    return json.dumps({"name": "s", "kernel": "vector_add", "args": {"x": x, "y": {"dtype": "float32", "shape": [1024]},
                                                                   "z": {"dtype": "float32", "shape": [1024]}, "TILE": 256}})


@pytest.mark.parametrize(("text", "msg"), [
    ('{"kernel": "k", "args": []}', "$.args: [] is not of type 'object'"),
    (_spec(shape=5), "$.args.x.shape: 5 is not of type 'array'"),
    (_spec(shape=[-4]), "$.args.x.shape[0]: -4 is less than the minimum of 0"),
    (_spec(shape=[2**40]), "$.args.x.shape[0]: 1099511627776 is greater than the maximum of 2147483647"),
    (_spec(shape=[2**63], index_dtype="int64"), "$.args.x.shape[0]: 9223372036854775808 is greater than the maximum of 9223372036854775807"),
    (_spec(shape=[2.5]), "$.args.x.shape[0]: 2.5 is not of type 'integer'"),
    (_spec(strides=[-1]), "$.args.x.strides[0]: -1 is less than the minimum of 0"),
    (_spec(strides=["1"]), "$.args.x.strides[0]: '1' is not of type 'integer'"),
    (_spec(strides=[1, 1]), "$.args.x.strides: 1 dims but 2 strides"),
    (_spec(align=0), "$.args.x.align: 0 is less than the minimum of 1"),
    (_spec(align=3), "$.args.x.align: 3 is not a power of two >= the float32 element size (4 bytes)"),
    (_spec(index_dtype="int16"), "$.args.x.index_dtype: 'int16' is not one of ['int32', 'int64']"),
    (_spec(dtype="float99"), "$.args.x.dtype: 'float99' is not one of"),
    (_spec(shape=[65536, 65536]), "$.args.x: largest element offset 4294967295 does not fit the index dtype int32"),
    (_spec(shape=[1], bogus=1), "$.args.x: Additional properties are not allowed ('bogus' was unexpected)"),
    (_spec().replace("1024", "NaN", 1), "not valid JSON: NaN is not a number a specialisation can use"),
    (_spec().replace("1024", "Infinity", 1), "not valid JSON: Infinity is not a number a specialisation can use"),
    (_spec().replace("1024", "1e999", 1), "not valid JSON: number 1e999 is not finite"),
    ('{"spec": {"kernel": "k", "args": {"n": {"scalar": "int8", "value": 300}}}}', "$.spec.args.n.value: 300 is out of range for int8"),
], ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None)
def test_specs_are_validated_with_json_paths(tmp_path, text, msg):
    p = tmp_path / "specs.json"
    p.write_text(text)
    with pytest.raises(errors.CtrsError) as e:
        specmod.load_specs(str(p))
    assert e.value.code == errors.SPEC_INVALID and e.value.loc == errors.Loc(str(p))
    assert e.value.message.startswith(msg), e.value.message


def test_an_empty_array_is_a_valid_spec_argument(tmp_path):
    """A 0 extent (``torch.empty(0)``: host code's placeholder for an absent optional tensor) is an array."""
    p = tmp_path / "specs.json"
    p.write_text(_spec(shape=[0]))
    (s,) = specmod.load_specs(str(p))
    assert s.args["x"].shape == (0,) and s.args["x"].strides == (1,)


def test_every_fixture_spec_is_valid():
    n = sum(len(specmod.load_specs(str(p))) for p in sorted(FIXTURES.glob("*/specs.json")))
    assert n >= 60


@pytest.mark.parametrize("what", ["directory", "invalid-utf8", "fifo"])
def test_unreadable_spec_files(tmp_path, what):
    p = tmp_path / "s.json"
    if what == "directory":
        p.mkdir()
    elif what == "fifo":
        os.mkfifo(p)
    else:
        p.write_bytes(b'{"kernel": "\xff"}')
    with pytest.raises(errors.CtrsError) as e:
        specmod.load_specs(str(p))
    assert e.value.code == errors.SPEC_INVALID and e.value.loc == errors.Loc(str(p))


def test_spec_kernel_and_entry_must_exist(tmp_path):
    fks = render_host.ffi_kernels(translate.translate_module(VA))
    good = specmod.load_specs(str(FIXTURES / "vector_add" / "specs.json"))
    check.check_known([(s, "specs.json") for s in good], fks, VA)
    for field, value, msg in (("kernel", "vector_ad", "$.kernel: unknown kernel 'vector_ad' (kernels of kernel.py: vector_add)"),
                              ("rust", {"entry": "nope"}, "$.rust.entry: unknown Rust entry 'nope'")):
        doc = {**json.loads(_spec()), field: value}
        p = tmp_path / f"{field}.json"
        p.write_text(json.dumps(doc))
        with pytest.raises(errors.CtrsError) as e:
            check.check_known([(s, "--spec") for s in specmod.load_specs(str(p))], fks, VA)
        assert e.value.code == errors.SPEC_INVALID and e.value.message.startswith(msg) and e.value.loc.file == str(p)


# ---------------------------------------------------------------------------------------------- diff-ir


def _pair(name: str = "vector_add.f16_n1000") -> tuple[str, str]:
    return (IR / f"{name}.ref.mlir").read_text(), (IR / f"{name}.rs.mlir").read_text()


def test_stored_ir_pairs_are_equivalent():
    for ref in sorted(IR.glob("*.ref.mlir")):
        rep = irdiff.diff(ref.read_text(), ref.with_name(ref.name.replace(".ref.", ".rs.")).read_text())
        assert rep.verdict() == "EQUIVALENT", rep.render()


@pytest.mark.parametrize(("pair", "old", "new", "verdict", "code"), [
    ("vector_add.f16_n1000", "assume div_by<16>, %arg0 :", "assume div_by<1>, %arg0 :", "WARNINGS", "IRD-ASSUME-PTR"),
    ("matmul.f16_256x128x192", "assume div_by<16>, %assume :", "assume div_by<4>, %assume :", "WARNINGS", "IRD-ASSUME-DIV"),
    ("vector_add.f16_n1000", "assume bounded<0, ?>, %arg1 :", "assume bounded<1, ?>, %arg1 :", "CRITICAL", "IRD-ASSUME-BOUNDS"),
    ("vector_add.f16_n1000", "assume bounded<0, ?>, %blockId_x :", "assume bounded<0, 7>, %blockId_x :", "CRITICAL",
     "IRD-ASSUME-BOUNDS"),
], ids=["ptr-div", "shape-div", "arg-bounds", "value-bounds"])
def test_assume_facts_are_findings(pair, old, new, verdict, code):
    ref, gen = _pair(pair)
    assert old in gen
    rep = irdiff.diff(ref, gen.replace(old, new, 1))
    assert rep.verdict() == verdict
    f = next(f for f in rep.findings if f.code == code)
    assert f.severity == verdict.rstrip("S").lower()
    assert f"[{f.severity.upper():8}] {code} assume:" in rep.render()
    if verdict == "WARNINGS":
        assert "performance:" in f.message


@pytest.mark.parametrize(("old", "new", "msg"), [
    ("%1 = addf %tile, %tile_10", "%1 = addf %tile, %nope", "use of undefined value %nope in 'addf'"),
    ("%1 = addf %tile, %tile_10  : tile<256xf16>", "%1 = addf %tile, %tile_10  : tile<256xf32>",
     "type mismatch in 'addf': operand %tile is tile<256xf16>, the op is tile<256xf32>"),
], ids=["undefined", "type-mismatch"])
def test_ill_formed_ir_is_a_parse_error(old, new, msg):
    ref, _ = _pair()
    assert old in ref
    with pytest.raises(errors.CtrsError) as e:
        irparse.parse(ref.replace(old, new, 1), "bad.mlir")
    assert e.value.code == errors.IR_PARSE and e.value.message == msg and e.value.loc.line == 20


def test_deeply_nested_type_has_no_recursion_limit():
    ref, _ = _pair()
    deep = "tile<" * 3000 + "i1" + ">" * 3000
    text = ref.replace("make_token : token", f"make_token : {deep}", 1)
    assert irdiff.diff(text, text).verdict() == "EQUIVALENT"


def test_ir_inputs_must_be_regular_files(tmp_path, capsys):
    os.mkfifo(tmp_path / "p.mlir")
    err = one_error(capsys, "diff-ir", tmp_path / "p.mlir", IR / "vector_add.f16_n1000.rs.mlir")
    assert err.startswith(f"{tmp_path / 'p.mlir'}: error[{errors.IR_INPUT}]: Tile IR file is a FIFO")
    err = one_error(capsys, "diff-ir", tmp_path, IR / "vector_add.f16_n1000.rs.mlir")
    assert f"error[{errors.IR_INPUT}]: Tile IR file is a directory" in err


def test_syntax_warning_does_not_add_a_line(tmp_path, capsys):
    k = kernel(tmp_path, VA_TEXT.replace("ct.store(z, index=", "ct.store(-1index="))
    err = one_error(capsys, "translate", k, "-o", tmp_path / "o")
    assert err.startswith(f"{k}:13:") and "error[CTRS-E102]: not valid Python: invalid syntax" in err


def _visits(tmp_path, monkeypatch, terms: int) -> int:
    """libcst node visits to translate a Triton kernel whose ``pid`` is a chain of ``terms`` program ids."""
    import libcst as cst

    count = [0]
    visit = cst.CSTNode.visit

    def counted(self, visitor):
        count[0] += 1
        return visit(self, visitor)

    monkeypatch.setattr(cst.CSTNode, "visit", counted)
    src = (FIXTURES / "triton_autotune_add" / "kernel.py").read_text()
    chain = " + ".join(["(tl.program_id(0))"] * terms)
    translate.translate_source(kernel(tmp_path, src.replace("    pid = tl.program_id(0)", f"    pid = {chain}"),
                                      f"t{terms}.py"))
    return count[0]


def test_triton_operator_chains_cost_linear_work(tmp_path, monkeypatch):
    """Each link of an operator chain is classified once per pass; it was re-walked at every level (cubic: a
    30-term chain of tl.program_id took 18 s, found by benchmarks/fuzz.py). Doubling the chain must not
    double the total work (measured in libcst node visits, not seconds): 42k -> 212k visits before."""
    v10, v20 = _visits(tmp_path, monkeypatch, 10), _visits(tmp_path, monkeypatch, 20)
    assert v20 < 2 * v10, (v10, v20)
