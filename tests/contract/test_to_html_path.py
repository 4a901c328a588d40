"""``to_html(path=...)`` of every result class refuses a path that is not one, naming ``path``, and so
do ``to_html`` and ``cl.report`` for a folder or a file in a folder that does not exist.

Before, ``to_html(path=3)`` raised pathlib's TypeError after the whole page was built, and a missing
folder raised ``FileNotFoundError`` (not the library's refusal) after it too."""

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


@pytest.mark.parametrize("where", ["missing/page.html", ".", ""], ids=["missing-folder", "a-folder", "empty"])
def test_a_folder_or_a_missing_folder_is_refused_by_name(where, tmp_path, monkeypatch):
    """``cl.report`` and ``to_html`` alike: found by the capped-child hypothesis test of ``report``."""
    monkeypatch.chdir(tmp_path)
    result = CASES["RocCurve"]()
    for write in (result.to_html, lambda path: confusionlab.report(result, path=path)):
        with pytest.raises(confusionlab.InvalidParameterError, match=r"^path: "):
            write(path=where)
    assert list(tmp_path.iterdir()) == []  # nothing written
