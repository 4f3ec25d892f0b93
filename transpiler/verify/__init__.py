"""Tile IR verification: compile the reference (ir_ref) and the port (ir_rs), parse (irparse),
canonicalise (ircanon) and diff (irdiff) them.
"""
