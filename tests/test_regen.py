"""``ctrs regen`` + the pre-commit hooks, driven through the real ``pre-commit`` framework in temp git repos.

The hooks come from the repository's own ``.pre-commit-hooks.yaml``, turned into ``repo: local`` hooks
(``language: system``, entry = this venv's ``ctrs`` by absolute path) so nothing is downloaded or installed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ctrs.workflow import cli, regen

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures" / "vector_add"
CTRS = Path(sys.executable).parent / "ctrs"
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"

MANIFEST = """\
[[port]]
source = "kernels/*.py"
output = "ports/{stem}"
specs = "kernels/{stem}.specs.json"
llm = false
"""

pytestmark = pytest.mark.skipif(not (CTRS.exists() and PRE_COMMIT.exists()) or shutil.which("git") is None,
                                reason="needs the venv's ctrs + pre-commit (dev extra) and git")


def _env(tmp: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t", PRE_COMMIT_HOME=str(tmp / "pc-home"))
    return env


def _hooks_config() -> str:
    hooks = []
    for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text()):
        h = dict(h)
        assert h["entry"].startswith("ctrs ")
        h["entry"] = str(CTRS) + h["entry"][len("ctrs"):]
        h["language"] = "system"
        h.pop("additional_dependencies", None)  # installed by pre-commit only for language: python
        if h["id"] == "ctrs-check":
            h["stages"] = ["manual"]  # proven separately (it builds the port crate)
        hooks.append(h)
    return yaml.safe_dump({"repos": [{"repo": "local", "hooks": hooks}]}, sort_keys=True)


class Repo:
    def __init__(self, path: Path, tmp: Path):
        self.path = path
        self.env = _env(tmp)

    def run(self, *cmd, check=True) -> subprocess.CompletedProcess:
        r = subprocess.run([str(c) for c in cmd], cwd=self.path, env=self.env, capture_output=True, text=True,
                           timeout=600)
        if check and r.returncode != 0:
            raise AssertionError(f"{cmd} -> {r.returncode}\n{r.stdout}\n{r.stderr}")
        return r

    def git(self, *args, check=True):
        return self.run("git", *args, check=check)

    def commit(self, msg: str) -> subprocess.CompletedProcess:
        return self.git("commit", "-q", "-m", msg, check=False)

    def status(self) -> str:
        return self.git("status", "--porcelain", "--untracked-files=all").stdout


@pytest.fixture
def repo(tmp_path) -> Repo:
    d = tmp_path / "work"
    (d / "kernels").mkdir(parents=True)
    shutil.copy(FIX / "kernel.py", d / "kernels" / "vector_add.py")
    shutil.copy(FIX / "specs.json", d / "kernels" / "vector_add.specs.json")
    (d / "ctrs.toml").write_text(MANIFEST)
    (d / ".pre-commit-config.yaml").write_text(_hooks_config())
    (d / "README.txt").write_text("notes\n")
    r = Repo(d, tmp_path)
    r.git("init", "-q", "-b", "main")
    r.run(PRE_COMMIT, "install")
    return r


def _out(r: subprocess.CompletedProcess) -> str:
    return r.stdout + r.stderr


def test_hook_lifecycle(repo: Repo):
    port = repo.path / "ports" / "vector_add"
    # 1. first commit: the hook generates the port and fails; staging it makes the commit pass
    repo.git("add", "-A")
    r = repo.commit("kernel")
    assert r.returncode != 0, _out(r)
    assert "ctrs regen" in _out(r) and "Failed" in _out(r)
    assert (port / "kernel.rs").is_file() and (port / regen.STATE).is_file()
    repo.git("add", "-A")
    r = repo.commit("kernel + port")
    assert r.returncode == 0, _out(r)
    assert repo.status() == ""

    # 2. editing the kernel makes the hook fail and regenerate the port; committing again passes
    src = repo.path / "kernels" / "vector_add.py"
    src.write_text(src.read_text().replace("tile=lhs + rhs", "tile=rhs + lhs"))
    repo.git("add", "kernels/vector_add.py")
    r = repo.commit("swap")
    assert r.returncode != 0, _out(r)
    assert "files were modified by this hook" in _out(r) or "regenerated ports/vector_add" in _out(r)
    assert "= rhs + lhs;" in (port / "kernel.rs").read_text()
    assert "ports/vector_add/kernel.rs" in repo.status()
    repo.git("add", "-A")
    r = repo.commit("swap + port")
    assert r.returncode == 0, _out(r)
    assert repo.status() == ""

    # 3. a hand-edited port is refused (one line, CTRS-E060, the file named) and left as the user wrote it
    ffi = port / "ffi.rs"
    edited = ffi.read_text() + "// my local tweak\n"
    ffi.write_text(edited)
    repo.git("add", "-A")
    r = repo.commit("tweak")
    assert r.returncode != 0, _out(r)
    assert "ports/vector_add/ffi.rs: error[CTRS-E060]" in _out(r)
    assert ffi.read_text() == edited
    # --force discards the edit; the restored port commits cleanly
    repo.run(CTRS, "regen", "--force")
    assert "my local tweak" not in ffi.read_text()
    repo.git("add", "-A")
    assert repo.status() == ""

    # 4. nothing kernel-related staged: the hook runs and passes without touching anything
    (repo.path / "README.txt").write_text("more notes\n")
    repo.git("add", "README.txt")
    r = repo.commit("docs")
    assert r.returncode == 0, _out(r)
    assert "ctrs regen" in _out(r) and "Passed" in _out(r)

    # 5. a deleted kernel: its port dir is reported (hook fails), removed only with --prune
    repo.git("rm", "-q", "kernels/vector_add.py", "kernels/vector_add.specs.json")
    r = repo.commit("drop kernel")
    assert r.returncode != 0, _out(r)
    assert "stale port dir: ports/vector_add" in _out(r)
    assert port.is_dir()
    r = repo.run(CTRS, "regen", "--check", check=False)
    assert r.returncode == 1 and "stale port dir: ports/vector_add" in _out(r)
    repo.run(CTRS, "regen", "--prune")
    assert not port.exists()
    repo.git("add", "-A")
    r = repo.commit("drop kernel + port")
    assert r.returncode == 0, _out(r)
    assert repo.status() == ""


def test_check_diff_and_rename(repo: Repo):
    r = repo.run(CTRS, "regen", "--check", check=False)
    assert r.returncode == 1 and "missing: ports/vector_add" in r.stdout
    assert not (repo.path / "ports").exists()  # --check writes nothing
    repo.run(CTRS, "regen")
    assert repo.run(CTRS, "regen", "--check").stdout == ""
    # a content change is detected by hash, not mtime
    src = repo.path / "kernels" / "vector_add.py"
    src.write_text(src.read_text().replace("tile=lhs + rhs", "tile=rhs + lhs"))
    before = {p.name: p.read_bytes() for p in (repo.path / "ports" / "vector_add").iterdir()}
    r = repo.run(CTRS, "regen", "--check", check=False)
    assert r.returncode == 1 and "stale: ports/vector_add (kernels/vector_add.py changed)" in r.stdout
    r = repo.run(CTRS, "regen", "--diff")
    assert "--- a/ports/vector_add/kernel.rs" in r.stdout
    assert any(ln.startswith("+ ") and ln.endswith(": Tile<E, { [TILE] }> = rhs + lhs;") for ln in r.stdout.splitlines())
    assert {p.name: p.read_bytes() for p in (repo.path / "ports" / "vector_add").iterdir()} == before
    # renamed kernel: new port generated, old dir reported as stale until --prune
    src.rename(src.with_name("vadd.py"))
    r = repo.run(CTRS, "regen", check=False)
    assert r.returncode == 1
    assert "regenerated ports/vadd" in r.stdout and "stale port dir: ports/vector_add" in r.stdout
    r = repo.run(CTRS, "regen", "--prune")
    assert "pruned ports/vector_add" in r.stdout
    assert sorted(p.name for p in (repo.path / "ports").iterdir()) == ["vadd"]
    assert repo.run(CTRS, "regen", "--check").returncode == 0


def test_headers_and_checksums(repo: Repo):
    repo.run(CTRS, "regen")
    port = repo.path / "ports" / "vector_add"
    state = json.loads((port / regen.STATE).read_text())
    assert state["source"] == "kernels/vector_add.py" and state["generator"] == regen.GENERATOR
    for name in ("kernel.rs", "ffi.rs", "lib.rs", "wrapper.py", "Cargo.toml"):
        data = (port / name).read_bytes()
        assert data.startswith(b"// @generated by ctrs " if name.endswith(".rs") else b"# @generated by ctrs ")
        assert regen.verify_header(name, data) is True
        assert regen.verify_header(name, data + b"\n") is False
        assert regen.verify_header(name, data.split(b"\n", 1)[1]) is False  # header stripped
    analysis = json.loads((port / "analysis.json").read_text())
    assert analysis["ctrs_generated"]["generator"] == regen.GENERATOR
    assert regen.verify_header("analysis.json", (port / "analysis.json").read_bytes()) is True
    assert set(state["files"]) == {"Cargo.lock", "Cargo.toml", "analysis.json", "ffi.rs", "kernel.rs", "lib.rs",
                                   "wrapper.py"}
    # a hand-edited Cargo.lock (no header) is caught by the state checksum
    lock = port / "Cargo.lock"
    lock.write_text(lock.read_text() + "\n")
    r = repo.run(CTRS, "regen", "--check", check=False)
    assert r.returncode == 1 and "ports/vector_add/Cargo.lock: error[CTRS-E060]" in r.stderr
    r = repo.run(CTRS, "regen", check=False)
    assert r.returncode == 3 and "ports/vector_add/Cargo.lock: error[CTRS-E060]" in r.stderr
    repo.run(CTRS, "regen", "--force")
    assert repo.run(CTRS, "regen", "--check").stdout == ""


def test_identical_bytes_across_checkout_paths(tmp_path):
    """The same sources regenerated in two checkouts at different paths give byte-identical ports."""
    trees = []
    for where in ("a/checkout", "elsewhere/deeper/other-name"):
        d = tmp_path / where
        (d / "kernels").mkdir(parents=True)
        for fx in ("vector_add", "row_softmax", "matmul"):
            shutil.copy(ROOT / "fixtures" / fx / "kernel.py", d / "kernels" / f"{fx}.py")
        (d / "ctrs.toml").write_text(MANIFEST)
        assert cli.main(["regen", "--manifest", str(d / "ctrs.toml")]) == 0
        files = {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted((d / "ports").rglob("*")) if p.is_file()}
        trees.append(files)
        for data in files.values():
            assert str(tmp_path).encode() not in data
    assert len(trees[0]) == 3 * 8
    assert trees[0] == trees[1]


def test_manifest_errors(tmp_path, capsys):
    (tmp_path / "ctrs.toml").write_text('[[port]]\nsource = "k/*.py"\noutput = "ports/x"\n')
    assert cli.main(["regen", "--manifest", str(tmp_path / "ctrs.toml")]) == 3
    assert "error[CTRS-E061]" in capsys.readouterr().err
    (tmp_path / "ctrs.toml").write_text('[[port]]\nsource = "k/*.py"\noutput = "ports/{stem}"\nllm = "yes"\n')
    assert cli.main(["regen", "--manifest", str(tmp_path / "ctrs.toml")]) == 3
    assert "'llm' must be true or false" in capsys.readouterr().err
    (tmp_path / "ctrs.toml").write_text('[[port]]\nsource = "k/*.py"\noutput = "ports/{stem}"\ntarget = "sm_90"\n')
    assert cli.main(["regen", "--manifest", str(tmp_path / "ctrs.toml")]) == 3
    assert "[[port]] #1: 'target' removed: a port carries no GPU arch" in capsys.readouterr().err


def test_check_hook_proves_staged_kernel(repo: Repo):
    """The ctrs-check hook: no kernel staged -> passes at once; a staged kernel -> ctrs check with the specs."""
    repo.git("add", "README.txt")
    r = repo.run(PRE_COMMIT, "run", "ctrs-check", "--hook-stage", "manual", check=False)
    assert r.returncode == 0, _out(r)
    repo.run(CTRS, "regen")
    repo.git("add", "-A")
    r = repo.run(PRE_COMMIT, "run", "ctrs-check", "--hook-stage", "manual", "--verbose", check=False)
    assert r.returncode == 0, _out(r)
    assert "check kernels/vector_add.py against ports/vector_add" in _out(r)
    assert _out(r).count("EQUIVALENT") >= 2  # both specs of kernels/vector_add.specs.json


# ------------------------------------------------------------------------------------------ holes closed (issue 15)


def test_replaced_port_file_is_stale(repo: Repo):
    """A port file swapped for another valid generated file (own checksum fine, e.g. after a merge) is stale:
    every file is compared with the hash the state file recorded."""
    shutil.copy(ROOT / "fixtures" / "row_softmax" / "kernel.py", repo.path / "kernels" / "row_softmax.py")
    repo.run(CTRS, "regen")
    port = repo.path / "ports" / "vector_add"
    original = (port / "kernel.rs").read_bytes()
    other = (repo.path / "ports" / "row_softmax" / "kernel.rs").read_bytes()
    (port / "kernel.rs").write_bytes(other)
    assert regen.verify_header("kernel.rs", other) is True  # a valid generated file, just not this port's
    r = repo.run(CTRS, "regen", "--check", check=False)
    assert r.returncode == 1, _out(r)
    assert "stale: ports/vector_add (not the file(s) regen wrote: kernel.rs)" in r.stdout
    r = repo.run(CTRS, "regen")
    assert "regenerated ports/vector_add from kernels/vector_add.py (kernel.rs)" in r.stdout
    assert (port / "kernel.rs").read_bytes() == original
    assert repo.run(CTRS, "regen", "--check").stdout == ""


def test_hook_catches_deleted_generated_file(repo: Repo):
    """`git rm` of a generated file: pre-commit passes no file for it, the hook checks the whole manifest."""
    repo.run(CTRS, "regen")
    repo.git("add", "-A")
    assert repo.commit("kernel + port").returncode == 0
    kernel_rs = repo.path / "ports" / "vector_add" / "kernel.rs"
    original = kernel_rs.read_bytes()
    repo.git("rm", "-q", "ports/vector_add/kernel.rs")
    r = repo.commit("lose the port's kernel.rs")
    assert r.returncode != 0, _out(r)
    assert "regenerated ports/vector_add from kernels/vector_add.py (kernel.rs)" in _out(r)
    assert kernel_rs.read_bytes() == original
    repo.git("add", "-A")
    assert repo.status() == ""  # staging the regenerated file undoes the deletion: nothing left to commit


CT_FROM_IMPORT = """\
\"\"\"vector add, the kernel decorator imported by name (ctrs regen test).\"\"\"

import cuda.tile as ct
from cuda.tile import kernel as tile_kernel


@tile_kernel
def vadd_from(x, y, z, TILE: ct.Constant[int]):
    pid = ct.bid(0)
    ct.store(z, index=(pid,), tile=ct.load(x, index=(pid,), shape=(TILE,)) + ct.load(y, index=(pid,), shape=(TILE,)))
"""

HELPER = "\"\"\"Not a kernel: a helper module next to the kernels.\"\"\"\n\n\ndef grid(n, tile):\n    return (n + tile - 1) // tile,\n"


def test_every_kernel_form_regenerated(tmp_path, capsys):
    """cuTile kernels in every import form and Triton @jit files are ported, as `ctrs translate` does; a matched
    file without a kernel is named."""
    from ctrs import translate

    k = tmp_path / "kernels"
    k.mkdir()
    shutil.copy(FIX / "kernel.py", k / "vector_add.py")
    (k / "vadd_alias.py").write_text((FIX / "kernel.py").read_text().replace("import cuda.tile as ct",
                                                                            "import cuda.tile as cutile")
                                     .replace("ct.", "cutile."))
    (k / "vadd_from.py").write_text(CT_FROM_IMPORT)
    shutil.copy(ROOT / "fixtures" / "triton_vector_add" / "kernel.py", k / "triton_add.py")
    (k / "helpers.py").write_text(HELPER)
    (tmp_path / "ctrs.toml").write_text(MANIFEST)
    assert cli.main(["regen", "--manifest", str(tmp_path / "ctrs.toml")]) == 0
    out = capsys.readouterr()
    assert "ctrs regen: skipped kernels/helpers.py (matched by ctrs.toml, but no cuTile kernel or Triton @jit " \
           "function in it)" in out.err
    ports = sorted(p.name for p in (tmp_path / "ports").iterdir())
    assert ports == ["triton_add", "vadd_alias", "vadd_from", "vector_add"]
    for name in ports:  # exactly what `ctrs translate` writes for the file, plus regen's checksum line
        files = translate.translate_source(k / f"{name}.py")
        assert (tmp_path / "ports" / name / "kernel.rs").read_bytes() == regen.add_header("kernel.rs", files["kernel.rs"])
    assert [p.name for p in translate.kernel_files(k)] == [f"{n}.py" for n in ports]  # directory mode agrees
    assert cli.main(["regen", "--check", "--manifest", str(tmp_path / "ctrs.toml")]) == 0


def test_manifest_llm_runs_the_fallback(tmp_path, monkeypatch, capsys):
    """`llm = true`: regen translates with the verified LLM fallback (the scripted local server of the LLM tests);
    the answer is cached, so a later check needs no server."""
    pytest.importorskip("openai")
    from tests.test_llm_fallback import GOOD, KEY, MODEL, Server

    (tmp_path / "kernels").mkdir()
    shutil.copy(ROOT / "tests" / "data" / "llm_atan2.py", tmp_path / "kernels" / "llm_atan2.py")
    shutil.copy(ROOT / "tests" / "data" / "llm_atan2.json", tmp_path / "kernels" / "llm_atan2.specs.json")
    manifest = tmp_path / "ctrs.toml"
    manifest.write_text(MANIFEST.replace("llm = false", "llm = true"))
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("CTRS_LLM_MODEL", MODEL)
    monkeypatch.setenv("CTRS_LLM_CACHE", str(tmp_path / "llm-cache"))
    with Server([GOOD]) as srv:
        monkeypatch.setenv("OPENAI_BASE_URL", srv.url)
        assert cli.main(["regen", "--manifest", str(manifest)]) == 0, capsys.readouterr().err
        assert len(srv.requests) == 1
    rs = (tmp_path / "ports" / "llm_atan2" / "kernel.rs").read_text()
    assert f"let a: Tile<E, {{ [TILE] }}> = /* ctrs-llm {MODEL} " in rs
    state = json.loads((tmp_path / "ports" / "llm_atan2" / regen.STATE).read_text())
    assert state["options"] == {"llm": True, "cutile": "0.5.0"}  # the resolved default target
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens there
    assert cli.main(["regen", "--check", "--manifest", str(manifest)]) == 0
    # rules only (llm = false): the same kernel is one coded error, nothing written
    manifest.write_text(MANIFEST)
    capsys.readouterr()
    assert cli.main(["regen", "--force", "--manifest", str(manifest)]) == 3
    assert "error[CTRS-E124]: typed-IR front end: call 'ct.atan2'" in capsys.readouterr().err
    assert (tmp_path / "ports" / "llm_atan2" / "kernel.rs").read_text() == rs
