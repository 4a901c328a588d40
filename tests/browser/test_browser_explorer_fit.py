"""The Explorer on a 1,440 × 900 window (JupyterLab, file browser open), measured by bounding boxes.

Before issue 38 the Explorer got 1,008 px there: the slice (394 px) and the two PMF panels (504 px)
took an 898-px row and the simplex (292 × 454 px) wrapped below them, at 819–1,273 px (off the first
screen), leaving 716 × 454 px empty beside it. Now the slice (334), the PMF panels (424) and the
simplex (232) share one 990-px row: the Explorer is 1,008 × 631 px, every view ends by 775 px, and
18 px of the row are unused.

Screenshots go to ``$CONFUSIONLAB_SCREENSHOTS`` (default: the test's tmp dir).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from test_browser_layout import CELLS, MEASURE_JS, READY, SIMPLEX_READY, check_controls, overlap

if TYPE_CHECKING:
    from conftest import LabSession

SCREEN = {"width": 1440, "height": 900}


def test_jupyterlab_1440_by_900_fits_the_first_screen(lab: LabSession, tmp_path: Path) -> None:
    shots = Path(os.environ.get("CONFUSIONLAB_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    page = lab.page
    page.set_viewport_size(SCREEN)
    lab.open_notebook("fit_1440.ipynb", CELLS, wait_for=READY)
    page.wait_for_selector(SIMPLEX_READY, timeout=30_000)
    page.screenshot(path=str(shots / "explorer_lab_1440x900.png"))
    m: dict[str, Any] = page.evaluate(MEASURE_JS)
    print("JupyterLab 1440 x 900, file browser open:", {k: m[k] for k in ("explorer", "slice", "pmf", "simplex")})
    sl, pmf, sx, ex = m["slice"], m["pmf"], m["simplex"], m["explorer"]
    assert sl and pmf and sx, m
    for name, b in (("slice", sl), ("PMF", pmf), ("simplex", sx)):
        assert 0 <= b["top"] and b["bottom"] <= SCREEN["height"], f"the {name} {b} is not on the first screen"
        assert b["right"] <= ex["right"] + 1, f"the {name} {b} sticks out of the Explorer {ex}"
    for a, b in ((sl, pmf), (sl, sx), (pmf, sx)):
        assert not overlap(a, b), (a, b)
    # One row: the simplex's top is level with the slice's, to its right.
    assert abs(sx["top"] - sl["top"]) <= 1 and sx["left"] >= max(sl["right"], pmf["right"]) - 1, (sl, pmf, sx)
    # No empty area beside the simplex as large as the simplex itself: the views' row leaves
    # less than one simplex width unused.
    unused = ex["right"] - max(sl["right"], pmf["right"], sx["right"])
    assert unused < sx["width"], f"{unused:.0f} px unused to the right of the views in a {ex['width']:.0f}-px Explorer"
    assert m["overflow"] <= 1, f"the Explorer scrolls sideways by {m['overflow']} px"
    check_controls(m)
