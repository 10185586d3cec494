"""Shared fixtures: every generator test runs against both backends."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
BACKENDS = ("reference", "native")


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each test taking ``backend`` runs once per implementation."""
    return str(request.param)


def load_golden() -> list[dict[str, Any]]:
    with gzip.open(DATA / "moves.jsonl.gz", "rt", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def as_comparable(triples: Any) -> set[tuple[str, str, tuple[str, ...]]]:
    """Platform triples as a set, cards sorted, for order-free comparison."""
    return {(kind, rank, tuple(sorted(cards))) for kind, rank, cards in triples}
