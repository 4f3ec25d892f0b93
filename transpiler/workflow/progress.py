"""Progress for long work (directory translate, ``ctrs check`` over many specs, bundle, the corpus benchmark).

On a terminal: one line rewritten in place (``[3/40] softmax.py  12s``) on stderr, cleared at the end.
Anywhere else (CI logs, pipes, files): one plain line per step, nothing rewritten, no escape codes.
Standard library only: the pre-commit fast path and the CLI import it freely.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``step(label)`` before each unit of work, ``done()`` at the end; ``total`` units in all."""

    def __init__(self, total: int, what: str = "", stream: TextIO | None = None, tty: bool | None = None):
        self.total = total
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.i = 0
        self.t0 = time.monotonic()

    def _prefix(self) -> str:
        return f"{self.what}: " if self.what else ""

    def step(self, label: object) -> None:
        self.i += 1
        self._show(f"{self._prefix()}[{self.i}/{self.total}] {label}")

    def status(self, label: object) -> None:
        """A phase before the counted steps (e.g. the port crate's cargo build), not counted; terminal only (logs
        get the counted steps, and a failing phase's one-line error stays the only line on stderr)."""
        if self.tty:
            self._show(f"{self._prefix()}{label}")

    def _show(self, line: str) -> None:
        if self.tty:
            line += f"  {time.monotonic() - self.t0:.0f}s"
            self.stream.write(f"\r{line}\033[K")
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty:  # leave the terminal clean; the caller prints its own summary
            self.stream.write("\r\033[K")
            self.stream.flush()

    def note(self, text: str) -> None:
        """Print a result line on stdout without mangling the progress line (cleared first on a terminal)."""
        self.done()
        print(text, flush=True)

    def callback(self):
        """The ``progress(i, n, label)`` callback the library functions take (label None: finished)."""

        def progress(i: int, n: int, label) -> None:
            self.total = n
            if label is None:
                self.done()
            else:
                self.step(label)

        return progress
