"""rules/ir.toml, the typed pipeline's one rules table (front end: which ct.* call is which IR op;
emitter: how each IR op is spelled in Rust). See docs/ir.md, "Adding a rule as data"."""

from __future__ import annotations

import tomllib
from functools import cache

from . import paths


@cache
def ir_rules() -> dict:
    return tomllib.loads(paths.data("rules", "ir.toml").read_text())
