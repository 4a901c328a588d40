"""Every notebook in notebooks/ and teacher/ runs top to bottom without an error, outputs cleared in git."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).parents[2]
NOTEBOOKS = sorted([*(ROOT / "notebooks").rglob("*.ipynb"), *(ROOT / "teacher").rglob("*.ipynb")])
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "notebooks/ holds no notebook"


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert all(not cell.get("outputs") for cell in nb.cells if cell.cell_type == "code"), (
        f"{path.name} is committed with outputs; clear them"
    )
    if path.name[:2].isdigit() and path.name[:2] != "01":
        source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
        assert "assert " in source, f"{path.name} must end by asserting its headline numbers"
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [
        output
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors
