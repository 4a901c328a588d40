"""DecisionView in JupyterLab (the p_t slider re-chooses in the kernel: the chosen counts, the
linked RocSlice and the kernel's state follow; a kernel-side cost redraws; a refused cost changes
nothing; a hostile class label is text) and in the static HTML export, offline (both panels, the
bands, the iso-cost line, the slice with its bubbles; the slider steps through the values of p_t whose
states the page carries, and the view and its slice are drawn as the kernel draws the choice at that
cost)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.metrics import confusion_matrix

if TYPE_CHECKING:
    from conftest import LabSession

#: A positive label that would run script if it were written as markup.
HOSTILE = '<img src=x onerror="window.__pwned=1">$x^$'
#: Test data (run here too, for the references): rounded scores, so with tied blocks.
DATA = (
    "import numpy as np\n"
    "rng = np.random.default_rng(5)\n"
    "truth = rng.uniform(size=500) < 0.3\n"
    "score = np.round(rng.normal(1.4 * truth, 1.0), 2)\n"
    f"y = np.where(truth, {HOSTILE!r}, 'other').astype(object)\n"
)
CELLS = [
    DATA + "import confusionlab as cl\n"
    f"choice = cl.choose_threshold(y, score, positive={HOSTILE!r}, cost=(1, 4))\n"
    "view = cl.DecisionView(choice, width=700)\n"
    "view"
]


def references() -> tuple[np.ndarray, np.ndarray]:
    data: dict[str, Any] = {}
    exec(DATA, data)
    return data["truth"], data["score"]


def best_counts(truth: np.ndarray, score: np.ndarray, cost: tuple[float, float]) -> tuple[int, int, int]:
    """Brute force: (candidates, TP, FP) of the cheapest threshold among the distinct scores and +inf (the
    lowest of equals), counted by scikit-learn's confusion_matrix."""
    candidates = [*np.unique(score), np.inf]
    best = None
    for t in candidates:
        _, fp, fn, tp = confusion_matrix(truth, score >= t, labels=[False, True]).ravel()
        value = (cost[0] * fp + cost[1] * fn) / truth.size
        if best is None or value < best[0] - 1e-12:
            best = (value, int(tp), int(fp))
    return len(candidates), best[1], best[2]


def decision(m: int, tp: int, fp: int) -> str:
    return f'.confusionlab-decision[data-candidates="{m}"][data-tp="{tp}"][data-fp="{fp}"]'


def test_decision_view_in_jupyterlab(lab: LabSession, tmp_path: Path) -> None:
    truth, score = references()
    p, n = int(truth.sum()), int((~truth).sum())
    m, tp, fp = best_counts(truth, score, (1, 4))
    name = "decision_view.ipynb"
    lab.open_notebook(name, CELLS, wait_for=decision(m, tp, fp) + '[data-iso="1"]')
    page = lab.page
    kernel = lab.kernel(name)
    root = page.locator(".confusionlab-decision")
    assert root.get_attribute("data-pt") == "0.2"
    assert int(root.get_attribute("data-roc-band")) > 0 and int(root.get_attribute("data-pointwise")) > 0
    assert root.get_attribute("data-plausible") == str(kernel.evaluate("int(choice.plausible_thresholds.size)"))
    page.wait_for_selector(f'.confusionlab-roc-slice[data-p="{p}"][data-n="{n}"][data-tp="{tp}"][data-tn="{n - fp}"]')
    # a hostile label is written as text: no element made of it, nothing run
    assert HOSTILE in root.locator(".cl-title").inner_text()
    assert root.locator("img").count() == 0 and page.evaluate("window.__pwned") is None

    # the slider: p_t = 0.1 keeps the total 5, so the cost becomes (0.5, 4.5); the kernel re-chooses
    root.locator("input.cl-cost").fill("0.1")
    m, tp, fp = best_counts(truth, score, (0.5, 4.5))
    page.wait_for_selector(decision(m, tp, fp) + '[data-pt="0.1"][data-pending="0"]')
    page.wait_for_selector(f'.confusionlab-roc-slice[data-tp="{tp}"][data-tn="{n - fp}"]')
    cost = kernel.evaluate("view.cost")
    assert np.allclose(cost, [0.5, 4.5], rtol=1e-12)
    assert kernel.evaluate("view.choice.confusion_matrix.tp") == tp

    # a cost set in the kernel redraws
    kernel.execute("view.cost = [3, 1]")
    m, tp, fp = best_counts(truth, score, (3, 1))
    page.wait_for_selector(decision(m, tp, fp) + '[data-pt="0.75"]')

    # a refused cost changes nothing (the generation stamp proves the browser heard after it)
    kernel.execute(
        "try:\n    view.cost = [-1, 1]\nexcept cl.InvalidParameterError as e:\n    refused = str(e)\n"
        "view.update(generation=1)"
    )
    page.wait_for_selector('.confusionlab-decision[data-generation="1"]')
    assert root.get_attribute("data-pt") == "0.75" and root.get_attribute("data-tp") == str(tp)
    assert "cost" in kernel.evaluate("refused")
    page.screenshot(path=str(tmp_path / "decision_view.png"))


#: Drawn state of the k-th DecisionView of the page and of the k-th slice: data attributes, texts, pixels.
DRAWN_JS = """
(k) => {
  const view = document.querySelectorAll('.confusionlab-decision')[k];
  const slice = document.querySelectorAll('.confusionlab-roc-slice')[k];
  const data = (root) => Object.fromEntries(Object.entries(root.dataset).filter(([key]) =>
    !['draws', 'drawMs', 'staticPositions', 'generation'].includes(key)));
  const pixels = (root) => [...root.querySelectorAll('canvas')].map((c) => c.toDataURL());
  const texts = ['.cl-title', '.cl-summary', '.cl-readout', '.cl-note', '.cl-cost-label']
    .map((s) => view.querySelector(s).textContent);
  return { view: data(view), texts, viewPixels: pixels(view), slice: data(slice), slicePixels: pixels(slice) };
}
"""


def test_decision_view_draws_in_the_export_without_network(exported_page: Any, tmp_path: Path) -> None:
    """Offline the slider steps through the saved values of p_t; at p_t = 0.1 (cost (0.5, 4.5), the
    total 5 kept) the view and its slice are drawn exactly as a DecisionView the kernel built at that
    cost (the second view of the page), with the brute-force cheapest threshold's counts."""
    truth, score = references()
    m, tp, fp = best_counts(truth, score, (1, 4))
    reference = f"cl.DecisionView(cl.choose_threshold(y, score, positive={HOSTILE!r}, cost=(0.5, 4.5)), width=700)"
    with exported_page([*CELLS, reference], name="decision", viewport=(1500, 1600)) as page:
        root = page.wait_for_selector(decision(m, tp, fp) + '[data-iso="1"]')
        page.wait_for_selector('body[data-confusionlab-views="2"]')
        assert int(root.get_attribute("data-roc-band")) > 0 and int(root.get_attribute("data-pointwise")) > 0
        assert int(root.get_attribute("data-runs")) >= 1
        text = page.inner_text(".confusionlab-decision >> nth=0")
        assert "valid after choosing" in text and "p_t 0.2" in text and HOSTILE in text
        assert page.locator(".confusionlab-decision img").count() == 0 and page.evaluate("window.__pwned") is None
        # the linked slice: the chosen matrix with its PMF bubbles and the staircase through the lattice
        n = int((~truth).sum())
        page.wait_for_selector(f'.confusionlab-roc-slice[data-tp="{tp}"][data-tn="{n - fp}"]')
        assert int(page.locator(".confusionlab-roc-slice").first.get_attribute("data-bubbles")) > 0
        # the slider steps through p_t = 0.05, 0.10, ..., 0.95 (the exported 0.2 among them), as the page says
        slider = page.locator(".confusionlab-decision >> nth=0 >> input.cl-cost")
        assert root.get_attribute("data-static-positions") == "19"
        assert (slider.get_attribute("max"), slider.input_value()) == ("18", "3")
        note = page.inner_text(".confusionlab-decision >> nth=0 >> .cl-static")
        assert "snaps to the 19 of 999 values of p_t" in note
        target = page.evaluate(DRAWN_JS, 1)
        assert page.evaluate(DRAWN_JS, 0) != target
        slider.fill("1")  # p_t = 0.1
        m, tp, fp = best_counts(truth, score, (0.5, 4.5))
        page.wait_for_selector(decision(m, tp, fp) + '[data-pt="0.1"][data-pending="0"]')
        page.wait_for_selector(f'.confusionlab-roc-slice[data-tp="{tp}"][data-tn="{n - fp}"]')
        assert target["view"]["tp"] == str(tp) and target["slice"]["tn"] == str(n - fp)
        assert page.evaluate(DRAWN_JS, 0) == target  # the kernel's choice at that cost, pixel for pixel
        page.screenshot(path=str(tmp_path / "decision_export.png"), full_page=True)
