"""Measurement (not a test): every hand-written fixture port under a cutile target profile.

    .venv/bin/python benchmarks/cutile_targets.py [--cutile 0.5.0] [--fixture NAME ...] [--json OUT]

For each fixtures/<name>/port.rs (written and proven against cutile 0.3.1): build the KernelCompiler
harness against the chosen crate version, compile every specialisation of fixtures/<name>/specs.json,
and diff each against the cuTile Python reference (what `ctrs ir-rs --cutile V` + `ctrs ir-ref` +
`ctrs diff-ir` do). A port that does not compile is reported with the first rustc / cutile error, which
names the API difference. Prints one markdown row per fixture.
"""

from __future__ import annotations

import argparse
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
    from ctrs import errors, ir_ref, ir_rs, irdiff  # noqa: PLC0415
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
    from ctrs import ir_ref, ir_rs, irdiff  # noqa: PLC0415
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cutile", default="0.5.0")
    ap.add_argument("--fixture", nargs="*")
    ap.add_argument("--json", help="also write the rows here")
    ap.add_argument("--adapt", action="store_true", help="wrap calls that became unsafe (profile data) first")
    ap.add_argument("--wrong", action="store_true", help="instead: the deliberately wrong ports (adapted)")
    a = ap.parse_args()
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
