"""SSA values and source locations of the typed tile IR."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from .types import Type

_ids = itertools.count(1)


@dataclass(frozen=True)
class Loc:
    """Where an op came from: the kernel file, 1-based line and column (0 = unknown)."""
    file: str = ""
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(eq=False)
class Value:
    """One SSA value: a unique id, a type and an optional name hint (the emitter's variable name)."""
    type: Type
    hint: str = ""
    id: int = field(default_factory=lambda: next(_ids))

    def __repr__(self) -> str:
        return f"%{self.hint or 'v'}{self.id}:{self.type}"

    def __hash__(self) -> int:
        return self.id
