"""Fuzz harness shared by tests/test_fuzz.py (a fixed-seed sample in CI) and benchmarks/fuzz.py (>= 10,000
cases): mutations of the repository's own fixtures fed, in-process, to ``ctrs translate`` and ``ctrs
diff-ir`` (through ``cli.main``, the real entry point) and to spec loading.

Every case ends in one of: ``ok`` (a result), ``error`` (a coded one-line diagnostic with a location), or a
defect: ``crash`` (CTRS-E999, an uncaught exception, a diagnostic without code or location), ``partial``
(a failed run changed the output directory, or a run replaced a file ctrs did not generate) or
``timeout`` (over ``LIMIT_S``). Mutators draw from a ``random.Random``: hypothesis supplies it in the
tests (``st.randoms``), a seeded one in the benchmark.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import re
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted(p for p in (ROOT / "fixtures").glob("*/kernel.py"))
SPECS = sorted((ROOT / "fixtures").glob("*/specs.json"))
IR_PAIRS = sorted((ROOT / "tests" / "data" / "ir").glob("*.ref.mlir"))
LIMIT_S = 60
_DIAG = re.compile(r"^(?P<loc>[^\n]*?): error\[(?P<code>CTRS-E\d{3})\]: ")
_CT_KWS = re.compile(r",\s*(index|shape|tile|dtype|axis|other|mask|acc)\s*=\s*(\([^()]*\)|[\w.\-]+)")
_TOKENS = ["0", "-1", "1.5", "2**40", "None", "True", "'s'", "x", "ct", "tl", "(", ")", "[", "]", ":", ",", "\\",
           "ct.load", "ct.store", "ct.bid(0)", "tl.zeros", "tl.dot", "lambda: 0", "*", "**", "if", "for", "\t", "#",
           "ct.Constant[int]", "tl.constexpr", "def", "return", "yield", "global x", "import os", '"""', "\x00",
           "ct.sum(", "tl.arange(0, 0)", "range(10**9)", "assert False", "@ct.kernel", "@triton.jit", "async"]


class Timeout(BaseException):
    """Raised by the alarm: a BaseException so that no ``except Exception`` in ctrs swallows it."""


@dataclass
class Outcome:
    kind: str  # ok | error | crash | partial | timeout
    case: str
    detail: str = ""
    seconds: float = 0.0


# ---------------------------------------------------------------------------------------------- mutators


def _lines_op(rng, text: str) -> str:
    lines = text.split("\n")
    if not lines:
        return text
    i = rng.randrange(len(lines))
    op = rng.randrange(5)
    if op == 0:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = " " * rng.randrange(9) + lines[i].lstrip()
    else:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return "\n".join(lines)


def _token_op(rng, text: str) -> str:
    if not text:
        return rng.choice(_TOKENS)
    i = rng.randrange(len(text))
    j = min(len(text), i + rng.randrange(12))
    return text[:i] + rng.choice(_TOKENS) + text[j:]


def _drop_kw(rng, text: str) -> str:
    hits = list(_CT_KWS.finditer(text))
    if not hits:
        return text
    m = rng.choice(hits)
    return text[: m.start()] + text[m.end():]


def _deep(rng, text: str) -> str:
    """Deep nesting at a random assignment: parentheses, a long operator chain, nested ifs or subscripts."""
    m = list(re.finditer(r"^( +)(\w+) = (.+)$", text, re.M))
    if not m:
        return text
    a = rng.choice(m)
    ind, name, rhs = a.group(1), a.group(2), a.group(3)
    n = rng.choice([5, 30, 63, 64, 65, 100, 199, 200, 300, 1000, 3000, 5000])
    kind = rng.randrange(4)
    if kind == 0:
        new = f"{ind}{name} = {'(' * n}{rhs}{')' * n}"
    elif kind == 1:
        new = f"{ind}{name} = {' + '.join([f'({rhs})'] * n)}"
    elif kind == 2:
        n = min(n, 120)
        new = "".join(f"{ind}{'    ' * k}if {name}:\n" for k in range(n)) + f"{ind}{'    ' * n}{name} = {rhs}"
    else:
        new = f"{ind}{name} = {rhs}" + "[0]" * n
    return text[: a.start()] + new + text[a.end():]


def _many_kernels(rng, text: str) -> str:
    n = rng.choice([2, 5, 20, 129, 2000])
    body = text.split("\n@", 1)
    if len(body) < 2:
        return text
    head, kern = body[0], "@" + body[1]
    m = re.search(r"def (\w+)\(", kern)
    if not m:
        return text
    return head + "".join("\n" + kern.replace(f"def {m.group(1)}(", f"def {m.group(1)}_{i}(", 1) for i in range(n))


def mutate_source(rng, text: str) -> bytes:
    """1-3 text mutations, then maybe an encoding-level one."""
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(10)
        if op <= 2:
            text = _lines_op(rng, text)
        elif op <= 4:
            text = _token_op(rng, text)
        elif op <= 6:
            text = _drop_kw(rng, text)
        elif op == 7:
            text = _deep(rng, text)
        elif op == 8 and rng.random() < 0.15:
            text = _many_kernels(rng, text)
        else:
            text = text.replace("ct.", "tl.", 1) if rng.random() < 0.5 else text.replace("tl.", "ct.", 1)
    data = text.encode("utf-8", "surrogatepass")
    enc = rng.randrange(12)
    if enc == 0 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.choice([0x80, 0xC3, 0xFF, 0xE9, 0x00])]) + data[i + 1:]
    elif enc == 1:
        data = b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + data
    elif enc == 2:
        data = text.encode("utf-16")
    elif enc == 3:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
    elif enc == 4:
        data = b"# coding: " + rng.choice([b"bogus", b"utf-16", b"ascii", b"latin-1"]) + b"\n" + data
    elif enc == 5 and rng.random() < 0.1:
        data = data + b"\nx = 1" * (6 * 1024 * 1024 // 6)  # over the size limit: refused before parsing
    return data


def mutate_json(rng, doc):
    """One structural mutation of a spec document (a deep copy is mutated)."""
    doc = json.loads(json.dumps(doc))
    paths = []

    def walk(v, path):
        paths.append(path)
        if isinstance(v, dict):
            for k in v:
                walk(v[k], path + [k])
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, path + [i])

    walk(doc, [])
    path = rng.choice(paths)
    values = [0, -1, 1, 3, 2**31, 2**63, 2**64, 1.5, -0.0, "x", "", None, True, [], {}, [1, 2], [[16]], {"a": 1},
              "float16", "int64", "int16", 1e308, [0], [-16], ["1"], [2.5]]
    if not path:
        return rng.choice([doc, [doc, doc], {"spec": doc}, 5, "spec", None])
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    op = rng.randrange(4)
    if op == 0:
        parent[key] = rng.choice(values)
    elif op == 1 and isinstance(parent, dict):
        del parent[key]
    elif op == 2 and isinstance(parent, dict):
        parent[rng.choice(["bogus", "shape", "scalar", "strides", "align", "index_dtype", "name"])] = rng.choice(values)
    elif isinstance(parent, list):
        parent.append(parent[key])
    return doc


def mutate_spec_text(rng, text: str) -> bytes:
    if rng.random() < 0.8:
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
        if doc is not None:
            for _ in range(rng.randint(1, 3)):
                doc = mutate_json(rng, doc)
            text = json.dumps(doc)
            if rng.random() < 0.1:
                text = text.replace("1", rng.choice(["NaN", "Infinity", "1e999", "-Infinity"]), 1)
            return text.encode()
    data = text.encode()
    i = rng.randrange(len(data) + 1)
    return data[:i] + bytes([rng.choice([0xFF, 0x00, ord("{"), ord("]"), ord(",")])]) + data[i + 1:]


def mutate_ir(rng, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(9)
        if op <= 2:
            text = _lines_op(rng, text)
        elif op == 3:  # rename one use: an undefined value
            vals = re.findall(r"%[\w.]+", text)
            if vals:
                v = rng.choice(vals)
                text = text.replace(v, v + "_x", 1)
        elif op == 4:
            text = re.sub(r"\b(f16|f32|i32|bf16)\b", lambda m: rng.choice(["f16", "f32", "i32", "i1"]), text, count=1)
        elif op == 5:
            text = re.sub(r"div_by<(\d+)>|bounded<(\d+), \?>", lambda m: rng.choice(
                ["div_by<1>", "div_by<16>", "bounded<1, ?>", "bounded<0, 7>", "div_by<3>"]), text, count=rng.randint(1, 3))
        elif op == 6:
            n = rng.choice([10, 100, 3000])
            text = text.replace("tile<", "tile<" * n, 1).replace(">", ">" * n, 1)
        elif op == 7:
            text = _token_op(rng, text)
        else:
            text = text[: rng.randrange(len(text) + 1)]
    return text


# ---------------------------------------------------------------------------------------------- running


def _snapshot(d: Path) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    if not d.exists():
        return out
    for p in sorted(d.rglob("*")):
        out[str(p.relative_to(d))] = p.read_bytes() if p.is_file() else None
    return out


@contextlib.contextmanager
def _alarm(seconds: int):
    def fire(signum, frame):
        raise Timeout()

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _cli(argv: list[str]) -> tuple[int, str]:
    from ctrs.workflow import cli  # noqa: PLC0415

    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        rc = cli.main(argv)
    return rc, err.getvalue()


def classify_diag(rc: int, stderr: str) -> tuple[str, str]:
    """(kind, detail) of a CLI run's exit code and stderr."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    if rc == 4 or "CTRS-E999" in stderr or "Traceback" in stderr:
        return "crash", stderr.strip()[-600:]
    if rc == 3 or (rc == 1 and "error[CTRS-E240]" in stderr):  # 1: translate kept going, the others written
        # one line, or keep-going's list: every blocker, then the CTRS-E240 summary; each coded and located
        if len(lines) > 1 and not (_DIAG.match(lines[-1]) and "error[CTRS-E240]" in lines[-1]):
            return "crash", f"not one line: {stderr[-600:]!r}"
        for line in lines:
            m = _DIAG.match(line)
            if not m or not m.group("loc"):
                return "crash", f"diagnostic without code or location: {line[:300]}"
    if rc == 3:
        if not lines:
            return "crash", "exit 3 without a diagnostic"
        return "error", _DIAG.match(lines[0]).group("code")
    return "ok", ""


_GENERATED: dict[Path, Path] = {}


def _generated(fixture: Path) -> Path:
    """A port directory ctrs translate wrote for the fixture (once per process)."""
    if fixture not in _GENERATED:
        from ctrs import errors, translate  # noqa: PLC0415

        base = Path(tempfile.mkdtemp(prefix="ctrs-fuzz-gen-"))
        atexit.register(shutil.rmtree, base, True)
        d = base / "out"
        try:
            translate.translate(fixture, d)
        except errors.CtrsError:  # a fixture outside the subset (triton_unsupported): another port
            translate.translate(ROOT / "fixtures" / "vector_add" / "kernel.py", d)
        _GENERATED[fixture] = d
    return _GENERATED[fixture]


def run_translate(rng, work: Path, name: str) -> Outcome:
    """One mutated kernel translated into an output directory in one of five states."""
    fixture = rng.choice(FIXTURES)
    src = mutate_source(rng, fixture.read_text()) if rng.random() < 0.97 else fixture.read_bytes()
    case = work / name
    case.mkdir()
    kernel = case / ("kernel.py" if rng.random() < 0.95 else "k\udcff.py")
    kernel.write_bytes(src)
    out = case / "out"
    scenario = rng.randrange(5)
    user = {}
    if scenario == 1:  # the user's own files where ctrs writes
        out.mkdir()
        for n in rng.sample(["kernel.rs", "Cargo.toml", "wrapper.py", "lib.rs", "analysis.json", "Cargo.lock"], 2):
            (out / n).write_text(f"user's {n}\n")
            user[n] = (out / n).read_bytes()
    elif scenario == 2:  # a directory named like an output file
        (out / "wrapper.py").mkdir(parents=True)
        (out / "wrapper.py" / "keep").write_text("x")
    elif scenario == 3:  # the output's parent is a file
        (case / "file").write_text("x")
        out = case / "file" / "out"
    elif scenario == 4:  # a previous ctrs run of the fixture, plus a file of the user's that must survive
        shutil.copytree(_generated(fixture), out)
        (out / "notes.txt").write_text("the user's notes\n")
    before = _snapshot(out)
    force = scenario == 4 and rng.random() < 0.5
    argv = ["translate", str(kernel), "-o", str(out)] + (["--force"] if force else [])
    t = time.monotonic()
    try:
        with _alarm(LIMIT_S):
            rc, err = _cli(argv)
    except Timeout:
        return Outcome("timeout", f"{fixture.parent.name}/{name}", "", time.monotonic() - t)
    secs = time.monotonic() - t
    kind, detail = classify_diag(rc, err)
    after = _snapshot(out)
    if kind == "error" and after != before:
        return Outcome("partial", f"{fixture.parent.name}/{name}", f"{detail}: output changed on error", secs)
    if kind == "ok":
        for n, data in user.items():
            if after.get(n) != data:
                return Outcome("partial", f"{fixture.parent.name}/{name}", f"user file {n} overwritten", secs)
        for n, data in before.items():
            if n not in ("kernel.rs", "lib.rs", "ffi.rs", "Cargo.toml", "Cargo.lock", "wrapper.py", "analysis.json") \
                    and after.get(n) != data:
                return Outcome("partial", f"{fixture.parent.name}/{name}", f"unrelated file {n} changed", secs)
    return Outcome(kind, f"{fixture.parent.name}/{name}", detail, secs)


def run_spec(rng, work: Path, name: str) -> Outcome:
    from ctrs import errors, spec  # noqa: PLC0415

    src = rng.choice(SPECS)
    data = mutate_spec_text(rng, src.read_text())
    path = work / f"{name}.json"
    path.write_bytes(data)
    t = time.monotonic()
    try:
        with _alarm(LIMIT_S):
            specs = spec.load_specs(str(path))
            for s in specs:  # an accepted spec must be usable on both sides
                spec.reference_signature(s, list(s.args))
                _invariants(s)
    except Timeout:
        return Outcome("timeout", f"{src.parent.name}/{name}")
    except errors.CtrsError as e:
        if e.code == errors.INTERNAL or e.loc is None:
            return Outcome("crash", f"{src.parent.name}/{name}", e.one_line())
        return Outcome("error", f"{src.parent.name}/{name}", e.code, time.monotonic() - t)
    except Exception as e:  # noqa: BLE001 - the defect being counted
        return Outcome("crash", f"{src.parent.name}/{name}", f"{type(e).__name__}: {e}"[:600])
    return Outcome("ok", f"{src.parent.name}/{name}", "", time.monotonic() - t)


def _invariants(s) -> None:
    """What the schema promises about an accepted spec (an absurd spec accepted is a defect too)."""
    from ctrs import spec  # noqa: PLC0415

    for a in s.args.values():
        if isinstance(a, spec.ArrayArg):
            assert all(isinstance(d, int) and d >= 1 for d in a.shape), a
            assert all(isinstance(x, int) and x >= 0 for x in a.strides), a
            assert a.align >= 1 and a.align & (a.align - 1) == 0, a
            assert a.index_dtype in ("int32", "int64"), a


def run_diff(rng, work: Path, name: str) -> Outcome:
    pair = rng.choice(IR_PAIRS)
    ref_text = pair.read_text()
    gen_text = pair.with_name(pair.name.replace(".ref.", ".rs.")).read_text()
    if rng.random() < 0.5:
        gen_text = mutate_ir(rng, gen_text)
    else:
        ref_text = mutate_ir(rng, ref_text)
    ref, gen = work / f"{name}.ref.mlir", work / f"{name}.rs.mlir"
    ref.write_text(ref_text, errors="surrogatepass")
    gen.write_text(gen_text, errors="surrogatepass")
    t = time.monotonic()
    try:
        with _alarm(LIMIT_S):
            rc, err = _cli(["diff-ir", str(ref), str(gen)])
    except Timeout:
        return Outcome("timeout", f"{pair.name}/{name}")
    kind, detail = classify_diag(rc, err)
    return Outcome(kind, f"{pair.name}/{name}", detail, time.monotonic() - t)


KINDS = {"translate": run_translate, "spec": run_spec, "diff": run_diff}


def run_case(kind: str, rng, work: Path | None = None, name: str = "case") -> Outcome:
    own = work is None
    work = Path(tempfile.mkdtemp(prefix="ctrs-fuzz-")) if own else work
    try:
        return KINDS[kind](rng, work, name)
    finally:
        if own:
            shutil.rmtree(work, ignore_errors=True)
