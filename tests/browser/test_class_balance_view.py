"""Lesson 05's class-balance slider drives the MetricPMF view in a real JupyterLab."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conftest import LabSession


def test_prevalence_slider_moves_the_pmf(lab: LabSession, tmp_path: Path) -> None:
    name = "class_balance.ipynb"
    lab.open_notebook(
        name,
        [
            "from confusionlab.lessons.comparison import class_balance_view\n"
            "box = class_balance_view(1000, tpr=0.8, tnr=0.8, prevalence=0.01)\n"
            "box",
        ],
        wait_for='.confusionlab-metric-pmf[data-p="10"][data-n="990"][data-tp="8"]',
    )
    page = lab.page
    page.get_by_text("prevalence π").first.wait_for()
    kernel = lab.kernel(name)
    kernel.execute("box.slider.value = 0.1")  # as a drag would: the slider's value, then the view
    assert kernel.evaluate("(box.pmf.p, box.pmf.tp, box.pmf.tn)") == [100, 80, 720]
    page.wait_for_selector('.confusionlab-metric-pmf[data-p="100"][data-n="900"][data-tp="80"][data-tn="720"]')
    page.wait_for_selector(".widget-slider .widget-readout", state="attached")
    assert "0.100" in page.inner_text(".widget-slider")  # the browser's slider followed the kernel
    page.screenshot(path=str(tmp_path / "class_balance.png"))
