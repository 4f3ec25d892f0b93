"""H200 benchmark of the proven TileGym operators (issue 14): ctrs ports against cuTile Python on one GPU.

Two steps around one GPU-host run (GPU time is scarce: one bundle, one run, every measurement):

    .venv/bin/python benchmarks/h200_tilegym.py bundle -o .gpu-tilegym     # here: translate, build, pack
    <the host command it prints>                                            # on the H200 (ctrs gpu_host)
    .venv/bin/python benchmarks/h200_tilegym.py report REPORT_DIR          # here: the results files

``bundle`` takes every TileGym cuTile kernel that the corpus benchmark proved (benchmarks/results/
corpus-tilegym-1.5.1.json: check rows EQUIVALENT), with exactly its EQUIVALENT specs (the committed specs
under benchmarks/corpus/tilegym-1.5.1/, made from TileGym's own host code and sizes), and runs ``ctrs bundle``
on the per-kernel variants the corpus benchmark translates (the TileGym file in the ctrs cache, its other
kernels' decorators commented out; the reference travels with the files of its package it imports). The
host runs numerics on every spec plus hypothesis-drawn shapes, CUPTI device time interleaved against
``ct.launch`` of the same kernel on the same inputs, and the launch overhead of the generated wrapper.

``report`` writes ``benchmarks/results/h200-tilegym-1.5.1.{md,json,png}``: one row per operator x config and
the summary line ``geomean G over N configs of K operators, min M (operator)`` (ratio = cuTile Python device
time / port device time; > 1: the port is faster).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402 - the corpus benchmark's fetch / spec layout

RESULTS = ROOT / "benchmarks" / "results"
STEM = "h200-tilegym-1.5.1"


def proven(data: dict) -> list[tuple[dict, list[str]]]:
    """(kernel row, EQUIVALENT spec names) of every cuTile kernel with at least one EQUIVALENT spec."""
    out = []
    for k in data["kernels"]:
        names = [c["spec"] for c in k.get("check", []) if c["verdict"] == "EQUIVALENT"]
        if k["front"] == "cutile" and k["tier"] != "refused" and names:
            out.append((k, names))
    return out


def port_name(k: dict) -> str:
    return f"_ctrs_{Path(k['file']).stem}__{k['name']}"


def operator(port: str) -> str:
    """``_ctrs_softmax__softmax_kernel`` -> ``softmax``."""
    return port.removeprefix("_ctrs_").split("__", 1)[0]


def cmd_bundle(a) -> int:
    from ctrs import toolchain  # noqa: PLC0415

    data = json.loads((RESULTS / f"corpus-{corpus.CORPUS}.json").read_text())
    src = corpus.fetch(toolchain.cache_root() / "corpus" / corpus.CORPUS)
    work = toolchain.cache_root() / "h200-tilegym"
    (work / "specs").mkdir(parents=True, exist_ok=True)
    args = []
    for k, names in proven(data):
        path = src / k["file"]
        variant = path.with_name(f"{port_name(k)}.py")
        variant.write_text(corpus.isolate(path, "cutile", k["name"]))
        kern = corpus.Kernel(k["front"], k["file"], k["name"], k["line"], k["family"])
        specs = [s for s in json.loads(corpus.spec_file(kern).read_text()) if s["name"] in names]
        if a.only and operator(port_name(k)) not in a.only:
            continue
        sf = work / "specs" / f"{port_name(k)}.json"
        sf.write_text(json.dumps(specs, indent=1, sort_keys=True) + "\n")
        args.append(f"{variant}={sf}")
        print(f"{k['file']}:{k['name']}: {len(specs)} EQUIVALENT specs")
    if not args:
        print("no proven TileGym kernel (run benchmarks/corpus.py --tier check first)", file=sys.stderr)
        return 1
    return subprocess.call([sys.executable, "-m", "ctrs.cli", "bundle", *args, "-o", a.output])


def rows_of(report: dict) -> list[dict]:
    checks: dict[tuple[str, str], list[dict]] = {}
    fuzz: dict[tuple[str, str], list[dict]] = {}  # hypothesis-drawn shapes are named "<spec>@<shape>"
    for c in report.get("checks", []):
        base, at, _ = c["spec"].partition("@")
        (fuzz if at else checks).setdefault((c["port"], base), []).append(c)
    rows = []
    for t in report.get("timings", []):
        base = checks.get((t["port"], t["spec"]), [])
        fz = fuzz.get((t["port"], t["spec"]), [])
        over = (report.get("overhead_us") or {}).get(t["port"]) or {}
        rows.append({"operator": operator(t["port"]), "kernel": t["port"].split("__", 1)[-1], "config": t["spec"],
                     "ref_us": t["ref_median_us"], "port_us": t["port_median_us"], "ratio": t["ratio"],
                     "numerics": ("pass" if base and all(c["ok"] for c in base) else "FAIL" if base else "-")
                     + (" (bitwise)" if base and all(c["bitwise"] for c in base) else ""),
                     "fuzz": f"{sum(c['ok'] for c in fz)}/{len(fz)}",
                     "launch_ct_us": over.get("ct.launch"), "launch_port_us": over.get("port wrapper")})
    return sorted(rows, key=lambda r: (r["operator"], r["kernel"], r["config"]))


def geomean(xs: list[float]) -> float:
    xs = [x for x in xs if x > 0 and math.isfinite(x)]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")


def summary(rows: list[dict]) -> str:
    ops: dict[str, list[float]] = {}
    for r in rows:
        ops.setdefault(r["operator"], []).append(r["ratio"])
    per_op = {o: geomean(v) for o, v in ops.items()}
    worst = min(per_op, key=per_op.get) if per_op else "-"
    return (f"geomean {geomean([r['ratio'] for r in rows]):.3f} over {len(rows)} configs of {len(ops)} operators, "
            f"min {per_op.get(worst, float('nan')):.3f} ({worst})")


def render_md(report: dict, rows: list[dict]) -> str:
    def us(x):
        return f"{x:.1f}" if isinstance(x, (int, float)) else "-"

    lines = [f"# H200: TileGym 1.5.1 operators, ctrs ports vs cuTile Python ({report.get('device', '?')})", "",
             summary(rows), "",
             "Ratio = cuTile Python device time / port device time (CUPTI medians, interleaved; > 1: port faster). "
             "Numerics: the config's inputs, outputs compared to `ct.launch` of the reference; fuzz: "
             "hypothesis-drawn shapes per port (ok/n). Launch: host wall time per call, median of the runner's "
             "calls, `ct.launch` vs the generated wrapper, on the port's smallest spec.", "",
             "| operator | kernel | config | numerics | fuzz ok/n | ref µs | port µs | ratio | launch ct.launch µs "
             "| launch port µs |", "|---|---|---|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['operator']} | {r['kernel']} | {r['config']} | {r['numerics']} | {r['fuzz']} | "
                     f"{r['ref_us']:.2f} | {r['port_us']:.2f} | {r['ratio']:.3f} | {us(r['launch_ct_us'])} | "
                     f"{us(r['launch_port_us'])} |")
    return "\n".join(lines) + "\n"


def render_png(rows: list[dict], path: Path) -> None:
    import matplotlib  # noqa: PLC0415

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    fig, ax = plt.subplots(figsize=(10, max(3, 0.28 * len(rows))))
    labels = [f"{r['operator']}: {r['config'][:48]}" for r in rows]
    ax.barh(range(len(rows)), [r["ratio"] for r in rows], color="#4c72b0")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.axvline(0.95, color="r", lw=0.8, ls="--")
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("cuTile Python time / ctrs port time (H200)")
    ax.set_title(summary(rows), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)


def cmd_report(a) -> int:
    report = json.loads((Path(a.report) / "gpu_report.json").read_text())
    rows = rows_of(report)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{STEM}.json").write_text(json.dumps({"device": report.get("device"), "summary": summary(rows),
                                                  "rows": rows}, indent=1, sort_keys=True) + "\n")
    (out / f"{STEM}.md").write_text(render_md(report, rows))
    render_png(rows, out / f"{STEM}.png")
    print(summary(rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="example: .venv/bin/python benchmarks/h200_tilegym.py bundle -o .gpu-tilegym")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bundle", help="bundle the proven operators for the GPU host")
    b.add_argument("-o", "--output", default=".gpu-tilegym")
    b.add_argument("--only", nargs="*", help="operators (file stems) to bundle")
    b.add_argument("--cutile", metavar="VERSION", help="cutile target profile to build the ports for (default 0.5.0)")
    b.set_defaults(fn=cmd_bundle)
    r = sub.add_parser("report", help="results files from the host's report directory")
    r.add_argument("report", help="directory with the host run's gpu_report.json")
    r.add_argument("--out", default=str(RESULTS))
    r.set_defaults(fn=cmd_report)
    a = ap.parse_args(argv)
    from ctrs import targets  # noqa: PLC0415

    with targets.using(getattr(a, "cutile", None)):
        return a.fn(a)


if __name__ == "__main__":
    raise SystemExit(main())
