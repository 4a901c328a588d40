"""The tour notebook, as a user runs it: every cell in JupyterLab, every view drawn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import nbformat

if TYPE_CHECKING:
    from conftest import LabSession

TOUR = Path(__file__).resolve().parents[2] / "notebooks" / "01_tour.ipynb"


def test_tour_runs_and_shows_the_explorer(lab: LabSession, tmp_path: Path) -> None:
    cells = [c.source for c in nbformat.read(TOUR, as_version=4).cells if c.cell_type == "code"]
    lab.open_notebook("tour.ipynb", cells, wait_for='.confusionlab-explorer .confusionlab-roc-slice[data-n="41"]')
    page = lab.page
    # the explorer followed the last cell (N = 61, so n = 41) in all its views
    page.wait_for_selector('.confusionlab-explorer .confusionlab-simplex[data-n="61"]')
    page.wait_for_selector('.confusionlab-explorer .confusionlab-roc-slice[data-points="882"]')
    page.wait_for_selector(".confusionlab-explorer .confusionlab-metric-pmf")
    # the stand-alone views of the earlier cells are drawn too
    assert page.locator('.confusionlab-simplex[data-points="39711"]').count() >= 1
    assert page.locator('.confusionlab-roc-slice[data-points="861"]').count() >= 1
    errors = page.locator(".jp-OutputArea-output[data-mime-type*='error']")
    assert errors.count() == 0, errors.all_inner_texts()
    page.screenshot(path=str(tmp_path / "tour.png"), full_page=True)
