"""The input layer moved from ``confusionlab.bias.engines`` to ``confusionlab._tables``: the old path
still imports, for one release, with a FutureWarning naming the new one."""

from __future__ import annotations

import importlib
import sys

import pandas as pd
import pytest

PACKAGE = "confusionlab.bias.engines"
OLD = [PACKAGE, *(f"{PACKAGE}.{m}" for m in ("table", "spark", "pandas", "dask", "narwhals"))]


def _forget_old_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n.startswith(PACKAGE)]:
        monkeypatch.delitem(sys.modules, name)


@pytest.mark.parametrize("old", OLD)
def test_importing_the_old_path_warns_naming_the_new_one(old, monkeypatch):
    _forget_old_modules(monkeypatch)
    new = old.replace(PACKAGE, "confusionlab._tables")
    if old != PACKAGE:  # a submodule imports the package first, which warns on its own
        with pytest.warns(FutureWarning, match=r"^confusionlab[.]bias[.]engines is moved to confusionlab[.]_tables;"):
            importlib.import_module(PACKAGE)
    with pytest.warns(FutureWarning, match=rf"^{old.replace('.', '[.]')} is moved to {new.replace('.', '[.]')};"):
        module = importlib.import_module(old)
    assert all(hasattr(module, name) for name in module.__all__)


def test_the_old_names_count_as_the_new_ones(monkeypatch):
    _forget_old_modules(monkeypatch)
    from confusionlab._tables import count_columns
    from confusionlab.bias._request import BiasRequest
    from confusionlab.bias.selection import facet_selection, label_selection

    df = pd.DataFrame({"y": [1, 0, 1, 1, 0], "p": [1, 0, 0, 1, 1], "s": ["F", "M", "F", "M", "M"]})
    with pytest.warns(FutureWarning, match="confusionlab._tables"):
        from confusionlab.bias.engines import CountRequest, count_cells
        from confusionlab.bias.engines.table import count_columns as old_count_columns
    assert CountRequest is BiasRequest
    cells = count_cells(df, CountRequest("y", label_selection([1]), facet_selection("s", ["F"]), "p"))
    assert sorted(zip(cells.keys["_f"], cells.keys["_l"], cells.keys["_p"], cells.n, strict=True)) == [
        (False, 0, 0, 1),
        (False, 0, 1, 1),
        (False, 1, 1, 1),
        (True, 1, 0, 1),
        (True, 1, 1, 1),
    ]
    old, new = old_count_columns(df, {"y_true": "y"}), count_columns(df, {"y_true": "y"})
    assert old.values == new.values and old.n.tolist() == new.n.tolist()
