#!/usr/bin/env bash
# Set up (idempotent) and run the main job on a bundled example: prove the vector-add port
# (reference Tile IR from cuTile Python vs port Tile IR from cuTile Rust, structural diff, sm_90 cubins).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/bootstrap.sh"
out="${1:-$root/out/demo}"
ctrs="$root/.venv/bin/ctrs"
fx="$root/fixtures/vector_add"
"$ctrs" ir-ref "$fx/kernel.py" --spec "$fx/specs.json" -o "$out" --cubin
"$ctrs" ir-rs "$fx/port.rs" --spec "$fx/specs.json" -o "$out" --cubin
for s in f32_n4096 f16_n1000; do
  "$ctrs" diff-ir "$out/$s.ref.tileirbc" "$out/$s.rs.tileirbc"
done
