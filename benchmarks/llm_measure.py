"""Measure the LLM fallback on real kernels (not a test): TileGym 1.5.1 through ``benchmarks/corpus.py --llm``,
against the scripted local server (llm_fallback/scripted.py, 127.0.0.1) answering three real constructs with
answers written by hand (ANSWERS below); every other construct that reaches the model gets a non-answer
(rejected before building). Answers are verified like any other: IR-equivalent for every committed spec of the
kernel (benchmarks/corpus/tilegym-1.5.1/<front>/<file>.json, or --specs-dir).

    .venv/bin/python benchmarks/llm_measure.py [--specs-dir DIR] [--out DIR]

Prints and writes (``<out>/llm-measure-tilegym-1.5.1.{md,json}``) one row per kernel that reached the model:
the constructs asked for, and accepted / rejected with the reason.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

# construct (the Python / Triton text the prompt names) -> the answer the scripted "model" gives
ANSWERS = {
    # moe_align_block.py _moe_align_block_size_stage2_kernel, line 54: the first construct the typed front end
    # sends there (`offsets = ct.arange(...) * NUM_EXPERTS + base_offset`)
    "ct.arange(NUM_EXPERTS_POW2, dtype=ct.int32)":
        "```rust\nlet llm_value: Tile<i32, { [NUM_EXPERTS_POW2] }> = iota(const_shape![NUM_EXPERTS_POW2]);\n```",
    # layer_norm_legacy.py _persistent_layer_norm_fwd_kernel, line 151: ceil-division of two ct.Constant ints
    "ct.cdiv(N, BLOCK_N)": "```rust\nlet upper_bound: i32 = (N + BLOCK_N - 1) / BLOCK_N;\n```",
    # moe_align_block.py _moe_align_block_size_stage2_kernel: inclusive prefix sum of an int32 (E) tile
    "ct.cumsum(token_cnts_vec, axis=0)":
        "```rust\nlet cumsum: Tile<E, { [NUM_EXPERTS_POW2] }> = scan_sum(token_cnts_vec, 0i32, reverse::Forward, "
        "E::ZERO);\n```",
    # chunk_gated_delta_rule.py _intra_chunk_prepare_kernel: a prefix sum of an f32 tile along the chunk axis
    "ct.cumsum(g_raw, axis=0)":
        "```rust\nlet g_cum: Tile<f32, { [CHUNK_SIZE] }> = scan_sum(g_raw, 0i32, reverse::Forward, 0.0f32);\n```",
    # layer_norm_legacy.py _persistent_layer_norm_fwd_kernel: the logistic function 1 / (1 + exp(-y))
    "ct.sigmoid(y)":
        "```rust\nlet e: Tile<f32, { [1, BLOCK_D] }> = exp(negf(y));\n"
        "let one: Tile<f32, { [1, BLOCK_D] }> = constant(1.0f32, const_shape![1, BLOCK_D]);\n"
        "let llm_value: Tile<f32, { [1, BLOCK_D] }> = true_div(one, addf(one, e, rounding::NearestEven, "
        "ftz::Disabled));\n```",
}
NO_ANSWER = "I cannot port this construct."
_EXPR = re.compile(r"The \w+ to translate is `(.*?)` \(line")


def answer_for(body: dict) -> str:
    user = body["messages"][1]["content"]
    m = _EXPR.search(user)
    return ANSWERS.get(m.group(1) if m else "", NO_ANSWER)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--specs-dir", default=str(corpus.COMMITTED), help="committed corpus specs (per front end)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    a = ap.parse_args(argv)
    from ctrs.llm_fallback.config import Config  # noqa: PLC0415
    from ctrs.llm_fallback.scripted import Server  # noqa: PLC0415

    corpus.COMMITTED = Path(a.specs_dir)
    with tempfile.TemporaryDirectory(prefix="ctrs-llm-measure-") as cache, \
            Server([answer_for] * 1000) as srv:
        cfg = Config(model="scripted-hand-answers", base_url=srv.url, attempts=1, cache_dir=Path(cache),
                     log=lambda m: print(m, file=sys.stderr, flush=True))
        ks = corpus.run("translate", None, True, llm=cfg)
        asked: dict[str, list[str]] = {}
        for r in srv.requests:
            user = r["body"]["messages"][1]["content"]
            m, where = _EXPR.search(user), re.search(r"at (_ctrs_\S+?):(\d+):\d+", user)
            if m and where:
                asked.setdefault(where.group(1), []).append(f"{m.group(1)} (line {where.group(2)})")
    rows = []
    for k in ks:
        variant = f"_ctrs_{Path(k.file).stem}__{k.name}.py"
        if variant not in asked or k.tier == "rules":  # (a cuTile and a Triton file may share a variant name)
            continue
        why = "" if k.tier == "llm" else (k.blockers[0]["text"] if k.blockers else "")
        why = re.sub(r"\S*/tilegym-1\.5\.1/src/", "", why)  # no local cache paths in the report
        rows.append({"kernel": f"{k.file.split('/ops/', 1)[-1]}:{k.name}", "asked": asked[variant],
                     "scripted": [q for q in asked[variant] if q.rsplit(" (line", 1)[0] in ANSWERS],
                     "result": "accepted" if k.tier == "llm" else "rejected", "why": why})
    acc = sum(r["result"] == "accepted" for r in rows)
    scripted = [r for r in rows if r["scripted"]]
    head = (f"TileGym 1.5.1: {len(ks)} kernels, {sum(k.tier == 'rules' for k in ks)} by rules; "
            f"{len(rows)} reached the model ({sum(len(r['asked']) for r in rows)} constructs); "
            f"{len(scripted)} with a scripted answer; accepted {acc}, rejected {len(rows) - acc}")
    print(head)
    lines = [f"# LLM fallback on TileGym 1.5.1 (scripted answers)\n\n{head}\n",
             "| kernel | constructs asked | scripted | result | why |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['kernel']} | {'; '.join(r['asked'])} | {'; '.join(r['scripted']) or '-'} | {r['result']} "
                     f"| {r['why'].replace('|', '/')[:400]} |")
        print(f"{r['result']:9s} {r['kernel']}: asked {r['asked']}; {r['why'][:300]}")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "llm-measure-tilegym-1.5.1.md").write_text("\n".join(lines) + "\n")
    (out / "llm-measure-tilegym-1.5.1.json").write_text(json.dumps({"summary": head, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
