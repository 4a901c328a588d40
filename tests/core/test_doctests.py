"""The examples in the core's docstrings run and give what they say."""

from __future__ import annotations

import doctest
import importlib

import pytest

CORE = ["_validation", "confusion", "metrics", "grouping", "lattice", "contours", "models", "distribution"]


@pytest.mark.parametrize("module", CORE)
def test_docstring_examples(module: str) -> None:
    mod = importlib.import_module(f"confusionlab.{module}")
    result = doctest.testmod(mod, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0
    if module not in ("grouping",):
        assert result.attempted > 0, f"{module} has no examples"
