#!/usr/bin/env bash
# Set up (idempotent), then the main job on a bundled kernel written for this repository
# (fixtures/fused_rms_norm: fused residual add + RMS norm, a constant branch, a dtype generic):
#   1. ctrs translate  -> the generated cuTile Rust port crate (kernel.rs ...) and the decisions behind it
#   2. ctrs check      -> build the port, prove every specialisation by Tile IR: one EQUIVALENT row each
#   3. sm_90 cubins    -> both sides assembled by tileiras
# Usage: scripts/demo.sh [OUT_DIR]   (default out/demo)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
out="${1:-$root/out/demo}"
ctrs="$root/.venv/bin/ctrs"
fx="$root/fixtures/fused_rms_norm"
rel() { case "$1" in "$PWD"/*) echo "${1#"$PWD"/}" ;; *) echo "$1" ;; esac; }
SECONDS=0

echo "== 1/3 ctrs translate $(rel "$fx/kernel.py") -o $(rel "$out/port") --explain"
mkdir -p "$out"
"$ctrs" translate "$fx/kernel.py" -o "$out/port" --explain > "$out/translate.log"
echo "  decisions (--explain; line: kernel: kind: decision):"
sed -n -e 's#^.*/kernel\.py:\([0-9]*\): #    line \1: #p' "$out/translate.log"
echo "  wrote $(rel "$(sed -n -e '/\/kernel\.rs$/p' "$out/translate.log")") (+ lib.rs, ffi.rs, Cargo.toml, wrapper.py: a crate)"

echo "   (${SECONDS}s)"; t=$SECONDS
echo "== 2/3 ctrs check $(rel "$fx/kernel.py") --port $(rel "$out/port")   (specs: $(rel "$fx/specs.json"))"
"$ctrs" check "$fx/kernel.py" --port "$out/port"

echo "   ($((SECONDS - t))s)"; t=$SECONDS
echo "== 3/3 sm_90 cubins (reference: cuTile Python; port: the generated kernel.rs)"
"$ctrs" ir-ref "$fx/kernel.py" --spec "$fx/specs.json" -o "$out/ir" --cubin > /dev/null
"$ctrs" ir-rs "$out/port/kernel.rs" --spec "$fx/specs.json" -o "$out/ir" --cubin > /dev/null
for f in "$out"/ir/*.cubin; do echo "  $(rel "$f") ($(stat -c %s "$f") bytes)"; done
echo "   ($((SECONDS - t))s)"
echo "demo: done in ${SECONDS}s after set-up"
