"""``to_html(path=...)`` of every result class refuses a path that is not one, naming ``path``.

Before, ``to_html(path=3)`` raised pathlib's TypeError after the whole page was built."""

from __future__ import annotations

import importlib
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

import confusionlab

HERE = Path(__file__).parent
CASES = {}
for _path in sorted(HERE.glob("results_*.py")):
    CASES.update(importlib.import_module(_path.stem).CASES)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("path", [3, 2.5, b"page.html", ["page.html"]], ids=["int", "float", "bytes", "list"])
def test_a_path_that_is_not_one_is_refused_by_name(name, path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CASES[name]()
    with pytest.raises(confusionlab.InvalidParameterError, match=r"^path must be a path"):
        result.to_html(path=path)
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_path_like_is_written(tmp_path):
    result = CASES["RocCurve"]()
    target = tmp_path / "roc.html"
    assert result.to_html(path=str(target)) == target.read_text(encoding="utf-8")
