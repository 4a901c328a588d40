"""CostCurveView in JupyterLab (the envelope, the hull lines, the band, the cursor's readout; the slider
moves the cursor and the kernel's ``probability_cost`` follows; a refused one changes nothing) and in
the static HTML export, offline (everything drawn, and the slider still moves the readout)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.metrics import roc_curve

if TYPE_CHECKING:
    from conftest import LabSession

#: Test data (run here too, for the references): rounded scores, so with ties.
DATA = (
    "import numpy as np\n"
    "rng = np.random.default_rng(6)\n"
    "y = (rng.uniform(size=400) < 0.35).astype(int)\n"
    "score = np.round(rng.normal(1.3 * y), 1)\n"
)
CELLS = [DATA + "import confusionlab as cl\nview = cl.cost_curve(y, score).view(probability_cost=0.3, width=600)\nview"]


def reference_cost(pc: float) -> float:
    """The cheapest of scikit-learn's ROC points' normalised expected costs (1 − TPR)·PC + FPR·(1 − PC)."""
    data: dict[str, Any] = {}
    exec(DATA, data)
    fpr, tpr, _ = roc_curve(data["y"], data["score"], drop_intermediate=False)
    return float(np.min((1 - tpr) * pc + fpr * (1 - pc)))


def _check_cursor(root: Any, pc: float) -> None:
    assert float(root.get_attribute("data-probability-cost")) == pc
    assert np.isclose(float(root.get_attribute("data-cost")), reference_cost(pc), rtol=0, atol=1e-12)
    lower, upper = (float(v) for v in root.get_attribute("data-band").split(";"))
    assert lower <= reference_cost(pc) <= upper


def test_cost_curve_view_in_jupyterlab(lab: LabSession, tmp_path: Path) -> None:
    name = "cost_curve_view.ipynb"
    lab.open_notebook(name, CELLS, wait_for='.confusionlab-cost-curve[data-points="501"][data-index="150"]')
    page = lab.page
    kernel = lab.kernel(name)
    root = page.locator(".confusionlab-cost-curve")
    assert root.get_attribute("data-shaded") == "1"
    assert int(root.get_attribute("data-hull")) == kernel.evaluate("int(view.curve.hull_fpr.size)") > 2
    _check_cursor(root, 0.3)
    assert "band that holds the true cost curve" in root.inner_text()

    root.locator("input.cl-probability-cost").fill("400")
    page.wait_for_selector('.confusionlab-cost-curve[data-index="400"]')
    _check_cursor(root, 0.8)
    assert kernel.evaluate("view.probability_cost") == 0.8

    kernel.execute(
        "try:\n    view.probability_cost = 1.5\nexcept cl.InvalidParameterError as e:\n    refused = str(e)\n"
        "view.update(generation=1)"
    )
    page.wait_for_selector('.confusionlab-cost-curve[data-generation="1"]')
    assert root.get_attribute("data-index") == "400" and "probability_cost" in kernel.evaluate("refused")
    page.screenshot(path=str(tmp_path / "cost_curve_view.png"))


def test_cost_curve_view_draws_in_the_export_without_network(exported_page: Any, tmp_path: Path) -> None:
    with exported_page(CELLS, name="cost_curve", viewport=(1100, 900)) as page:
        root = page.wait_for_selector('.confusionlab-cost-curve[data-points="501"][data-index="150"]')
        assert root.get_attribute("data-shaded") == "1" and int(root.get_attribute("data-hull")) > 2
        _check_cursor(root, 0.3)
        page.locator(".confusionlab-cost-curve input.cl-probability-cost").fill("50")
        page.wait_for_selector('.confusionlab-cost-curve[data-index="50"]')
        _check_cursor(root, 0.1)
        page.screenshot(path=str(tmp_path / "cost_curve_export.png"), full_page=True)
