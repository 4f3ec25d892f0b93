"""Build and prove one candidate kernel.rs: ir-rs (cutile KernelCompiler) vs ir-ref (cuTile Python) for every
specialisation ``ctrs check`` would use for the file (check.gather_specs: specs.json next to the kernel, every
``--spec``, the launch sites mined into analysis.json; the reference is check.reference_source, i.e. a Triton
file's cuTile counterpart). Accepted only when the IR diff proves the port for all of them by the one notion of
EQUIVALENT ``ctrs check`` and the tests share (irdiff ``Report.proves``: a raw-pointer port may still show
IRD-ASSUME-DIV, nothing else; a port assuming fewer bounds than the reference, IRD-ASSUME-WEAKER, is rejected).

The candidate is untrusted: it is written into a temporary directory, and its harness is built there with
``cargo --offline`` under a time limit (ir_rs ``sandbox``)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tempfile
from pathlib import Path

from ctrs.workflow import check
from ctrs import errors, spec as specmod, targets, toolchain
from ctrs.verify import ir_ref, ir_rs, irdiff


def _build_failures() -> Path:
    """rustc errors of candidate kernel.rs texts that did not build, keyed by cutile version + text."""
    return toolchain.cache_root() / "llm-build-failures"


def check_specs(kernel: Path, given: list[str], analysis: dict) -> list[specmod.Spec]:
    """The specs ``ctrs check KERNEL --spec ..`` would prove (the ones it can: mined launches without shapes or
    static constants are not provable by either)."""
    return [s for s, _origin in check.gather_specs(kernel, list(given), analysis)[0]]


def kernel_names(kernel: Path) -> set[str]:
    """The entry functions of ``kernel``: decorated ``@ct.kernel`` / ``@triton.jit`` (any alias, called or not).
    A spec naming none of them proves nothing about this file (its other kernels' specs are compared with
    nothing: the corpus translates each kernel alone, the others' decorators commented out)."""
    import ast  # noqa: PLC0415

    def name(d) -> str:
        d = d.func if isinstance(d, ast.Call) else d
        return d.attr if isinstance(d, ast.Attribute) else d.id if isinstance(d, ast.Name) else ""

    try:
        tree = ast.parse(Path(kernel).read_text(errors="replace"))
    except SyntaxError:
        return set()
    return {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
            and any(name(d) in ("kernel", "jit") for d in f.decorator_list)}


def no_reference(kernel: Path) -> str:
    """Why no answer for ``kernel`` could be proven (a Triton file whose specs.json names no cuTile Python
    counterpart: no reference Tile IR on a CPU, CTRS-E112), else ''. Nothing is asked for then: an answer would be
    compared with nothing."""
    try:
        check.reference_source(kernel)
    except errors.CtrsError as e:
        return (f"no reference Tile IR to verify an answer against ({e.code}: {e.message}; {e.hint}), so nothing "
                "was asked")
    return ""


class Verifier:
    def __init__(self, kernel: Path, given: list[str], build_timeout: float = 600.0):
        self.kernel, self.given, self.build_timeout = kernel, list(given), build_timeout
        self.specs: list[specmod.Spec] = []  # the specs of the last verify() (those that verified an answer)
        self._ref: dict[str, object] = {}
        self.builds = 0

    def ref(self, s: specmod.Spec):
        key = json.dumps(dataclasses.asdict(s), sort_keys=True, default=str)
        if key not in self._ref:
            self._ref[key] = ir_ref.compile_reference(check.reference_source(self.kernel), s)
        return self._ref[key]

    def reference_ops(self, c) -> list[str]:
        """Context for the prompt: the reference ops on the construct's lines, for the first given spec."""
        from . import context  # noqa: PLC0415

        specs = check_specs(self.kernel, self.given, {})
        if not specs or check.reference_source(self.kernel) != self.kernel:
            return []
        fn = context.enclosing_function(self.kernel, c.loc.line)
        specs = [s for s in specs if s.kernel == fn] or specs
        try:
            return context.reference_ops(self.ref(specs[0]).text, self.kernel, c.loc.line, c.end_line)
        except errors.CtrsError:
            return []

    def exercising(self, c) -> tuple[list[specmod.Spec], list[specmod.Spec]]:
        """(the given specs of the kernel holding construct ``c``, those that run it). A spec does not run it when
        it sits in the arm of an ``if`` on ct.Constant values that the spec's constants leave off (the reference
        compiles none of that arm, so an answer there would be compared with nothing). ([], []) for a construct
        outside the kernel function (a helper: its constants are the call's, not the spec's)."""
        from . import context  # noqa: PLC0415

        if Path(c.loc.file).name != Path(self.kernel).name:
            return [], []
        fn = context.enclosing_function(self.kernel, c.loc.line)
        specs = [s for s in check_specs(self.kernel, self.given, {}) if s.kernel == fn]
        return specs, [s for s in specs if not context.left_off(self.kernel, c.loc.line, {
            n: a.value for n, a in s.args.items() if isinstance(a, specmod.ConstArg)})]

    def verify(self, files: dict[str, str], mod) -> tuple[bool, str, str]:
        """(accepted, stage, detail) for one candidate port (translate_source's files) and its model."""
        from ctrs.emitters import render_host  # noqa: PLC0415

        kernel_rs = files["kernel.rs"]
        fks = render_host.ffi_kernels(mod)
        here = {fk.python_name for fk in fks}  # a spec of a kernel the file does not define proves nothing here
        self.specs = [s for s in check_specs(self.kernel, self.given, json.loads(files["analysis.json"]))
                      if s.kernel in here]
        if not self.specs:
            return False, "no specs", "no specialisation of this file's kernels to verify against"
        jobs = []
        for s in self.specs:
            fk = check.entry_for(s, fks)
            if fk is None:
                return False, "no entry", f"no translated entry matches spec '{s.name}'"
            gens = check.generics_for(s, fk)
            jobs.append((dataclasses.replace(s, rust={**s.rust, "entry": fk.name, "generics": gens}), fk.name))
        refs = [self.ref(s) for s in self.specs]  # reference errors are not the answer's fault: they propagate
        failed = _build_failures() / f"{hashlib.sha256((targets.current().version + kernel_rs).encode()).hexdigest()}.txt"
        if failed.exists():  # rustc's verdict on this exact text is known: no second (failing) cargo build
            return False, "it does not compile", failed.read_text()
        self.builds += 1
        with tempfile.TemporaryDirectory(prefix="ctrs-llm-") as d:
            path = Path(d) / "kernel.rs"
            path.write_text(kernel_rs)
            try:
                gens = ir_rs.compile_ports(path, jobs, sandbox={"timeout": self.build_timeout})
            except errors.CtrsError as e:
                detail = e.one_line().replace(str(d) + "/", "")
                if e.code == errors.RS_BUILD and "timed out" not in e.message:
                    failed.parent.mkdir(parents=True, exist_ok=True)
                    failed.write_text(detail)
                return False, "it does not compile", detail
        bad, good = [], []
        for s, r, g in zip(self.specs, refs, gens):
            rep = irdiff.diff(r.text, g.text, f"{s.name}.ref", f"{s.name}.rs")
            if rep.proves(kernel_rs):  # the bar of ctrs check and the tests (module doc)
                good.append(s.name)
                continue
            lines = [f"{f.severity}: {f.code} {f.op}: {f.message}" for sev in (irdiff.CRITICAL, irdiff.WARNING)
                     for f in rep.findings if f.severity == sev]  # the critical findings first
            bad.append(f"spec {s.name}: {rep.verdict()}\n" + "\n".join(lines[:8]))
        if bad:  # first line: which specs it is right and wrong for (what the log and the retry prompt lead with)
            head = f"not EQUIVALENT for {len(bad)} of {len(self.specs)} specs" + (
                f" (EQUIVALENT for {', '.join(good)})" if good else "")
            return False, "its Tile IR differs from the reference (IR diff)", "\n".join([head, *bad])
        return True, "EQUIVALENT", ""
