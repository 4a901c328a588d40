"""The Inspect log lesson 17 reads ships inside the package: the same bytes as the tests' reference log.

``src/confusionlab/data/logs/inspect_items.eval`` is a copy of ``tests/data/logs/inspect_items.eval``
(written by Inspect 0.3.285, see ``tests/data/logs/make_inspect_logs.py``), so the numbers the lesson
shows are the ones ``tests/items/test_inspect_reference.py`` checks against Inspect's own metrics.
"""

from __future__ import annotations

import hashlib
from importlib.resources import files
from pathlib import Path

ROOT = Path(__file__).parents[2]
SHIPPED = files("confusionlab") / "data" / "logs"


def test_the_shipped_log_is_the_reference_log() -> None:
    shipped = (SHIPPED / "inspect_items.eval").read_bytes()
    assert shipped == (ROOT / "tests" / "data" / "logs" / "inspect_items.eval").read_bytes()
    note = (SHIPPED / "README.md").read_text(encoding="utf-8")
    assert hashlib.sha256(shipped).hexdigest() in note and "inspect-ai` 0.3.285" in note
