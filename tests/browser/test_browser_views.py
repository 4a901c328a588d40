"""BiasView and StabilityView (canvas charts in ipywidgets boxes) render in a real JupyterLab."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import LabSession

#: Marks drawn by the views' canvas charts (their data-marks), summed.
COUNT_MARKS_JS = """
(root) => [...document.querySelectorAll(root + ' .confusionlab-chart')]
  .reduce((n, e) => n + Number(e.dataset.marks || 0), 0)
"""


def test_bias_view_renders_points_clouds_and_table(lab: LabSession, tmp_path: Path) -> None:
    name = "bias_view.ipynb"
    lab.open_notebook(
        name,
        [
            "from confusionlab import bias\n"
            "from confusionlab.widgets.bias_view import BiasView\n"
            "table = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))\n"
            "view = BiasView(bias.report_from_counts(table, n_draws=2000), n_draws=200)\n"
            "view",
        ],
        wait_for=".confusionlab-bias-view .confusionlab-bias-plot[data-marks]",
    )
    page = lab.page
    page.get_by_text("DPPL", exact=False).first.wait_for()
    marks = page.evaluate(COUNT_MARKS_JS, ".confusionlab-bias-view")
    assert marks == 2 + 2 * 200 + 2, f"{marks} marks drawn: diagonal, two clouds of 200, two facets expected"
    page.screenshot(path=str(tmp_path / "bias_view.png"))


def test_stability_view_follows_the_target_from_the_kernel(lab: LabSession, tmp_path: Path) -> None:
    name = "stability_view.ipynb"
    lab.open_notebook(
        name,
        [
            "import numpy as np\n"
            "from confusionlab.widgets.stability_view import StabilityView\n"
            "N = np.array([10, 20, 50, 100, 200, 500])\n"
            "view = StabilityView(n_learners=N, stability=N / (N + 40.0), stability_target=0.9)\n"
            "view",
        ],
        wait_for=".confusionlab-stability-view .confusionlab-stability-plot[data-marks]",
    )
    page = lab.page
    kernel = lab.kernel(name)
    first = kernel.evaluate("view.label.value")
    assert "Recommended for the target" in first
    page.get_by_text(first).wait_for()
    kernel.execute("view.stability_target = 0.95")
    second = kernel.evaluate("view.label.value")
    assert second != first and "0.950" in second
    page.get_by_text(second).wait_for()  # the browser shows the kernel's new recommendation
    page.screenshot(path=str(tmp_path / "stability_view.png"))
