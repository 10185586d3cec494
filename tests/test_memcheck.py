"""The native generators under valgrind's memcheck, with buffers that grow to exactly the
room asked for (``scripts/memcheck.py``): a row written past the room made is a failure;
then the playouts, the encoders, the world sampler and the solver of the package.
Skipped without valgrind or outside the source tree (the script builds the generator of
the working tree)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "memcheck.py"


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
@pytest.mark.skipif(not SCRIPT.exists(), reason="needs the source tree (scripts/memcheck.py)")
def test_generators_never_write_past_the_room_they_made() -> None:
    pytest.importorskip("Cython", reason="the check builds the generator (pip install '.[test]')")
    done = subprocess.run([sys.executable, str(SCRIPT), "40"], check=False, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "memcheck: 0 invalid accesses" in done.stdout
