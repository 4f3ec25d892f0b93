"""ctrs as a user installs it: the wheel, a fresh non-editable venv, and the pre-commit hooks as published.

The working tree (tracked + untracked, ignored files left out) is copied into a scratch git repository: the
wheel is built from it and pre-commit installs the published hooks from it (`repos:` entry pointing at that
local clone), so the tests see uncommitted changes and never write into the checkout.

Installs are offline after the first run: a wheelhouse under the ctrs cache (keyed by pyproject.toml +
constraints.txt) holds the core and [llm] wheels at the constrained versions plus the build backend, filled
once with `pip download` from PyPI; pip then installs with `--no-index --find-links`. A core-only wheelhouse
install also proves that translate, regen and the ctrs-regen hook need nothing beyond the core.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import pytest

from ctrs.workflow import generated, regen
from ctrs import toolchain, translate
from tests.test_regen import _env as _git_env  # git identity, no global config, PRE_COMMIT_HOME under tmp

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
FIX = ROOT / "fixtures"
CORE = {"ctrs", "jinja2", "lark", "libcst", "markupsafe", "packaging", "pyyaml"}  # the core install, dependencies included
# repository folder -> its place in the one import package
PACKAGE_DIRS = {"transpiler": "ctrs", "emitters": "ctrs/emitters", "rules": "ctrs/rules", "grammars": "ctrs/grammars",
                "llm_fallback": "ctrs/llm_fallback"}

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _run(cmd, cwd=None, env=None, check=True, timeout=600) -> subprocess.CompletedProcess:
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(f"{cmd} -> {r.returncode}\n{r.stdout}\n{r.stderr}")
    return r


def _tree_files() -> list[str]:
    out = _run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT).stdout
    return sorted(f for f in out.split("\0") if f and (ROOT / f).is_file())


def _pip_env(wheelhouse: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse), PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


@pytest.fixture(scope="module")
def wheelhouse() -> Path:
    """Core + [llm] wheels at the constraints' versions, and the build backend; downloaded once per change."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    reqs = [*meta["build-system"]["requires"], *meta["project"]["dependencies"],
            *meta["project"]["optional-dependencies"]["llm"]]
    key = hashlib.sha256(((ROOT / "pyproject.toml").read_bytes() + (ROOT / "constraints.txt").read_bytes())).hexdigest()
    wh = toolchain.cache_root() / "wheelhouse" / key[:16]
    if not (wh / ".complete").exists():
        tmp = wh.with_name(wh.name + f".tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        # fails (never skips) when PyPI is unreachable or the ranges and constraints.txt disagree
        _run([PY, "-m", "pip", "download", "-q", "--only-binary=:all:", "-c", ROOT / "constraints.txt", "-d", tmp,
              *reqs])
        (tmp / ".complete").write_text("\n".join(reqs) + "\n")
        shutil.rmtree(wh, ignore_errors=True)
        tmp.rename(wh)
    return wh


@pytest.fixture(scope="module")
def source_repo(tmp_path_factory) -> tuple[Path, str]:
    """A git repository holding the working tree as it is now (the 'local clone' users would point at)."""
    d = tmp_path_factory.mktemp("ctrs-src") / "ctrs"
    for rel in _tree_files():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, d / rel)
    env = _git_env(d.parent)
    _run(["git", "init", "-q", "-b", "main"], cwd=d, env=env)
    _run(["git", "add", "-A"], cwd=d, env=env)
    _run(["git", "commit", "-q", "-m", "snapshot of the working tree"], cwd=d, env=env)
    return d, _run(["git", "rev-parse", "HEAD"], cwd=d).stdout.strip()


@pytest.fixture(scope="module")
def wheel(source_repo, wheelhouse, tmp_path_factory) -> Path:
    src, _ = source_repo
    out = tmp_path_factory.mktemp("dist")
    _run([PY, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, src], env=_pip_env(wheelhouse))
    (whl,) = out.glob("ctrs-*.whl")
    return whl


@pytest.fixture(scope="module")
def venv(wheel, wheelhouse, tmp_path_factory) -> tuple[Path, float]:
    """A fresh venv with the wheel installed, core only (non-editable); returns (bin dir, install seconds)."""
    d = tmp_path_factory.mktemp("venv") / "v"
    _run([PY, "-m", "venv", d])
    t0 = time.monotonic()
    _run([d / "bin" / "python", "-m", "pip", "install", "-q", "-c", ROOT / "constraints.txt", wheel],
         env=_pip_env(wheelhouse))
    return d / "bin", time.monotonic() - t0


def _site_packages(bindir: Path) -> Path:
    (sp,) = (bindir.parent / "lib").glob("python3*/site-packages")
    return sp


def _dists(site: Path) -> set[str]:
    return {p.name.split("-")[0].lower().replace("_", "-") for p in site.glob("*.dist-info")}


def _cli_env(**kw) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON", "OPENAI_", "CTRS_LLM"))}
    env.update(kw)
    return env


# ------------------------------------------------------------------------------------------ the wheel


def test_wheel_ships_every_file_in_one_package(wheel):
    """Every tracked file of the five package folders is in the wheel, under ctrs/, and nothing else is."""
    want = set()
    for rel in _tree_files():
        top, _, rest = rel.partition("/")
        if top in PACKAGE_DIRS and rest:
            want.add(f"{PACKAGE_DIRS[top]}/{rest}")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        top_level = z.read("ctrs-0.1.0.dist-info/top_level.txt").decode().split()
        meta = z.read("ctrs-0.1.0.dist-info/METADATA").decode()
    assert {n for n in names if not n.startswith("ctrs-0.1.0.dist-info/")} == want
    for data in ("ctrs/rules/cutile.toml", "ctrs/rules/triton.toml", "ctrs/rules/triton_helpers.py",
                 "ctrs/rules/triton_philox.py",
                 "ctrs/grammars/tileir.lark", "ctrs/llm_fallback/allowlist.txt",
                 "ctrs/llm_fallback/prompts/system.j2", "ctrs/emitters/templates/harness/Cargo.lock",
                 "ctrs/emitters/templates/port/kernel.rs.j2"):
        assert data in names, data
    assert top_level == ["ctrs"]
    requires = [ln.split(":", 1)[1].strip() for ln in meta.splitlines() if ln.startswith("Requires-Dist:")]
    core = sorted(r for r in requires if "extra ==" not in r)
    assert [r.split(">")[0].split("<")[0].lower() for r in core] == ["jinja2", "lark", "libcst", "packaging"]
    assert all("==" not in r.split(";")[0] for r in requires), requires  # ranges only: the pins live in constraints.txt
    assert {ln.split(":", 1)[1].strip() for ln in meta.splitlines() if ln.startswith("Provides-Extra:")} == \
        {"verify", "gpu", "llm", "dev", "specs"}


# ------------------------------------------------------------------------------------------ a fresh venv


def test_core_install_translates_and_regenerates(venv, tmp_path):
    bindir, seconds = venv
    assert seconds < 30, f"core install took {seconds:.1f} s"
    site = _site_packages(bindir)
    assert _dists(site) - {"pip", "setuptools"} == CORE
    # one top-level import package from ctrs, none of the repository's folder names
    record = (site / "ctrs-0.1.0.dist-info" / "RECORD").read_text().splitlines()
    tops = {ln.split(",")[0].split("/")[0] for ln in record}
    assert {t for t in tops if not t.startswith("..")} == {"ctrs", "ctrs-0.1.0.dist-info"}
    assert not any((site / n).exists() for n in PACKAGE_DIRS)
    ctrs = bindir / "ctrs"
    env = _cli_env()

    # translate: a cuTile fixture and a Triton one (its Philox helper is read from the installed rules/)
    for fx in ("vector_add", "triton_dropout"):
        r = _run([ctrs, "translate", FIX / fx / "kernel.py", "-o", tmp_path / fx], cwd=tmp_path, env=env)
        want = {n: generated.add_header(n, text, by="ctrs translate").decode()
                for n, text in translate.translate_source(FIX / fx / "kernel.py").items()}
        assert r.stdout.splitlines() == [str(tmp_path / fx / n) for n in want]
        assert {n: (tmp_path / fx / n).read_text() for n in want} == want  # byte-identical to the checkout's

    # regen from a manifest, then up to date
    work = tmp_path / "work"
    (work / "kernels").mkdir(parents=True)
    shutil.copy(FIX / "vector_add" / "kernel.py", work / "kernels" / "vector_add.py")
    shutil.copy(FIX / "triton_vector_add" / "kernel.py", work / "kernels" / "triton_add.py")
    (work / "ctrs.toml").write_text('[[port]]\nsource = "kernels/*.py"\noutput = "ports/{stem}"\n')
    r = _run([ctrs, "regen"], cwd=work, env=env)
    assert "regenerated ports/triton_add" in r.stdout and "regenerated ports/vector_add" in r.stdout
    assert regen.verify_header("kernel.rs", (work / "ports" / "vector_add" / "kernel.rs").read_bytes()) is True
    assert _run([ctrs, "regen", "--check"], cwd=work, env=env).stdout == ""

    # what the core lacks is named with the extra that brings it
    r = _run([ctrs, "doctor"], env=env, check=False)
    assert r.returncode == 1
    assert "MISSING cuda-tile" in r.stdout and "(fix: pip install 'ctrs[verify]'" in r.stdout
    assert "ctrs doctor: missing: openai (pip install 'ctrs[llm]')" in r.stderr
    r = _run([ctrs, "check", FIX / "vector_add" / "kernel.py"], cwd=tmp_path, env=env, check=False)
    assert r.returncode == 3 and r.stdout == ""
    assert r.stderr == "error[CTRS-E002]: Python module 'filelock' is not installed (ctrs[verify]) " \
                       "(hint: pip install 'ctrs[verify]')\n"
    r = _run([ctrs, "translate", "--llm", FIX / "vector_add" / "kernel.py", "-o", tmp_path / "llm"], env=env,
             check=False)
    assert r.returncode == 3 and "error[CTRS-E002]: ctrs translate --llm needs the optional dependencies of " \
                                 "ctrs[llm,verify] (hint: pip install 'ctrs[llm,verify]')" in r.stderr
    assert not (tmp_path / "llm").exists()
    (work / "ctrs.toml").write_text('[[port]]\nsource = "kernels/*.py"\noutput = "ports/{stem}"\nllm = true\n')
    r = _run([ctrs, "regen", "--force", "kernels/vector_add.py"], cwd=work, env=env, check=False)
    assert r.returncode == 3 and "error[CTRS-E002]: llm = true in ctrs.toml needs the optional dependencies of " \
                                 "ctrs[llm,verify]" in r.stderr


def _verify_closure_tops() -> set[Path]:
    """The installed top-level modules of the [verify] extra's distributions and everything they require."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    todo = [re.match(r"[A-Za-z0-9._-]+", r).group(0) for r in meta["project"]["optional-dependencies"]["verify"]]
    seen, tops = set(), set()
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        todo += [re.match(r"[A-Za-z0-9._-]+", r).group(0) for r in dist.requires or []]
        for f in dist.files or []:
            if not f.parts[0].startswith("..") and not f.parts[0].endswith((".dist-info", "__pycache__")):
                tops.add(Path(dist.locate_file(f.parts[0])))
    return {t for t in tops if t.exists()}


def test_installed_llm_fallback(venv, wheel, wheelhouse, tmp_path):
    """`ctrs translate --llm` from the installed wheel against the LLM tests' local scripted server: the prompts
    and the allowlist come from the installed package data. [llm] (openai and its dependencies) is installed for
    real; the [verify] toolchain (cuda-tile + ~600 MB of CUDA wheels, libclang, filelock) is linked from this
    test run's own environment instead of being installed again: a .pth placed after the venv's own
    site-packages, so ctrs and openai still come from the fresh venv."""
    pytest.importorskip("openai")
    if importlib.util.find_spec("cuda.tile") is None:
        pytest.skip("needs the [verify] toolchain in the test environment")
    from tests.test_llm_fallback import GOOD, KEY, MODEL, Server

    bindir, _ = venv
    _run([bindir / "python", "-m", "pip", "install", "-q", "-c", ROOT / "constraints.txt", f"{wheel}[llm]"],
         env=_pip_env(wheelhouse))
    linked = tmp_path / "verify-toolchain"
    linked.mkdir()
    for top in _verify_closure_tops():
        (linked / top.name).symlink_to(top)
    (_site_packages(bindir) / "zz-ctrs-verify-toolchain.pth").write_text(f"{linked}\n")

    kernel = ROOT / "tests" / "data" / "llm_atan2.py"
    with Server([GOOD]) as srv:
        env = _cli_env(OPENAI_BASE_URL=srv.url, OPENAI_API_KEY=KEY, CTRS_LLM_CACHE=str(tmp_path / "llm-cache"))
        r = _run([bindir / "ctrs", "translate", kernel, "-o", tmp_path / "port", "--llm", "--llm-model", MODEL,
                  "--spec", ROOT / "tests" / "data" / "llm_atan2.json"], cwd=tmp_path, env=env)
        assert len(srv.requests) == 1
        system = srv.requests[0]["body"]["messages"][0]["content"]
    assert "absf" in system  # the system prompt rendered from the installed prompts/system.j2 + allowlist.txt
    rs = (tmp_path / "port" / "kernel.rs").read_text()
    assert f"let a: Tile<E, {{ [TILE] }}> = /* ctrs-llm {MODEL} " in rs, r.stdout + r.stderr
    ana = json.loads((tmp_path / "port" / "analysis.json").read_text())
    assert ana["llm_fallback"]["constructs"][0]["rust"] == ["let a: Tile<E, { [TILE] }> = atan2(t, t);"]
    probe = "import ctrs, openai, cuda.tile; print(ctrs.__file__); print(openai.__file__)"
    files = _run([bindir / "python", "-c", probe], env=_cli_env()).stdout.split()
    assert all(f.startswith(str(_site_packages(bindir))) for f in files), files


# ------------------------------------------------------------------------------------------ pre-commit as published


def test_published_regen_hook(source_repo, wheelhouse, tmp_path):
    """The real pre-commit installs ctrs-regen from a local clone (`language: python`, pip, core only) and the
    hook regenerates, refuses hand edits and catches a deleted generated file, as the README documents."""
    pre_commit = Path(PY).parent / "pre-commit"
    if not pre_commit.exists():
        pytest.skip("needs pre-commit (dev extra)")
    src, rev = source_repo
    work = tmp_path / "work"
    (work / "kernels").mkdir(parents=True)
    shutil.copy(FIX / "vector_add" / "kernel.py", work / "kernels" / "vector_add.py")
    (work / "ctrs.toml").write_text('[[port]]\nsource = "kernels/*.py"\noutput = "ports/{stem}"\n')
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {src}\n  rev: {rev}\n  hooks:\n  - id: ctrs-regen\n")
    env = {**_git_env(tmp_path), **{k: v for k, v in _pip_env(wheelhouse).items() if k.startswith("PIP_")}}

    def run(*cmd, check=True):
        return _run(cmd, cwd=work, env=env, check=check)

    def commit(msg):
        r = run("git", "commit", "-q", "-m", msg, check=False)
        return r.returncode, r.stdout + r.stderr

    run("git", "init", "-q", "-b", "main")
    run(pre_commit, "install")
    run("git", "add", "-A")
    rc, out = commit("kernel")  # the hook env is installed here, then the hook generates the port and fails
    assert rc != 0 and "ctrs regen" in out and "Failed" in out, out
    assert "regenerated ports/vector_add from kernels/vector_add.py" in out
    port = work / "ports" / "vector_add"
    assert regen.verify_header("kernel.rs", (port / "kernel.rs").read_bytes()) is True
    run("git", "add", "-A")
    rc, out = commit("kernel + port")
    assert rc == 0 and "Passed" in out, out

    # the hook's environment: the core only
    (site,) = (tmp_path / "pc-home").glob("repo*/py_env-*/lib/python3*/site-packages")
    assert _dists(site) - {"pip", "setuptools", "wheel"} == CORE

    # a staged hand edit is refused and left as written
    ffi = port / "ffi.rs"
    edited = ffi.read_text() + "// my tweak\n"
    ffi.write_text(edited)
    run("git", "add", "-A")
    rc, out = commit("tweak")
    assert rc != 0 and "ports/vector_add/ffi.rs: error[CTRS-E060]: generated file edited by hand" in out, out
    assert ffi.read_text() == edited
    run("git", "checkout", "HEAD", "--", "ports/vector_add/ffi.rs")

    # a deleted generated file (pre-commit passes no file for it) is regenerated and the commit stops
    run("git", "rm", "-q", "ports/vector_add/kernel.rs")
    rc, out = commit("lose kernel.rs")
    assert rc != 0 and "regenerated ports/vector_add from kernels/vector_add.py (kernel.rs)" in out, out
    run("git", "add", "-A")
    assert run("git", "status", "--porcelain").stdout == ""
