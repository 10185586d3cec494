"""A one-line progress bar for long commands (arena, self-play, bench)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar"]


class ProgressBar:
    """A one-line text progress bar on a stream (stderr by default), redrawn in place."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.label = ""
        self._interactive = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_draw = 0.0

    def set_label(self, label: str) -> None:
        self.label = label
        if not self._interactive:
            self.stream.write(f"{label} ...\n")
            self.stream.flush()
        self._draw(force=True)

    def tick(self, n: int = 1) -> None:
        self.done += n
        self._draw()

    def _draw(self, force: bool = False) -> None:
        if not self._interactive:
            return
        now = time.monotonic()
        if not force and now - self._last_draw < 0.05 and self.done < self.total:
            return
        self._last_draw = now
        filled = min(self.width, self.width * self.done // self.total)
        percent = min(100, 100 * self.done // self.total)
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {percent:3d}%  {self.label:<40}")
        self.stream.flush()

    def close(self) -> None:
        if self._interactive:
            self._draw(force=True)
            self.stream.write("\n")
            self.stream.flush()
