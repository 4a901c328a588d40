"""Every notebook in notebooks/ and teacher/ runs top to bottom without an error, outputs cleared in git.

The lessons (notebooks/) run through the static export, which executes each one once and writes its
page, widgets drawing offline, to build/html/ (what ``make html`` writes): the documentation site
shows those pages (docs/conf.py; tests/browser/test_docs_lessons.py checks them), so CI executes no
lesson twice. A lesson that fails leaves no page behind.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from confusionlab.export import to_html

ROOT = Path(__file__).parents[2]
NOTEBOOKS = sorted([*(ROOT / "notebooks").rglob("*.ipynb"), *(ROOT / "teacher").rglob("*.ipynb")])
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]
#: The lessons' executed pages, read by the documentation site (docs/conf.py, ``LESSON_PAGES``).
LESSON_PAGES = ROOT / "build" / "html"


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
    if path.parent == ROOT / "notebooks":
        page = LESSON_PAGES / f"{path.stem}.html"
        page.unlink(missing_ok=True)
        # executes the lesson (in its own folder); a cell's error raises CellExecutionError
        assert to_html(path, LESSON_PAGES, timeout=300) == page
        return
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [
        output
        for cell in nb.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert not errors
