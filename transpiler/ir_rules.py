"""The rules tables the typed pipeline reads: rules/ir.toml (front end: which ct.* call is which IR op; emitter:
how each IR op is spelled in Rust, reserved const names, op declarations) and rules/cutile.toml (cuTile Python's
call signatures, dtypes, host dtypes, element entries; no Rust text). See docs/ir.md, "Adding a rule as data"."""

from __future__ import annotations

from functools import cache

from . import paths, rules_loader

RULES_PATH = paths.data("rules", "cutile.toml")


def ir_rules() -> dict:
    """rules/ir.toml, checked against its schema (rules_loader.IR) and loaded once."""
    return rules_loader.shipped("ir")


@cache
def cutile_rules(path: str = str(RULES_PATH)) -> dict:
    """rules/cutile.toml (or another file of its schema, rules_loader.CUTILE), checked and loaded once."""
    return rules_loader.load("cutile", path)
