"""Measurement (not a test): every hand-written fixture port under a cutile target profile.

    .venv/bin/python benchmarks/cutile_targets.py [--cutile 0.5.0] [--fixture NAME ...] [--json OUT]
    .venv/bin/python benchmarks/cutile_targets.py --translated --cutile 0.5.0|0.3.1   # what ctrs translate emits

For each fixtures/<name>/port.rs (written and proven against cutile 0.3.1): build the KernelCompiler
harness against the chosen crate version, compile every specialisation of fixtures/<name>/specs.json,
and diff each against the cuTile Python reference (what `ctrs ir-rs --cutile V` + `ctrs ir-ref` +
`ctrs diff-ir` do). A port that does not compile is reported with the first rustc / cutile error, which
names the API difference. Prints one markdown row per fixture.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def adapt(source: str, cutile: str, written_for: str = "0.3.1") -> tuple[str, int]:
    """Wrap the calls that became ``unsafe`` under ``cutile`` since ``written_for`` (profile data); returns the text
    and the count. Calls already inside ``unsafe {`` are left alone, so an adapted port stays as it is."""
    from ctrs import targets  # noqa: PLC0415

    new, old = targets.get(cutile), targets.get(written_for)
    names = [new.api[k]["rust"].split("(")[0] for k in new.differences(old)
             if new.api[k].get("unsafe") and not old.api.get(k, {}).get("unsafe")]
    count = 0
    for name in names:
        out, i = [], 0
        for m in re.finditer(rf"\b{name}\(", source):
            if m.start() < i or source[:m.start()].rstrip().endswith("unsafe {"):
                continue
            depth, j = 0, m.end() - 1
            while True:  # the matching ')'
                depth += {"(": 1, ")": -1}.get(source[j], 0)
                if depth == 0:
                    break
                j += 1
            out += [source[i:m.start()], "unsafe { ", source[m.start():j + 1], " }"]
            i, count = j + 1, count + 1
        source = "".join(out) + source[i:]
    return source, count


def measure(fixture: str, cutile: str, adapted: bool = False) -> dict:
    from ctrs import errors  # noqa: PLC0415
    from ctrs.verify import ir_ref, ir_rs, irdiff  # noqa: PLC0415
    from ctrs.spec import load_specs  # noqa: PLC0415

    fx = ROOT / "fixtures" / fixture
    specs = load_specs(str(fx / "specs.json"))
    row = {"fixture": fixture, "specs": len(specs), "compiles": False, "equivalent": 0, "error": "", "seconds": 0.0,
           "wrapped": 0}
    port = fx / "port.rs"
    tmp = tempfile.TemporaryDirectory()
    if adapted:
        text, row["wrapped"] = adapt(port.read_text(), cutile)
        port = Path(tmp.name) / f"{fixture}.rs"
        port.write_text(text)
    t = time.perf_counter()
    try:
        gens = ir_rs.compile_ports(port, [(s, s.rust.get("entry") or s.kernel) for s in specs], cutile=cutile)
    except errors.CtrsError as e:
        row["error"] = e.one_line().replace(str(ROOT) + "/", "")
        row["seconds"] = time.perf_counter() - t
        return row
    row["seconds"] = time.perf_counter() - t
    row["compiles"] = True
    diverging = []
    for s, gen in zip(specs, gens):
        report = irdiff.diff(ir_ref.compile_reference(fx / "kernel.py", s).text, gen.text, "ref", "port")
        if report.exit_code() == 0:
            row["equivalent"] += 1
        else:
            diverging.append(f"{s.name}: " + (report.render().splitlines() or ["?"])[0])
    row["error"] = "; ".join(diverging)
    return row


def measure_wrong(cutile: str) -> list[dict]:
    """Every deliberately wrong port (fixtures/*/wrong/MANIFEST.json), adapted: does the diff still flag its op?"""
    from ctrs.verify import ir_ref, ir_rs, irdiff  # noqa: PLC0415
    from ctrs.spec import load_specs  # noqa: PLC0415

    rows = []
    for manifest in sorted((ROOT / "fixtures").glob("*/wrong/MANIFEST.json")):
        fx = manifest.parent.parent
        specs = {s.name: s for s in load_specs(str(fx / "specs.json"))}
        for fname, meta in sorted(json.loads(manifest.read_text()).items()):
            with tempfile.TemporaryDirectory() as d:
                port = Path(d) / fname
                port.write_text(adapt((manifest.parent / fname).read_text(), cutile)[0])
                chosen = [specs[n] for n in meta.get("specs", specs)]
                gens = ir_rs.compile_ports(port, [(s, s.rust.get("entry") or s.kernel) for s in chosen], cutile=cutile)
            flagged = 0
            for s, gen in zip(chosen, gens):
                report = irdiff.diff(ir_ref.compile_reference(fx / "kernel.py", s).text, gen.text, "ref", "port")
                flagged += report.exit_code() == 1 and meta["op"] in {f.op for f in report.findings
                                                                       if f.severity == "critical"}
            rows.append({"fixture": fx.name, "wrong": fname, "op": meta["op"], "specs": len(chosen),
                         "flagged": flagged})
    return rows


def measure_translated(cutile: str, names: list[str]) -> list[dict]:
    """Every fixture kernel.py translated for ``cutile`` (its kernel.rs spelled from the profile) and proven like
    ``ctrs check`` proves it (specs.json + mined launch sites, entry and generics as the FFI picks them), except
    that the kernel.rs of all fixtures are compiled by ONE harness build (module ``fx_<fixture>_module`` each),
    not one cargo build per fixture. The port crates (ffi.rs) are built by ``ctrs check`` / ``ctrs bundle``."""
    from ctrs.workflow import check  # noqa: PLC0415
    from ctrs import errors, targets, translate  # noqa: PLC0415
    from ctrs.verify import ir_ref, ir_rs, irdiff  # noqa: PLC0415
    from ctrs.emitters import render_host  # noqa: PLC0415

    rows, parts, jobs = [], [], []
    with targets.using(cutile), tempfile.TemporaryDirectory() as d:
        for n in names:
            kp = ROOT / "fixtures" / n / "kernel.py"
            row = {"fixture": n, "specs": 0, "equivalent": 0, "warnings": 0, "error": "", "unsafe_calls": 0,
                   "unproven": 0}
            rows.append(row)
            try:
                files = translate.translate_source(kp)
                specs, skipped = check.gather_specs(kp, [], json.loads(files["analysis.json"]))
                fks = render_host.ffi_kernels(translate.translate_module(kp))
            except errors.CtrsError as e:
                row["error"] = e.one_line().replace(str(ROOT) + "/", "")
                continue
            rs = re.sub(r"pub mod (\w+)_module", f"pub mod fx_{n}_module", files["kernel.rs"], count=1)
            row["unsafe_calls"] = rs.count("unsafe { make_partition_view(")
            parts.append(rs)
            row["specs"], row["unproven"] = len(specs), len(skipped)  # skipped: mined launches without shapes
            for s, _ in specs:
                fk = check.entry_for(s, fks)
                gens = check.generics_for(s, fk)
                jobs.append((row, kp, s, dataclasses.replace(s, rust={**s.rust, "entry": fk.name, "generics": gens}),
                             f"fx_{n}_module::{fk.name}"))
        combined = Path(d) / "fixtures.rs"
        combined.write_text("\n".join(parts))
        t = time.perf_counter()
        gens = ir_rs.compile_ports(combined, [(rs_spec, entry) for *_, rs_spec, entry in jobs], cutile=cutile)
        build_s = time.perf_counter() - t
        for (row, kp, s, _, _), gen in zip(jobs, gens):
            report = irdiff.diff(ir_ref.compile_reference(check.reference_source(kp), s).text, gen.text, "ref", "port")
            if report.exit_code() == 0:
                row["equivalent"] += 1
            elif report.exit_code() == 2:  # warnings only: named, so a run can be compared with the other profile
                row["warnings"] += 1
                codes = sorted({f"{f.code} {f.op}" for f in report.findings if f.severity == irdiff.WARNING})
                row["error"] += f"{s.name}: warnings {', '.join(codes)}; "
            else:
                row["error"] += f"{s.name}: " + (report.render().splitlines() or ["?"])[0] + "; "
    for r in rows:
        r["build_s"] = round(build_s, 1)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutile", default="0.5.0")
    ap.add_argument("--fixture", nargs="*")
    ap.add_argument("--json", help="also write the rows here")
    ap.add_argument("--adapt", action="store_true", help="wrap calls that became unsafe (profile data) first")
    ap.add_argument("--wrong", action="store_true", help="instead: the deliberately wrong ports (adapted)")
    ap.add_argument("--translated", action="store_true",
                    help="instead: every fixture kernel.py translated for --cutile and proven (one harness build)")
    a = ap.parse_args()
    if a.translated:
        names = a.fixture or sorted(p.parent.name for p in (ROOT / "fixtures").glob("*/specs.json"))
        rows = measure_translated(a.cutile, names)
        print(f"| fixture | specs | make_partition_view in unsafe {{}} | IR-equivalent under {a.cutile} | warnings only "
              "| differences |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['fixture']} | {r['specs']} | {r['unsafe_calls']} | {r['equivalent']}/{r['specs']} | "
                  f"{r['warnings']} | {r['error'] or '-'} |")
        tot, eq = sum(r["specs"] for r in rows), sum(r["equivalent"] for r in rows)
        warn = sum(r["warnings"] for r in rows)
        print(f"\ncutile {a.cutile}: {sum(r['equivalent'] == r['specs'] > 0 for r in rows)}/{len(rows)} fixtures, "
              f"{eq}/{tot} specs IR-equivalent, {warn} warnings-only, {tot - eq - warn} critical "
              f"(harness build, if not cached, + every compile: {rows[0]['build_s'] if rows else 0} s)")
        if a.json:
            Path(a.json).write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n")
        sys.exit(0 if eq + warn == tot else 1)
    if a.wrong:
        print(f"| fixture | wrong port | op the diff must flag | flagged under {a.cutile} |")
        print("|---|---|---|---|")
        for r in measure_wrong(a.cutile):
            print(f"| {r['fixture']} | {r['wrong']} | {r['op']} | {r['flagged']}/{r['specs']} |", flush=True)
        return
    names = a.fixture or sorted(p.parent.name for p in (ROOT / "fixtures").glob("*/port.rs"))
    rows = []
    print(f"| fixture | specs | calls wrapped | compiles under {a.cutile} | IR-equivalent | first difference |")
    print("|---|---|---|---|---|---|")
    for n in names:
        r = measure(n, a.cutile, a.adapt)
        rows.append(r)
        print(f"| {n} | {r['specs']} | {r['wrapped']} | {'yes' if r['compiles'] else 'no'} | "
              f"{r['equivalent']}/{r['specs']} | {r['error'] or '-'} |", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=2, sort_keys=True) + "\n")
    sys.exit(0)


if __name__ == "__main__":
    main()
