"""The H200 TileGym benchmark's report step (benchmarks/h200_tilegym.py) on a recorded host report."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import h200_tilegym  # noqa: E402


def _report() -> dict:
    def check(port, spec, ok=True, bitwise=True):
        return {"port": port, "spec": spec, "ok": ok, "bitwise": bitwise, "max_abs_err": 0.0, "detail": ""}

    def timing(port, spec, ref, mine):
        return {"port": port, "spec": spec, "ref_median_us": ref, "port_median_us": mine, "ratio": ref / mine}

    return {"device": "NVIDIA H200",
            "checks": [check("_ctrs_softmax__softmax_kernel", "sm_a"), check("_ctrs_softmax__softmax_kernel", "sm_a@3x5"),
                       check("_ctrs_softmax__softmax_kernel", "sm_a@1x1", ok=False),
                       check("_ctrs_matmul__matmul_kernel", "mm_a", bitwise=False)],
            "timings": [timing("_ctrs_softmax__softmax_kernel", "sm_a", 10.0, 8.0),
                        timing("_ctrs_matmul__matmul_kernel", "mm_a", 100.0, 125.0)],
            "overhead_us": {"_ctrs_matmul__matmul_kernel": {"ct.launch": 15.0, "port wrapper": 12.5, "calls": 1000}}}


def test_rows_and_summary_line():
    rows = h200_tilegym.rows_of(_report())
    assert [(r["operator"], r["kernel"], r["config"], r["numerics"], r["fuzz"]) for r in rows] == [
        ("matmul", "matmul_kernel", "mm_a", "pass", "0/0"),
        ("softmax", "softmax_kernel", "sm_a", "pass (bitwise)", "1/2")]
    assert rows[0]["launch_port_us"] == 12.5 and rows[1]["launch_port_us"] is None
    # geomean of 1.25 and 0.8 is 1.0; the worst operator is matmul at 0.8
    assert h200_tilegym.summary(rows) == "geomean 1.000 over 2 configs of 2 operators, min 0.800 (matmul)"


def test_report_files(tmp_path):
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "gpu_report.json").write_text(json.dumps(_report()))
    assert h200_tilegym.main(["report", str(tmp_path / "host"), "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "h200-tilegym-1.5.1.md").read_text()
    assert md.splitlines()[2] == "geomean 1.000 over 2 configs of 2 operators, min 0.800 (matmul)"
    assert "| softmax | softmax_kernel | sm_a | pass (bitwise) | 1/2 | 10.00 | 8.00 | 1.250 | - | - |" in md
    data = json.loads((tmp_path / "out" / "h200-tilegym-1.5.1.json").read_text())
    assert data["summary"].startswith("geomean 1.000") and len(data["rows"]) == 2
    assert (tmp_path / "out" / "h200-tilegym-1.5.1.png").stat().st_size > 1000


def test_benchmark_sizes_and_numerics_only_checks(tmp_path, monkeypatch):
    """A timed spec named in the captured benchmark sizes is a 'benchmark' row with its own geomean; test shapes
    (``@test``) and drawn shapes (``@<sizes>``) are counted per port, failures named."""
    shapes = tmp_path / "h200"
    shapes.mkdir()
    (shapes / "softmax.json").write_text(json.dumps({"bench": [{"call": "c", "specs": [{"name": "sm_big"}]}],
                                                     "tests": [], "fuzz": [], "rejected": []}))
    monkeypatch.setattr(h200_tilegym, "SHAPES", shapes)
    rep = _report()
    port = "_ctrs_softmax__softmax_kernel"
    rep["timings"].append({"port": port, "spec": "sm_big", "ref_median_us": 30.0, "port_median_us": 20.0, "ratio": 1.5})
    rep["checks"] += [{"port": port, "spec": "sm_t1@test", "ok": True, "bitwise": True, "detail": ""},
                      {"port": port, "spec": "sm_t2@test", "ok": False, "bitwise": False, "detail": "y: max abs err 1"}]
    rows = h200_tilegym.rows_of(rep)
    assert [(r["config"], r["sizes"]) for r in rows] == [("mm_a", "proven"), ("sm_a", "proven"), ("sm_big", "benchmark")]
    assert h200_tilegym.summary(rows) == (
        "geomean 1.145 over 3 configs of 2 operators, min 0.800 (matmul); "
        "proven: geomean 1.000 over 2 configs of 2 operators, min 0.800 (matmul); "
        "benchmark: geomean 1.500 over 1 configs of 1 operators, min 1.500 (softmax)")
    (num,) = h200_tilegym.numerics_rows(rep)
    assert (num["tests"], num["drawn"], num["test_shapes"]) == ([1, 1, 2], [1, 2, 2], ["sm_t1", "sm_t2"])
    assert num["failed"] == ["sm_a@1x1: ", "sm_t2@test: y: max abs err 1"]
    md = h200_tilegym.render_md(rep, rows)
    assert "| softmax | softmax_kernel | sm_big (TileGym benchmark size) |" in md
    assert "| softmax | softmax_kernel | 1/1/2 | 1/2/2 | 0 | sm_a@1x1: ; sm_t2@test: y: max abs err 1 |" in md


def test_committed_shape_specs_are_valid_specs():
    """Every captured test / benchmark / drawn spec loads through the spec schema as the host will load it."""
    from ctrs import spec as specmod  # noqa: PLC0415

    files = sorted(h200_tilegym.SHAPES.rglob("*.json"))
    assert files
    for f in files:
        d = json.loads(f.read_text())
        specs = [s for x in d["tests"] + d["bench"] for s in x["specs"]] + [x["spec"] for x in d["fuzz"]]
        loaded = specmod.load_specs(json.dumps(specs))
        assert [s.name for s in loaded] == [s["name"] for s in specs]
        for x in d["fuzz"]:  # a drawn spec names the committed spec of its host call, then its sizes
            assert "@" in x["spec"]["name"] and x["spec"]["name"].split("@")[0][:100] == x["base"][:100]
        rel = str(f.relative_to(h200_tilegym.SHAPES).with_suffix(".py"))
        for kernel in sorted({s["kernel"] for s in specs}):  # what bundle hands the host, renamed as it is
            bench, numerics = h200_tilegym.shape_specs(rel, kernel, [])
            assert len(specmod.load_specs(json.dumps(bench + numerics))) == len(bench) + len(numerics)


def test_fit_name_keeps_names_within_the_schema_limit():
    assert h200_tilegym.fit_name("k__f16_4x8", "@test") == "k__f16_4x8@test"
    long = "k" * 198
    a, b = h200_tilegym.fit_name(long, "@12x7"), h200_tilegym.fit_name(long[:-1] + "j", "@12x7")
    assert len(a) == 200 and a.endswith("@12x7") and a != b


def test_drawn_shapes_are_reproducible():
    """The committed drawn shapes of relu.py are what the seeded draw and the host code give now (needs CPU torch
    and the TileGym wheel in the ctrs cache)."""
    pytest.importorskip("torch")
    from ctrs import toolchain  # noqa: PLC0415

    cache = toolchain.cache_root() / "corpus" / h200_tilegym.corpus.CORPUS
    if not (cache / h200_tilegym.corpus.WHEEL).exists():
        pytest.skip("TileGym wheel not in the ctrs cache (benchmarks/corpus.py fetches it)")
    src = h200_tilegym.corpus.fetch(cache)
    got = h200_tilegym.shapes_of(src, "activation/relu.py", h200_tilegym.FUZZ_PER_CALL, log=lambda *_: None)
    want = json.loads((h200_tilegym.SHAPES / "activation" / "relu.json").read_text())
    assert json.loads(json.dumps(got)) == want
    grids = {x["spec"]["name"]: x["spec"]["grid"] for x in want["fuzz"]}
    for x in want["fuzz"]:  # relu's host code: a flat cdiv(n_elements, BLOCK_SIZE) grid
        a = x["spec"]["args"]
        assert grids[x["spec"]["name"]] == [str(-(-a["N_ELEMENTS"] // a["BLOCK_SIZE"])), "1", "1"]


def test_calls_merge_per_spec(tmp_path):
    """Calls merge per (port, spec): a spec measured again (a rebuilt port) keeps only the later call's rows; a
    later call that measured other specs of a port (``gpu host --phases``: benchmark sizes after proven specs)
    keeps the earlier call's rows of that port; the launch overhead is the last call's that measured the port."""
    first, again = _report(), _report()
    again["checks"] = [c for c in again["checks"] if c["port"].startswith("_ctrs_matmul")]
    again["timings"] = [dict(t, port_median_us=95.0, ratio=100.0 / 95.0) for t in again["timings"]
                        if t["port"].startswith("_ctrs_matmul")]
    again["timings"].append({"port": "_ctrs_softmax__softmax_kernel", "spec": "sm_big", "ref_median_us": 30.0,
                             "port_median_us": 20.0, "ratio": 1.5})
    again["overhead_us"] = {"_ctrs_matmul__matmul_kernel": {"ct.launch": 14.0, "port wrapper": 9.0}}
    for name, r in (("a", first), ("b", again)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "gpu_report.json").write_text(json.dumps(r))
    rep = h200_tilegym.merged([str(tmp_path / "a"), str(tmp_path / "b")])
    assert [(t["port"], t["spec"], t["port_median_us"]) for t in rep["timings"]] == [
        ("_ctrs_softmax__softmax_kernel", "sm_a", 8.0), ("_ctrs_matmul__matmul_kernel", "mm_a", 95.0),
        ("_ctrs_softmax__softmax_kernel", "sm_big", 20.0)]
    assert len(rep["checks"]) == len(first["checks"])  # matmul's checks replaced, softmax's kept
    assert rep["overhead_us"] == {"_ctrs_matmul__matmul_kernel": {"ct.launch": 14.0, "port wrapper": 9.0}}


def test_report_keep_takes_earlier_rows_of_kernels_not_measured_again(tmp_path):
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "gpu_report.json").write_text(json.dumps(_report()))
    prev = tmp_path / "prev.json"
    old_row = {**h200_tilegym.rows_of(_report())[1], "operator": "relu", "kernel": "relu_kernel", "config": "r_a", "ratio": 1.0}
    stale = {**old_row, "operator": "matmul", "kernel": "matmul_kernel", "config": "mm_old", "ratio": 0.5}
    prev.write_text(json.dumps({"rows": [old_row, stale], "numerics": []}))
    assert h200_tilegym.main(["report", str(tmp_path / "host"), "--out", str(tmp_path / "out"),
                              "--keep", str(prev)]) == 0
    data = json.loads((tmp_path / "out" / "h200-tilegym-1.5.1.json").read_text())
    assert [r["config"] for r in data["rows"]] == ["r_a", "mm_a", "sm_a"]  # matmul measured again: mm_old dropped
    assert data["summary"].startswith("geomean 1.000 over 3 configs of 3 operators")


def test_keep_configs_and_launch_table(tmp_path):
    """``--keep --keep-configs``: a re-measured kernel keeps its earlier configs the new calls did not reach, with
    the new launch figures; ``--launch``: a bench_launch.py table sets a port's launch figures; the launch summary
    counts ports, not rows."""
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "gpu_report.json").write_text(json.dumps(_report()))
    old = {"rows": [{"operator": "matmul", "kernel": "matmul_kernel", "config": "mm_big", "ratio": 1.0, "ref_us": 5.0,
                     "port_us": 5.0, "numerics": "pass", "fuzz": "0/0", "launch_ct_us": 30.0, "launch_port_us": 40.0,
                     "sizes": "proven"},
                    {"operator": "matmul", "kernel": "matmul_kernel", "config": "mm_a", "ratio": 0.5, "ref_us": 5.0,
                     "port_us": 10.0, "numerics": "pass", "fuzz": "0/0", "sizes": "proven"}],
           "numerics": []}
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "launch.txt").write_text(
        "| port | spec | reference launcher | wrapper | wrapper, CTRS_FFI_FAST=0 | wrapper, CTRS_FFI_XC=0 | Python side "
        "| C side | Python side, CTRS_FFI_XC=0 | wrapper / reference |\n|---|---|---|---|---|---|---|---|---|---|\n"
        "| _ctrs_softmax__softmax_kernel | sm_a | 14.00 | 7.00 | 11.00 | 10.00 | 1.00 | 6.00 | 3.00 | 0.500 |\n")
    out = tmp_path / "out"
    assert h200_tilegym.main(["report", str(tmp_path / "host"), "--out", str(out), "--keep", str(tmp_path / "old.json"),
                              "--keep-configs", "--launch", str(tmp_path / "launch.txt")]) == 0
    rows = json.loads((out / "h200-tilegym-1.5.1.json").read_text())["rows"]
    got = {(r["kernel"], r["config"]): (r["ratio"], r["launch_ct_us"], r["launch_port_us"]) for r in rows}
    assert got == {("matmul_kernel", "mm_big"): (1.0, 15.0, 12.5),  # kept, with the new launch figures
                   ("matmul_kernel", "mm_a"): (0.8, 15.0, 12.5),  # measured again: the new row only
                   ("softmax_kernel", "sm_a"): (1.25, 14.0, 7.0)}  # launch figures from the table
    md = (out / "h200-tilegym-1.5.1.md").read_text()
    assert md.splitlines()[4] == ("launch overhead: wrapper <= reference launcher on 2 of 2 ports, geomean wrapper / "
                                  "launcher 0.645, max 0.833 (matmul_kernel: 12.50 vs 15.00 µs)")
    # without --keep-configs the re-measured kernel's earlier rows go
    assert h200_tilegym.main(["report", str(tmp_path / "host"), "--out", str(out), "--keep", str(tmp_path / "old.json")]) == 0
    assert len(json.loads((out / "h200-tilegym-1.5.1.json").read_text())["rows"]) == 2


TRITON_KERNELS = {"_seeded_dropout", "_persistent_layer_norm_fwd", "_layer_norm_fwd_fused", "_rms_norm_kernel",
                  "_rms_norm_kernel_static_persistent", "_triton_rope_kernel_tma", "_rope_kernel"}


def test_proven_takes_triton_kernels_with_committed_specs_beside_the_cutile_ones():
    """The tilegym corpus: every cuTile kernel with EQUIVALENT specs, then every Triton kernel translated by rules
    with committed specs (benchmarks/corpus_specs_tilegym_triton.py: >= 2 each, all of them taken -- no reference
    Tile IR, the H200 compares the port with the @triton.jit original); port names are distinct, a Triton port's
    operator is its file stem."""
    data = json.loads((ROOT / "benchmarks" / "results" / "corpus-tilegym-1.5.1.json").read_text())
    got = h200_tilegym.proven(data)
    cutile = [(k, n) for k, n in got if k["front"] == "cutile"]
    triton = [(k, n) for k, n in got if k["front"] == "triton"]
    assert cutile == h200_tilegym._proven_cutile(data) and got == cutile + triton
    assert {k["name"] for k, _ in triton} == TRITON_KERNELS
    for k, names in triton:
        kern = h200_tilegym.corpus.Kernel(k["front"], k["file"], k["name"], k["line"], k["family"])
        assert len(names) >= 2 and names == [s["name"] for s in h200_tilegym.corpus.committed_specs(kern)]
    ports = [h200_tilegym.port_name(k) for k, _ in got]
    assert len(set(ports)) == len(ports)
    both = [h200_tilegym.port_name(k) for k, _ in got if k["name"] == "_rms_norm_kernel_static_persistent"]
    assert both == ["_ctrs_rms_norm___rms_norm_kernel_static_persistent",
                    "_ctrs_triton_rms_norm___rms_norm_kernel_static_persistent"]
    assert [h200_tilegym.operator(p) for p in both] == ["rms_norm", "rms_norm"]
    assert [h200_tilegym.front(p) for p in both] == ["cutile", "triton"]


def test_committed_triton_specs_name_every_argument_of_the_launch():
    """Each committed Triton spec of the tilegym corpus loads with the spec schema and gives every parameter the
    Triton launch map reads (arrays, scalars, constexprs without a signature default)."""
    from ctrs import spec as specmod  # noqa: PLC0415

    files = sorted((ROOT / "benchmarks" / "corpus" / "tilegym-1.5.1" / "triton").glob("*.json"))
    assert {f.name for f in files} == {"dropout.json", "layer_norm_legacy.json", "rms_norm.json", "rope.json"}
    per: dict[str, int] = {}
    for f in files:
        for s in specmod.load_specs(str(f)):
            per[s.kernel] = per.get(s.kernel, 0) + 1
            assert s.grid_for()[0] >= 1
    assert set(per) == TRITON_KERNELS and min(per.values()) >= 2


def test_a_mixed_corpus_sums_triton_rows_apart():
    """In the tilegym corpus a Triton port's rows (ratio: Triton time / port time) stay out of the cuTile headline;
    they are summed up after it, per kernel, and marked in the table."""
    rep = _report()
    rep["checks"].append({"port": "_ctrs_triton_rms_norm___rms_norm_kernel", "spec": "f16_a", "ok": True,
                          "bitwise": False, "max_abs_err": 0.0, "detail": ""})
    rep["timings"].append({"port": "_ctrs_triton_rms_norm___rms_norm_kernel", "spec": "f16_a", "ref_median_us": 9.0,
                           "port_median_us": 10.0, "ratio": 0.9})
    rows = h200_tilegym.rows_of(rep)
    assert [(r["front"], r["operator"], r["kernel"]) for r in rows][-1] == ("triton", "rms_norm", "_rms_norm_kernel")
    assert h200_tilegym.summary(rows) == (
        "geomean 1.000 over 2 configs of 2 operators, min 0.800 (matmul); Triton ports vs their @triton.jit "
        "originals: geomean 0.900 over 1 configs of 1 kernels, min 0.900 (_rms_norm_kernel)")
    md = h200_tilegym.render_md(rep, rows, [])
    assert "| rms_norm (Triton) | _rms_norm_kernel | f16_a | pass | 0/0 | 9.00 | 10.00 | 0.900 |" in md


def test_a_triton_only_corpus_keeps_its_port_names(monkeypatch):
    """unsloth (Triton kernels only): ports stay ``_ctrs_<stem>__<kernel>`` (its committed results name them so)."""
    monkeypatch.setattr(h200_tilegym.corpus, "TREES", {"triton": "unsloth/kernels"})
    monkeypatch.setattr(h200_tilegym.corpus, "NAME", "unsloth")
    k = {"front": "triton", "file": "unsloth/kernels/swiglu.py", "name": "_fg_kernel"}
    assert h200_tilegym.port_name(k) == "_ctrs_swiglu___fg_kernel"
    assert (h200_tilegym.operator("_ctrs_swiglu___fg_kernel"), h200_tilegym.front("_ctrs_swiglu___fg_kernel")) == \
        ("swiglu", "triton")


def test_failed_checks_and_slow_configs_are_listed_with_their_notes(tmp_path, monkeypatch):
    """A failed proven / benchmark check has no timing row: it is listed under "Failed checks" (never dropped),
    as are failed drawn shapes, each with the committed note that covers it or UNEXPLAINED; slow Triton configs
    are listed apart from the cuTile ones, a note naming its front."""
    notes = [{"kernel": "matmul_kernel", "config": "mm_i64", "check": True, "finding": "no int64 entry.", "plan": "add one."},
             {"kernel": "matmul_kernel", "finding": "tokens.", "plan": "thread them."},
             {"kernel": "k_tri", "front": "triton", "finding": "occupancy.", "plan": "carry num_warps."}]
    monkeypatch.setattr(h200_tilegym, "explanations", lambda: notes)
    rep = _report()
    rep["checks"] += [{"port": "_ctrs_matmul__matmul_kernel", "spec": "mm_i64", "ok": False, "bitwise": False,
                       "detail": "NotImplementedError: no entry"},
                      {"port": "_ctrs_matmul__matmul_kernel", "spec": "mm_a@7x9", "ok": False, "bitwise": False,
                       "detail": "c: max abs err 3"}]
    rep["timings"].append({"port": "_ctrs_triton_x__k_tri", "spec": "t_a", "ref_median_us": 1.0,
                           "port_median_us": 2.0, "ratio": 0.5})
    assert [u["spec"] for u in h200_tilegym.untimed_failures(rep)] == ["mm_i64"]
    md = h200_tilegym.render_md(rep, h200_tilegym.rows_of(rep))
    assert "- matmul_kernel `mm_i64` (proven spec, not timed): NotImplementedError: no entry -- no int64 entry. " \
           "Plan: add one." in md
    assert "- matmul_kernel `mm_a@7x9` (drawn shape): c: max abs err 3 -- UNEXPLAINED: no finding recorded yet" in md
    cutile = md[md.index("## Configs below 0.95"):md.index("## Triton ports")]
    assert "- matmul_kernel `mm_a` 0.800: tokens. Plan: thread them." in cutile and "k_tri" not in cutile
    assert "- k_tri `t_a` 0.500: occupancy. Plan: carry num_warps." in md[md.index("## Triton ports"):]
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "gpu_report.json").write_text(json.dumps(rep))
    assert h200_tilegym.main(["report", str(tmp_path / "host"), "--out", str(tmp_path / "out")]) == 0
    data = json.loads((tmp_path / "out" / "h200-tilegym-1.5.1.json").read_text())
    assert [u["spec"] for u in data["untimed_failures"]] == ["mm_i64"]


def test_keep_configs_keeps_launch_figures_a_call_did_not_measure(tmp_path):
    """A call that timed a port with ``--overhead-calls 0`` leaves its launch figures as they were."""
    rep = _report()
    rep["overhead_us"] = {}
    (tmp_path / "host").mkdir()
    (tmp_path / "host" / "gpu_report.json").write_text(json.dumps(rep))
    old = {"rows": [{"operator": "matmul", "kernel": "matmul_kernel", "config": "mm_big", "ratio": 1.0, "ref_us": 5.0,
                     "port_us": 5.0, "numerics": "pass", "fuzz": "0/0", "launch_ct_us": 30.0, "launch_port_us": 20.0,
                     "sizes": "proven"}], "numerics": []}
    (tmp_path / "old.json").write_text(json.dumps(old))
    out = tmp_path / "out"
    assert h200_tilegym.main(["report", str(tmp_path / "host"), "--out", str(out), "--keep", str(tmp_path / "old.json"),
                              "--keep-configs"]) == 0
    rows = json.loads((out / "h200-tilegym-1.5.1.json").read_text())["rows"]
    assert {(r["config"], r["launch_port_us"]) for r in rows} == {("mm_big", 20.0), ("mm_a", 20.0), ("sm_a", None)}


def test_plan_splits_a_kit_that_does_not_fit_one_transfer(tmp_path, monkeypatch, capsys):
    """Kit + repository over the transfer limit: call 0 carries the kit's first part alone, call 1 the rest with the
    wheels and the ports; call 1's command joins the parts, checks the sha256 and unpacks the whole archive."""
    import lzma  # noqa: PLC0415
    import os  # noqa: PLC0415
    import re  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import tarfile  # noqa: PLC0415

    from ctrs.gpu import bundle  # noqa: PLC0415

    out = tmp_path / "b"
    (out / "kit" / "wheels").mkdir(parents=True)
    payload = tmp_path / "payload"
    payload.mkdir()
    (payload / "blob").write_bytes(os.urandom(3 * 2**20))  # incompressible: the archive stays ~3 MiB
    with lzma.open(out / "kit" / "kit.tar.xz", "wb") as xz, tarfile.open(fileobj=xz, mode="w") as tar:
        tar.add(payload / "blob", "bin/blob")
    (out / "kit" / "wheels" / "w-1-py3-none-any.whl").write_bytes(b"wheel")
    port = out / "ports" / "_ctrs_x__k"
    port.mkdir(parents=True)
    (port / "bundle.json").write_text("{}")
    monkeypatch.setattr(h200_tilegym, "TRANSFER", 2 * 2**20)
    monkeypatch.setattr(bundle, "tree_bytes", lambda root=None: 0)
    assert h200_tilegym.main(["plan", str(out)]) == 0
    text = capsys.readouterr().out
    part0 = (out / "kit-split" / "part0" / "kit.tar.xz.0").read_bytes()
    part1 = (out / "kit-split" / "part1" / "kit.tar.xz.1").read_bytes()
    assert len(part0) == 2**20 and part0 + part1 == (out / "kit" / "kit.tar.xz").read_bytes()
    assert "device call 0 (carry [" in text and "kit-split/part1" in text
    # the join of call 1, run here: the parts become the archive again and its sha256 checks
    host = tmp_path / "host"
    (host / "ctrs-kitparts").mkdir(parents=True)
    (host / "ctrs-kitparts" / "kit.tar.xz.0").write_bytes(part0)
    cmd1 = text.split("device call 1", 1)[1].split("\n", 2)[1]
    join = cmd1.split("; set -e;", 1)[0].replace("/tmp/ctrs-", f"{host}/ctrs-")
    assert re.search(r"sha256sum -c --quiet$", join)
    res = subprocess.run(["bash", "-c", join], cwd=h200_tilegym.ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert (host / "ctrs-kit.tar.xz").read_bytes() == (out / "kit" / "kit.tar.xz").read_bytes()


def test_hand_written_sizes_are_read_for_files_without_host_calls(tmp_path, monkeypatch):
    """A file whose host code needs CUDA takes its test shapes / benchmark sizes from benchmarks/tilegym_hand."""
    spec = {"name": "k__f32_8", "kernel": "k", "grid": [1, 1, 1],
            "args": {"x": {"dtype": "float32", "shape": [8], "strides": [1]}}}
    (tmp_path / "experimental__op.py").write_text(f"TESTS = [('test_op n=8', [{spec!r}])]\nBENCH = []\n")
    monkeypatch.setattr(h200_tilegym, "HAND_DIR", tmp_path)
    got = h200_tilegym.shapes_of(tmp_path, "experimental/op.py", 0, log=lambda *_: None)
    assert got["tests"] == [{"call": "hand: test_op n=8", "specs": [spec]}] and got["bench"] == []
    assert h200_tilegym.hand_sizes("other.py") is None
