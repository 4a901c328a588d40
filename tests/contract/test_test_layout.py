"""The test tree itself: pytest imports a test file in a folder without ``__init__.py`` by its bare
name, so two such files with one name break collection of the whole suite."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).parents[1]


def test_test_files_outside_packages_have_distinct_names() -> None:
    bare = [p.name for p in TESTS.rglob("test_*.py") if not (p.parent / "__init__.py").exists()]
    repeated = sorted(name for name, count in Counter(bare).items() if count > 1)
    assert not repeated, f"give these folders an __init__.py or rename the files: {repeated}"
