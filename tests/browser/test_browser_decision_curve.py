"""DecisionCurveView in JupyterLab (the curves, the shaded intervals and bands, the cursor's readout;
the slider moves the cursor and the kernel's ``threshold`` follows; a threshold set in the kernel
moves it; a refused one changes nothing; a hostile model name is text) and in the static HTML
export, offline (everything drawn, and the slider still moves the readout: the cursor only picks a
column of numbers the page holds)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy import stats

if TYPE_CHECKING:
    from conftest import LabSession

#: A model name that would run script if it were written as markup.
HOSTILE = '<img src=x onerror="window.__pwned=1">$x^$'
#: Test data (run here too, for the references): risks strictly inside (0, 1).
DATA = (
    "import numpy as np\n"
    "rng = np.random.default_rng(8)\n"
    "risk = np.clip(rng.beta(2, 5, size=600), 0.001, 0.999)\n"
    "y = rng.uniform(size=600) < risk\n"
)
CELLS = [
    DATA + "import confusionlab as cl\n"
    f"dc = cl.decision_curve(y, {{'logistic': risk, {HOSTILE!r}: risk.round(1)}})\n"
    "view = dc.view(threshold=0.2, width=700)\n"
    "view"
]


def references(t: float) -> tuple[float, float, float]:
    """At threshold probability ``t``, by counting: the first model's net benefit TP/N − FP/N · t/(1 − t),
    P(useful) = P(PPV > t) as scipy's Beta(TP + α, FP + α) tail (α = ½, the curve's default prior), and
    the second model's net benefit."""
    data: dict[str, Any] = {}
    exec(DATA, data)
    y, risk = data["y"], data["risk"]
    out = []
    for r in (risk, risk.round(1)):
        tp, fp = int(np.sum(y & (r >= t))), int(np.sum(~y & (r >= t)))
        out.append((tp / y.size - fp / y.size * t / (1 - t), tp, fp))
    (nb, tp, fp), (nb2, *_) = out
    return nb, float(stats.beta.sf(t, tp + 0.5, fp + 0.5)), nb2


def _values(root: Any, name: str) -> list[float]:
    return [float(v) for v in root.get_attribute(name).split(";")]


def _check_cursor(root: Any, t: float) -> None:
    nb, useful, nb2 = references(t)
    assert float(root.get_attribute("data-threshold")) == t
    assert np.allclose(_values(root, "data-net-benefit"), [nb, nb2], rtol=0, atol=1e-12)
    assert np.isclose(_values(root, "data-prob-useful")[0], useful, rtol=0, atol=1e-9)


def test_decision_curve_view_in_jupyterlab(lab: LabSession, tmp_path: Path) -> None:
    name = "decision_curve_view.ipynb"
    selector = '.confusionlab-decision-curve[data-strategies="4"][data-thresholds="100"][data-index="20"]'
    lab.open_notebook(name, CELLS, wait_for=selector)
    page = lab.page
    kernel = lab.kernel(name)
    assert kernel.evaluate("dc.prior") == 0.5
    root = page.locator(".confusionlab-decision-curve")
    assert root.get_attribute("data-lines") == "4" and root.get_attribute("data-shaded") == "5"
    _check_cursor(root, 0.2)
    text = root.inner_text()
    assert "Darker shade" in text and "Lighter, wider shade" in text and "P(useful)" in text
    assert HOSTILE in root.locator(".cl-readout").inner_text()
    assert root.locator("img").count() == 0 and page.evaluate("window.__pwned") is None

    # the slider moves the cursor; the kernel's threshold follows
    root.locator("input.cl-threshold").fill("35")
    page.wait_for_selector('.confusionlab-decision-curve[data-index="35"]')
    _check_cursor(root, 0.35)
    assert kernel.evaluate("view.threshold") == 0.35

    # a threshold set in the kernel moves it
    kernel.execute("view.threshold = 0.1")
    page.wait_for_selector('.confusionlab-decision-curve[data-index="10"]')
    _check_cursor(root, 0.1)

    # a refused threshold changes nothing (the generation stamp proves the browser heard after it)
    kernel.execute(
        "try:\n    view.threshold = 1.5\nexcept cl.InvalidParameterError as e:\n    refused = str(e)\n"
        "view.update(generation=1)"
    )
    page.wait_for_selector('.confusionlab-decision-curve[data-generation="1"]')
    assert root.get_attribute("data-index") == "10" and "threshold" in kernel.evaluate("refused")
    page.screenshot(path=str(tmp_path / "decision_curve_view.png"))


def test_decision_curve_view_draws_in_the_export_without_network(exported_page: Any, tmp_path: Path) -> None:
    with exported_page(CELLS, name="decision_curve", viewport=(1200, 1000)) as page:
        root = page.wait_for_selector('.confusionlab-decision-curve[data-strategies="4"][data-index="20"]')
        assert root.get_attribute("data-lines") == "4" and root.get_attribute("data-shaded") == "5"
        _check_cursor(root, 0.2)
        text = page.inner_text(".confusionlab-decision-curve")
        assert "Lighter, wider shade" in text and HOSTILE in text
        assert page.locator(".confusionlab-decision-curve img").count() == 0 and page.evaluate("window.__pwned") is None
        # offline the cursor still moves: every column's numbers are in the page
        page.locator(".confusionlab-decision-curve input.cl-threshold").fill("5")
        page.wait_for_selector('.confusionlab-decision-curve[data-index="5"]')
        _check_cursor(root, 0.05)
        page.screenshot(path=str(tmp_path / "decision_curve_export.png"), full_page=True)
