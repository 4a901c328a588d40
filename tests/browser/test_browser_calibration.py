"""The CalibrationView in JupyterLab (the band and the summary from the kernel; a confidence
set from the kernel redraws, a refused one changes nothing) and in the static HTML export,
offline (nothing fetched from the network)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from conftest import LabSession

#: Test data: overconfident forecasts (some bins fall outside the band); run here too, for the references.
DATA = (
    "import numpy as np\n"
    "rng = np.random.default_rng(7)\n"
    "q = rng.beta(2, 3, size=4000)\n"
    "y = rng.uniform(size=q.size) < q ** 1.5\n"
)
CELLS = [
    DATA + "import confusionlab as cl\n"
    "cal = cl.calibration(y, q, bins=10, n_resamples=300, n_draws=2000, random_state=0)\n"
    "view = cl.CalibrationView(cal, width=380)\n"
    "view"
]


def _bins_by_scikit_learn() -> int:
    """Non-empty bins of the test data, from scikit-learn's calibration_curve."""
    from sklearn.calibration import calibration_curve

    data: dict[str, Any] = {}
    exec(DATA, data)
    prob_true, _ = calibration_curve(data["y"], data["q"], n_bins=10, strategy="quantile")
    return int(prob_true.size)


def test_calibration_view_in_jupyterlab(lab: LabSession, tmp_path: Path) -> None:
    name = "calibration_view.ipynb"
    bins = _bins_by_scikit_learn()
    lab.open_notebook(name, CELLS, wait_for=f'.confusionlab-calibration[data-bins="{bins}"][data-points="{bins}"]')
    page = lab.page
    kernel = lab.kernel(name)
    root = page.locator(".confusionlab-calibration")
    assert root.get_attribute("data-bands") == str(bins)
    assert int(root.get_attribute("data-bars")) > 10
    outside = kernel.evaluate("int(cal.band(0.95).outside.sum())")
    assert outside > 0 and root.get_attribute("data-outside") == str(outside)
    assert float(root.get_attribute("data-ece")) == kernel.evaluate("cal.value")
    text = root.inner_text()
    assert "ECE" in text and "95% interval" in text and "evidence of miscalibration at the 5% level" in text

    kernel.execute("view.confidence = 0.8")
    page.wait_for_selector('.confusionlab-calibration[data-confidence="0.8"]')
    assert root.get_attribute("data-outside") == str(kernel.evaluate("int(cal.band(0.8).outside.sum())"))
    assert "80% interval" in root.inner_text()

    kernel.execute(
        "try:\n    view.confidence = 1.5\nexcept cl.InvalidParameterError as e:\n    refused = str(e)\n"
        "view.update(generation=1)"
    )
    page.wait_for_selector('.confusionlab-calibration[data-generation="1"]')
    assert root.get_attribute("data-confidence") == "0.8"
    assert "confidence" in kernel.evaluate("refused")
    page.screenshot(path=str(tmp_path / "calibration_view.png"))


def test_calibration_view_draws_in_the_export_without_network(exported_page: Any, tmp_path: Path) -> None:
    bins = _bins_by_scikit_learn()
    with exported_page(CELLS, name="calibration", viewport=(1200, 900)) as page:
        root = page.wait_for_selector(f'.confusionlab-calibration[data-bins="{bins}"][data-points="{bins}"]')
        assert int(root.get_attribute("data-bands")) == bins and int(root.get_attribute("data-bars")) > 10
        assert int(root.get_attribute("data-outside")) > 0
        text = page.inner_text(".confusionlab-calibration")
        assert "ECE" in text and "consistency band" in text and "Monte Carlo draws" in text
        # the page holds the numbers themselves: the ECE as computed in this process
        data: dict[str, Any] = {}
        exec(DATA, data)
        import confusionlab as cl

        cal = cl.calibration(data["y"], data["q"], bins=10, n_resamples=300, n_draws=2000, random_state=0)
        assert np.isclose(float(root.get_attribute("data-ece")), cal.value, rtol=1e-12)
        page.screenshot(path=str(tmp_path / "calibration_export.png"), full_page=True)
