"""The ``ctrs`` command line."""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from pathlib import Path

from . import __version__, errors, toolchain


def _write(path: Path, data: bytes | str) -> None:
    """Write atomically: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".ctrs-tmp")
    tmp.write_bytes(data if isinstance(data, bytes) else data.encode())
    tmp.replace(path)


def _emit_ir(args, results, labels, side: str) -> None:
    from . import tileir_tools  # noqa: PLC0415

    for res, label in zip(results, labels):
        if args.output:
            out = Path(args.output)
            _write(out / f"{label}.{side}.tileirbc", res.bytecode)
            _write(out / f"{label}.{side}.mlir", res.text)
            if args.cubin:
                _write(out / f"{label}.{side}.{args.target}.cubin", tileir_tools.cubin(res.bytecode, args.target))
            print(f"{label}: {out / f'{label}.{side}.mlir'} ({len(res.bytecode)} bytes of bytecode)")
        else:
            if args.cubin:
                tileir_tools.cubin(res.bytecode, args.target)
            sys.stdout.write(res.text)


def cmd_doctor(args) -> int:
    comps = toolchain.components()
    for c in comps:
        print(c.line())
    missing = [c.name for c in comps if not c.ok]
    if missing:
        print(f"ctrs doctor: missing: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


def cmd_ir_ref(args) -> int:
    from . import ir_ref, spec  # noqa: PLC0415

    specs = spec.load_specs(args.spec)
    results = [ir_ref.compile_reference(Path(args.kernel), s) for s in specs]
    _emit_ir(args, results, [s.name for s in specs], "ref")
    return 0


def cmd_ir_rs(args) -> int:
    from . import ir_rs, spec  # noqa: PLC0415

    specs = spec.load_specs(args.spec)
    jobs = [(s, args.entry or s.rust.get("entry") or s.kernel) for s in specs]
    results = ir_rs.compile_ports(Path(args.kernel), jobs, args.target)
    _emit_ir(args, results, [s.name for s in specs], "rs")
    return 0


def cmd_diff_ir(args) -> int:
    from . import irdiff  # noqa: PLC0415

    report = irdiff.diff_files(Path(args.ref), Path(args.gen))
    if args.json:
        print(json.dumps(report.to_json(), indent=2, sort_keys=True))
    else:
        print(report.render())
    return report.exit_code()


def cmd_translate(args) -> int:
    from . import translate  # noqa: PLC0415

    written = translate.translate(Path(args.kernel), Path(args.output) if args.output else None)
    for w in written:
        print(w)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="ctrs", description="Port cuTile Python kernels to cuTile Rust, proven by Tile IR.")
    p.add_argument("--version", action="version", version=f"ctrs {__version__}")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = p.add_subparsers(dest="cmd", required=True)

    d = sub.add_parser("doctor", help="check every toolchain component")
    d.set_defaults(fn=cmd_doctor)

    for name, fn, what in (("ir-ref", cmd_ir_ref, "cuTile Python kernel file"),
                           ("ir-rs", cmd_ir_rs, "cuTile Rust kernel.rs")):
        s = sub.add_parser(name, help=f"Tile IR of a {what} for given specialisations (no GPU)")
        s.add_argument("kernel", help=what)
        s.add_argument("--spec", required=True, help="specialisation(s): inline JSON or a .json/.toml file")
        s.add_argument("-o", "--output", help="directory for <spec>.{ref,rs}.{tileirbc,mlir}; stdout if omitted")
        s.add_argument("--cubin", action="store_true", help="also assemble an sm_90 cubin with tileiras")
        s.add_argument("--target", default=toolchain.GPU_TARGET, help="GPU arch for hints and cubins (default sm_90)")
        if name == "ir-rs":
            s.add_argument("--entry", help="Rust entry fn (default: spec 'rust.entry', else the kernel name)")
        s.set_defaults(fn=fn)

    df = sub.add_parser("diff-ir", help="structural diff of reference vs port Tile IR (bytecode or MLIR text)")
    df.add_argument("ref")
    df.add_argument("gen")
    df.add_argument("--json", action="store_true", help="machine-readable report")
    df.set_defaults(fn=cmd_diff_ir)

    tr = sub.add_parser("translate", help="port a cuTile Python kernel file to cuTile Rust (rules only)")
    tr.add_argument("kernel", help="cuTile Python kernel file")
    tr.add_argument("-o", "--output", help="output directory (default: <kernel stem>_rs/ next to the file)")
    tr.set_defaults(fn=cmd_translate)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except errors.CtrsError as e:
        if args.debug:
            traceback.print_exc()
        print(e.one_line(), file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # output piped into head & co.
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
