#!/usr/bin/env bash
# Idempotent set-up of everything ctrs needs, from the package registries only:
#   .venv with ctrs[dev] (editable) at the exact versions of constraints.txt (cuda-tile 1.7.0,
#   tileiras/tileirdisasm/ptxas/libnvvm 13.4.92, CUDA 13.4 headers, libclang, openai, pytest, pre-commit...),
#   then `ctrs doctor`, then a warm cutile build (cargo, crates.io).
# Re-running it is cheap: nothing is reinstalled unless pyproject.toml or constraints.txt changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv"
py="${PYTHON:-python3}"

if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "bootstrap: error[CTRS-E001]: cargo not found (hint: install Rust >= 1.89 with rustup)" >&2
    exit 1
  fi
fi

want="$(cat "$root/pyproject.toml" "$root/constraints.txt" | sha256sum | cut -c1-16)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.ctrs-stamp" 2>/dev/null)" != "$want" ]; then
  echo "bootstrap: creating $venv"
  "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$root/constraints.txt" -e "$root[dev]"
  echo "$want" > "$venv/.ctrs-stamp"
fi

"$venv/bin/ctrs" doctor
# Warm the shared cargo target dir (cutile + deps compile once per machine).
"$venv/bin/ctrs" ir-rs "$root/fixtures/vector_add/port.rs" --spec "$root/fixtures/vector_add/specs.json" >/dev/null
echo "bootstrap: ready"
