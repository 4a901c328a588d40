"""PlannerView renders in a real JupyterLab and follows its sliders and the kernel."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import LabSession


def test_planner_draws_the_curve_and_follows_changes(lab: LabSession, tmp_path: Path) -> None:
    name = "planner_view.ipynb"
    lab.open_notebook(
        name,
        [
            "from confusionlab.widgets.planner_view import PlannerView\n"
            "view = PlannerView(metric='recall', prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1,\n"
            "                   target='next_test_set')\n"
            "view",
        ],
        wait_for=".confusionlab-planner[data-n='229']",
    )
    page = lab.page
    root = page.locator(".confusionlab-planner")
    assert int(root.get_attribute("data-points")) > 0
    assert int(root.get_attribute("data-jumps")) > 0  # the half-width is not monotone in N
    page.get_by_text("N = 229", exact=False).wait_for()

    # A change from the kernel reaches the browser.
    kernel = lab.kernel(name)
    kernel.execute("view.half_width = 0.05")
    expected = kernel.evaluate("view.plan()['N']")
    generation = kernel.evaluate("view.generation")
    page.wait_for_selector(
        f".confusionlab-planner[data-n='{expected}'][data-requested-half-width='0.05'][data-generation='{generation}']"
    )

    # A slider change in the browser reaches the kernel, which plans again.
    slider = root.locator("input[data-key=half_width]")
    slider.evaluate("(e) => { e.value = '0.1'; e.dispatchEvent(new Event('change')); }")
    page.wait_for_selector(".confusionlab-planner[data-n='229'][data-requested-half-width='0.1']")
    assert kernel.evaluate("view.half_width") == 0.1
    page.screenshot(path=str(tmp_path / "planner_view.png"))
