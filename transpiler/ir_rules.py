"""rules/ir.toml, the typed pipeline's one rules table (front end: which ct.* call is which IR op;
emitter: how each IR op is spelled in Rust). See docs/ir.md, "Adding a rule as data"."""

from __future__ import annotations

from . import rules_loader


def ir_rules() -> dict:
    """rules/ir.toml, checked against its schema (rules_loader.IR) and loaded once."""
    return rules_loader.shipped("ir")
