"""Build and prove one candidate kernel.rs: ir-rs (cutile KernelCompiler) vs ir-ref (cuTile Python) for each
specialisation, accepted only when transpiler.irdiff reports EQUIVALENT (exit 0) for all of them."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

from ctrs import check, errors, ir_ref, ir_rs, irdiff, spec as specmod, toolchain


def _build_failures() -> Path:
    """rustc errors of candidate kernel.rs texts that did not build, keyed by cutile version + text."""
    return toolchain.cache_root() / "llm-build-failures"


def load_specs(kernel: Path, given: list[str]) -> list[specmod.Spec]:
    srcs = list(given) or ([str(kernel.parent / "specs.json")] if (kernel.parent / "specs.json").exists() else [])
    out, seen = [], set()
    for s in srcs:
        for sp in specmod.load_specs(s):
            if sp.name not in seen:
                seen.add(sp.name)
                out.append(sp)
    return out


class Verifier:
    def __init__(self, kernel: Path, specs: list[specmod.Spec], work: Path):
        self.kernel, self.specs, self.work = kernel, specs, work
        self._ref: dict[str, object] = {}
        self.builds = 0

    def ref(self, s: specmod.Spec):
        if s.name not in self._ref:
            self._ref[s.name] = ir_ref.compile_reference(self.kernel, s)
        return self._ref[s.name]

    def verify(self, kernel_rs: str, mod) -> tuple[bool, str, str]:
        """(accepted, stage, detail) for one candidate kernel.rs and its model."""
        from ctrs.emitters import render_host  # noqa: PLC0415

        d = self.work / hashlib.sha256(kernel_rs.encode()).hexdigest()[:16]
        d.mkdir(parents=True, exist_ok=True)
        path = d / "kernel.rs"
        path.write_text(kernel_rs)
        fks = render_host.ffi_kernels(mod)
        jobs = []
        for s in self.specs:
            fk = check.entry_for(s, fks)
            if fk is None:
                return False, "no entry", f"no translated entry matches spec '{s.name}'"
            gens = check.generics_for(s, fk)
            jobs.append((dataclasses.replace(s, rust={**s.rust, "entry": fk.name, "generics": gens}), fk.name))
        refs = [self.ref(s) for s in self.specs]  # reference errors are not the answer's fault: they propagate
        failed = _build_failures() / f"{hashlib.sha256((toolchain.CUTILE_VERSION + kernel_rs).encode()).hexdigest()}.txt"
        if failed.exists():  # rustc's verdict on this exact text is known: no second (failing) cargo build
            return False, "it does not compile", failed.read_text()
        self.builds += 1
        try:
            gens = ir_rs.compile_ports(path, jobs)
        except errors.CtrsError as e:
            detail = e.one_line().replace(str(d) + "/", "")
            if e.code == errors.RS_BUILD:
                failed.parent.mkdir(parents=True, exist_ok=True)
                failed.write_text(detail)
            return False, "it does not compile", detail
        bad = []
        for s, r, g in zip(self.specs, refs, gens):
            rep = irdiff.diff(r.text, g.text, f"{s.name}.ref", f"{s.name}.rs")
            if rep.exit_code() != 0:
                lines = [f"{f.severity}: {f.code} {f.op}: {f.message}" for f in rep.findings
                         if f.severity in (irdiff.CRITICAL, irdiff.WARNING)]
                bad.append(f"spec {s.name}: {rep.verdict()}\n" + "\n".join(lines[:8]))
        if bad:
            return False, "its Tile IR differs from the reference (IR diff)", "\n".join(bad)
        return True, "EQUIVALENT", ""
