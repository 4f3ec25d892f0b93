"""Build what the GPU host needs, in two stages that each fit one 64 MiB transfer.

The host has no Rust and no network, and tileiras 13.4 + ptxas + libnvvm alone pack to ~57 MiB, so:

  stage ``kit``   (~58 MiB): tileiras/ptxas/libnvvm as one tar.xz + the cp312 wheels the host lacks
                  (cuda-tile 1.7.0, cffi, pycparser). Unpacked once per host session.
  stage ``ports`` (a few MiB): per port its stripped release cdylib, generated wrapper.py and
                  analysis.json, the reference kernel.py and the specs to verify.

``ctrs bundle`` writes both under one directory; ``host_command`` prints the command that runs on the
host. Nothing here needs a GPU.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from .. import errors, toolchain, translate

KIT_FILES = ("bin/tileiras", "bin/ptxas", "lib/libnvvm.so.4")
HOST_WHEELS = ("cuda-tile==1.7.0", "cffi==2.0.0", "pycparser==2.23")
HOST_PYTHON = "3.12"


def build_kit(out: Path) -> Path:
    """tileiras + ptxas + libnvvm of the venv's pip kit as ``out/kit.tar.xz``. The archive (xz -9e, minutes of
    CPU) is built once per machine and kit version, in the ctrs cache, and linked (or copied) into every output
    directory that asks for it."""
    kit = toolchain.cuda_kit()
    if kit is None:
        toolchain.require("tileiras")
    digest = kit_digest()
    cached = toolchain.cache_root() / "kit" / f"kit-{digest[:16]}.tar.xz"
    if not cached.exists():
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".tmp{os.getpid()}")
        with lzma.open(tmp, "wb", preset=9 | lzma.PRESET_EXTREME) as xz, tarfile.open(fileobj=xz, mode="w") as tar:
            for rel in KIT_FILES:
                tar.add(kit / rel, arcname=rel)
        tmp.replace(cached)
    out.mkdir(parents=True, exist_ok=True)
    target = out / "kit.tar.xz"
    if target.exists() and target.stat().st_size == cached.stat().st_size and (out / "kit.stamp").exists() \
            and (out / "kit.stamp").read_text() == digest:
        return target
    tmp = target.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    try:
        os.link(cached, tmp)
    except OSError:  # another file system
        shutil.copy2(cached, tmp)
    tmp.replace(target)
    (out / "kit.stamp").write_text(digest)
    return target


def kit_digest() -> str:
    """Identity of the kit files (name, size, content hash of the first MiB)."""
    h = hashlib.sha256()
    for rel in KIT_FILES:
        f = toolchain.cuda_kit() / rel
        with open(f, "rb") as fh:
            h.update(f"{rel}:{f.stat().st_size}:".encode() + hashlib.sha256(fh.read(1 << 20)).digest())
    return h.hexdigest()


# The GPU-host runner travels inside stage 2 as the package ``ctrs`` (these modules only: standard library,
# torch and cuda.tile there), so the host needs no checkout of this repository.
RUNNER_MODULES = ("__init__", "errors", "gpu/__init__", "gpu/host", "gpu/proof", "verify/__init__",
                  "verify/ir_ref", "verify/refmodule", "verify/tileir_tools", "source", "spec", "spec_schema", "toolchain")


def _add(tar: tarfile.TarFile, path: Path, arcname: str) -> None:
    info = tar.gettarinfo(str(path), arcname=arcname)
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    with open(path, "rb") as fh:
        tar.addfile(info, fh)


def pack_ports(ports: Path, out: Path, names: list[str] | None = None) -> Path:
    """The port directories (``names``; default all under ``ports``) and the host runner (``runner/ctrs``) as one
    tar.xz, the second transfer stage. xz -9e: its 64 MiB dictionary spans several stripped cdylibs, which share
    most of their code (cutile's runtime), so N ports cost little more than one."""
    out.mkdir(parents=True, exist_ok=True)
    target = out / "ports.tar.xz"
    tmp = target.with_suffix(".tmp")
    src = Path(__file__).resolve().parent.parent  # the ctrs package's own modules
    with lzma.open(tmp, "wb", preset=9 | lzma.PRESET_EXTREME) as xz, tarfile.open(fileobj=xz, mode="w") as tar:
        for port in sorted(p for p in ports.iterdir() if (p / "bundle.json").exists()
                           and (names is None or p.name in names)):
            for f in sorted(q for q in port.rglob("*") if q.is_file()):
                _add(tar, f, f"ports/{port.name}/{f.relative_to(port).as_posix()}")
        for m in RUNNER_MODULES:
            _add(tar, src / f"{m}.py", f"runner/ctrs/{m}.py")
    tmp.replace(target)
    return target


def fetch_wheels(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--python-version",
           HOST_PYTHON, "--implementation", "cp", "--platform", "manylinux_2_28_x86_64", "--platform",
           "manylinux_2_17_x86_64", "--platform", "manylinux2014_x86_64", "-q", "-d", str(out), *HOST_WHEELS]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise errors.CtrsError(errors.TOOLCHAIN_MISSING, f"pip download of host wheels failed: {res.stderr.strip()[-200:]}",
                               "check that PyPI is reachable")
    return sorted(out.glob("*.whl"))


# Optional spec files of a port besides specs.json, run by gpu_host after every port's specs: "bench" (verified and
# timed: benchmark sizes), "numerics" (verified only: test shapes, drawn shapes).
EXTRA_SPECS = ("bench", "numerics")


def build_port(kernel_py: Path, specs: Path, out: Path, profile: str = "release", cutile: str | None = None) -> Path:
    """Translate for cutile ``cutile`` (a target profile; None: the enclosing targets.using, else the default),
    build the cdylib and collect everything the host needs for one kernel file."""
    name = kernel_py.parent.name if kernel_py.name == "kernel.py" else kernel_py.stem
    port = out / name
    crate = out.parent / "crates" / name
    # .gpu/crates/: ctrs's own build area; the port serves the launches it is run with (its specs and the
    # benchmark / numerics sizes beside them: array dtypes a launch mixes stay apart, dtypes.launch_groups)
    translate.translate(kernel_py, crate, force=True, cutile=cutile, specs=_launches(specs))
    cargo = ["cargo", "build", "--lib", "--message-format=json-render-diagnostics"] + (
        ["--release"] if profile == "release" else [])
    res = subprocess.run(cargo, cwd=crate, env=toolchain.cargo_env(), capture_output=True, text=True)
    if res.returncode != 0:
        raise errors.CtrsError(errors.RS_BUILD, f"cargo build of the {name} port failed: "
                               f"{(res.stderr.strip().splitlines() or ['?'])[-1]}", f"cd {crate} && cargo build",
                               errors.Loc(str(kernel_py)))
    so = None
    for line in res.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        if msg.get("reason") == "compiler-artifact" and "cdylib" in (msg.get("target") or {}).get("crate_types", []):
            so = next((Path(f) for f in msg.get("filenames", []) if f.endswith(".so")), so)
    if so is None:
        raise errors.CtrsError(errors.RS_BUILD, f"cargo built no cdylib for {name}", f"cd {crate} && cargo build")
    if port.exists():
        shutil.rmtree(port)
    port.mkdir(parents=True)
    lib = port / so.name
    shutil.copy2(so, lib)
    if shutil.which("strip"):
        subprocess.run(["strip", "--strip-unneeded", str(lib)], check=False)
    for f in ("wrapper.py", "analysis.json"):
        shutil.copy2(crate / f, port / f)
    shutil.copy2(kernel_py, port / "kernel.py")
    shutil.copy2(specs, port / "specs.json")
    meta = {"name": name, "lib": lib.name, "profile": profile,
            "cutile": json.loads((crate / "analysis.json").read_text())["cutile"]}
    reference = carry_reference(kernel_py, port / "ref")
    if reference is not None:
        meta["reference"] = reference
    for role in EXTRA_SPECS:  # <specs>.bench.json / .numerics.json next to the specs: more sizes (gpu_host)
        extra = specs.with_name(f"{specs.stem}.{role}.json")
        if extra.exists():
            shutil.copy2(extra, port / f"{role}.json")
    if (specs.parent / "regressions.json").exists():  # failures found by earlier GPU runs, replayed first
        shutil.copy2(specs.parent / "regressions.json", port / "regressions.json")
    (port / "bundle.json").write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return port


def _launches(specs: Path) -> list:
    """Every spec a port is run with: ``specs`` and its ``<stem>.bench.json`` / ``.numerics.json`` (EXTRA_SPECS)."""
    from ..spec import load_specs  # noqa: PLC0415

    out = list(load_specs(str(specs)))
    for role in EXTRA_SPECS:
        extra = specs.with_name(f"{specs.stem}.{role}.json")
        if extra.exists():
            out += load_specs(str(extra))
    return out


def carry_reference(kernel_py: Path, dest: Path) -> str | None:
    """The reference of a cuTile kernel file as the host builds it: the files its reference module reads
    (refmodule.files: the file, and what it imports from its own package, ``from .utils import f``), the
    ``__init__.py`` of every package on the way, laid out as in the source tree. The host then builds the
    reference from the kernels and what they use (refmodule), never running the file's host code, which may
    import packages the host does not have (``from tilegym.backend import register_impl``). Returns the kernel
    file's path under ``dest``'s parent (for bundle.json), or None when the host imports the whole file (one
    whose kernels cannot be extracted here, or a Triton file that needs nothing of its package).
    A Triton file inside a package (unsloth's kernels: ``from .utils import triton_tanh``, and a utils.py that
    imports the whole training stack) is carried like a cuTile one; on the host, where Triton is installed,
    refmodule builds the @triton.jit kernels and what they use."""
    from ..verify import refmodule  # noqa: PLC0415

    kernel_py = Path(kernel_py).resolve()
    try:
        files = refmodule.files(kernel_py)
    except errors.CtrsError:
        try:  # a Triton file here, where triton is not installed: the same files, found without running them
            files = sorted(refmodule.reads(kernel_py))
        except errors.CtrsError:
            return None  # the host imports the whole file
        if files == [kernel_py] and not _relative_imports(kernel_py) and not (kernel_py.parent / "__init__.py").exists():
            return None  # a file alone (our fixtures): the host imports the whole file, as it always did
        # a Triton file of a package is carried even when it reads nothing of it: its host code may import the
        # package absolutely (TileGym's ``from tilegym.backend import register_impl``), which the host lacks
    root = kernel_py.parent
    while (root / "__init__.py").exists():
        root = root.parent
    for f in files:
        if root not in f.parents:
            return None
    carry = set(files)
    for f in files:
        d = f.parent
        while d != root:
            if (d / "__init__.py").exists():
                carry.add(d / "__init__.py")
            d = d.parent
    for f in sorted(carry):
        target = dest / f.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, target)
    return (Path(dest.name) / kernel_py.relative_to(root)).as_posix()


def _relative_imports(path: Path) -> bool:
    """Whether ``path`` has a ``from .x import y`` anywhere (importing the whole file needs its package)."""
    import ast  # noqa: PLC0415

    try:
        tree = ast.parse(path.read_text())
    except SyntaxError:
        return False
    return any(isinstance(n, ast.ImportFrom) and n.level for n in ast.walk(tree))


def host_setup_command(kit_dir: str = ".gpu/kit", archive: str | None = None) -> str:
    """Stage 1 on the GPU host: unpack the kit (``archive``, default ``kit_dir``/kit.tar.xz), install the wheels
    (``kit_dir``/wheels), check the stack answers."""
    archive = archive or f"{kit_dir}/kit.tar.xz"
    return (
        f"set -e; mkdir -p /tmp/ctrs-kit /tmp/ctrs-site; tar -xJf {archive} -C /tmp/ctrs-kit; "
        f"python3 -m pip install -q --no-index --no-deps --target /tmp/ctrs-site {kit_dir}/wheels/*.whl; "
        f"env -u CUDA_HOME -u CUDA_PATH PYTHONPATH=/tmp/ctrs-site "
        f"python3 -c 'import cuda.tile, cffi, torch; print(cuda.tile.__version__, torch.cuda.get_device_name())'; "
        f"/tmp/ctrs-kit/bin/tileiras --version | tail -1"
    )


def host_command(stage2: str = ".gpu/stage2", fuzz: int = 50, reps: int = 30, budget_s: int = 0) -> str:
    """Stage 2 on the GPU host (right after stage 1, same machine): unpack the ports and the runner they carry,
    run everything. Nothing depends on the host's working directory but the relative ``stage2`` path."""
    return (
        f"set -e; [ -x /tmp/ctrs-kit/bin/tileiras ] || {{ echo 'stage 1 (kit) is missing: run it first'; exit 3; }}; "
        f"rm -rf /tmp/ctrs-bundle; mkdir -p /tmp/ctrs-bundle; tar -xJf {stage2}/ports.tar.xz -C /tmp/ctrs-bundle; "
        f"export PYTHONPATH=/tmp/ctrs-site:/tmp/ctrs-bundle/runner PYTHONUNBUFFERED=1 CTRS_SPECS_VALIDATED=1; "
        f"python3 -m ctrs.gpu.host /tmp/ctrs-bundle --kit /tmp/ctrs-kit --out ${{OUT:-ctrs-gpu-report}} "
        f"--fuzz {fuzz} --reps {reps}" + (f" --budget-s {budget_s}" if budget_s else "")
    )


def tree_bytes(root: Path | None = None) -> int:
    """What a device call sends besides the carried paths: the files of the git checkout at ``root`` (default: the
    working directory) that are tracked or untracked but not ignored; 0 outside a git checkout."""
    root = Path(root or Path.cwd())
    res = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, capture_output=True)
    if res.returncode != 0:
        return 0
    names = [n for n in res.stdout.decode("utf-8", "replace").split("\0") if n]
    return sum((root / n).stat().st_size for n in names if (root / n).is_file())


def one_transfer(kit_dir: Path, stage2: Path, limit_mib: float = 64.0) -> bool:
    """Whether both stages fit one transfer of ``limit_mib`` (kit, wheels and ports together, with the checkout
    the call sends along: ``tree_bytes``)."""
    files = [*kit_dir.glob("kit.tar.xz"), *kit_dir.glob("wheels/*.whl"), stage2 / "ports.tar.xz"]
    return sum(f.stat().st_size for f in files if f.exists()) + tree_bytes() <= limit_mib * 2**20


def display_path(p: Path) -> str:
    """``p`` as printed in host commands: relative to the working directory (never a local absolute path)."""
    return os.path.relpath(p.resolve(), Path.cwd().resolve())
