"""What both front ends' call registries share: the :class:`Call` a handler receives and the ``@lowers`` decorator
that fills a table (frontends/cutile/registry.py, frontends/triton/registry.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import libcst as cst


@dataclass
class Call:
    node: cst.Call
    fn: str
    pos: list
    kw: dict
    hint: str = ""


def registrar(table: dict[str, Callable]):
    """The ``@lowers(*names)`` decorator of ``table``: registers a handler under each name, never twice."""
    def lowers(*names: str):
        def register(f):
            for n in names:
                if n in table:
                    raise ValueError(f"two lowerings for {n}")
                table[n] = f
            return f
        return register
    return lowers
