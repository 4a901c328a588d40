"""The AuditView draws its verdict grid in JupyterLab (hover, click → kernel) and in the static export."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from conftest import wait_until

if TYPE_CHECKING:
    from conftest import LabSession

SETUP = (
    "import numpy as np, pandas as pd\n"
    "from confusionlab.bias.auditing import audit\n"
    "from confusionlab.widgets.audit_view import AuditView\n"
    "rng = np.random.default_rng(0)\n"
    "n = 2000\n"
    "df = pd.DataFrame({'sex': rng.choice(['F', 'M'], n), 'race': rng.choice(['a', 'b', 'c'], n, p=[.6, .35, .05])})\n"
    "df['y'] = (rng.random(n) < np.where(df.sex == 'F', .2, .5)).astype(int)\n"
    "df['p'] = np.where(rng.random(n) < .85, df.y, 1 - df.y)\n"
    "a = audit(df, label='y', positive_values=[1], predicted='p', facets=['sex', 'race'], intersections=True,\n"
    "          metrics=['DPPL', 'DI', 'RD'], margin=0.1, n_samples=1000)\n"
    "view = AuditView(a)\n"
    "view"
)


# 2 + 3 single groups, 6 intersections: 11 groups × 3 metrics.
GRID = '.confusionlab-audit[data-groups="11"][data-metrics="3"][data-cells="33"]'


def test_audit_view_hover_and_click_reach_the_kernel(lab: LabSession, tmp_path: Path) -> None:
    name = "audit_view.ipynb"
    lab.open_notebook(name, [SETUP], wait_for=GRID)
    page = lab.page
    kernel = lab.kernel(name)
    counts = kernel.evaluate("a.counts()")
    root = page.locator(".confusionlab-audit")
    assert root.get_attribute("data-bias") == str(counts["bias"])
    assert root.get_attribute("data-fair") == str(counts["no material bias"])
    assert root.get_attribute("data-insufficient") == str(counts["insufficient evidence"])
    grid = page.locator(".confusionlab-audit canvas.cl-grid")
    box = grid.bounding_box()
    # the first cell (sex: F · DPPL): 14 px right of the labels, below the 22-px header
    first = page.evaluate(
        "() => { const c = document.querySelector('.confusionlab-audit canvas.cl-grid');"
        " return c.getBoundingClientRect().width - 3 * 28 - 1; }"
    )
    grid.hover(position={"x": first + 14, "y": 22 + 14})
    # the cell's text spells out Clarify's abbreviation (issue 38)
    page.get_by_text("sex: F · difference in positive proportions in predicted labels (DPPL) =", exact=False).wait_for()
    grid.click(position={"x": first + 28 + 14, "y": 22 + 28 + 14})  # sex: M · DI
    page.wait_for_selector('.confusionlab-audit[data-selected="4"]')
    wait_until(lambda: kernel.evaluate("view.selected") == 4, 10, "the click never reached the kernel")
    row = kernel.evaluate("tuple(view.cell_row(4)[['facet', 'group', 'metric']])")
    assert list(row) == ["sex", "M", "DI"]
    assert box is not None and box["width"] > 3 * 28
    page.screenshot(path=str(tmp_path / "audit_view.png"))


def test_audit_view_in_the_static_export(exported_page: Any, tmp_path: Path) -> None:
    with exported_page([SETUP], name="audit", viewport=(1200, 900)) as page:
        page.wait_for_selector(GRID)
        text = page.inner_text(".confusionlab-audit")
        assert "Fairness audit: 11 groups × 3 metrics" in text
        assert "DPPL: difference in positive proportions in predicted labels · DI: disparate impact" in text  # the key
        page.screenshot(path=str(tmp_path / "audit_export.png"), full_page=True)
