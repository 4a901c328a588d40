"""RocView and PrecisionRecallView in JupyterLab (the slider walks the threshold and the linked
RocSlice shows scikit-learn's confusion matrix at it; the kernel moves the view back; an arrow key on
the slice walks the threshold the other way) and in the
static HTML export, offline (the curve, the band, the slice with its staircase and bubbles; the
slider moves the linked slice to the state the kernel computes at that threshold, or, past the size
cap, snaps to the thresholds whose states the page carries and says so)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.metrics import confusion_matrix
from sklearn.metrics import roc_curve as sk_roc_curve

if TYPE_CHECKING:
    from conftest import LabSession

#: Test data (run here too, for the references): rounded scores, so with tied blocks.
DATA = (
    "import numpy as np\n"
    "rng = np.random.default_rng(11)\n"
    "y = rng.integers(0, 2, 400)\n"
    "score = np.round(rng.normal(1.3 * y, 1.0), 2)\n"
)
LAB_CELL = DATA + "import confusionlab as cl\nview = cl.RocView(cl.roc_curve(y, score), size=360)\nview"
EXPORT_CELLS = [
    DATA + "import confusionlab as cl\ncl.RocView(cl.roc_curve(y, score), size=360)",
    "cl.PrecisionRecallView(cl.precision_recall_curve(y, score), size=360)",
]


def references() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    data: dict[str, Any] = {}
    exec(DATA, data)
    y, score = data["y"], data["score"]
    _, _, thresholds = sk_roc_curve(y, score, drop_intermediate=False)
    return y, score, thresholds


def slice_selector(y: np.ndarray, predicted: np.ndarray) -> str:
    tn, fp, fn, tp = confusion_matrix(y, predicted, labels=[0, 1]).ravel()
    return f'.confusionlab-roc-slice[data-p="{tp + fn}"][data-n="{tn + fp}"][data-tp="{tp}"][data-tn="{tn}"]'


def test_roc_and_pr_views_draw_in_the_export_without_network(exported_page: Any, tmp_path: Path) -> None:
    y, score, thresholds = references()
    points = thresholds.size
    with exported_page(EXPORT_CELLS, name="roc", viewport=(1500, 1200)) as page:
        roc = page.wait_for_selector(f'.confusionlab-roc[data-kind="roc"][data-points="{points}"]')
        pr = page.wait_for_selector(f'.confusionlab-roc[data-kind="pr"][data-points="{points}"]')
        assert int(roc.get_attribute("data-band")) > 0 and int(pr.get_attribute("data-band")) > 0
        assert roc.inner_text().startswith("AUC ") and pr.inner_text().startswith("AP ")
        # Both views come with their linked slice: the staircase as an extra polyline, the bubbles.
        page.wait_for_selector('.confusionlab-roc-slice[data-contour-metrics="1"]')
        assert page.locator(".confusionlab-roc-slice").count() == 2
        assert int(page.locator(".confusionlab-roc-slice").first.get_attribute("data-bubbles")) > 0
        # Offline, the slider still walks the staircase (the curve is in the page).
        page.locator(".confusionlab-roc[data-kind='roc'] input.cl-threshold").fill("5")
        page.wait_for_selector('.confusionlab-roc[data-kind="roc"][data-index="5"]')
        _, fp, _, tp = confusion_matrix(y, score >= thresholds[5], labels=[0, 1]).ravel()
        assert (roc.get_attribute("data-tp"), roc.get_attribute("data-fp")) == (str(tp), str(fp))
        page.screenshot(path=str(tmp_path / "roc_export.png"), full_page=True)


#: Drawn state of the k-th slice of the page: its data attributes and every canvas's pixels.
SLICE_DRAWN_JS = """
(k) => {
  const root = document.querySelectorAll('.confusionlab-roc-slice')[k];
  const d = root.dataset;
  return {
    counts: [d.p, d.n, d.tp, d.tn, d.model, d.bubbles, d.marginalBars, d.contours, d.points, d.domain],
    pixels: [...root.querySelectorAll('canvas')].map((c) => c.toDataURL()),
  };
}
"""


def test_the_slider_moves_the_linked_slice_in_the_export(exported_page: Any, tmp_path: Path) -> None:
    """Offline, the slice follows the slider: after a move to threshold k it is drawn exactly as the
    slice the kernel built at k (a second view made at that index: the Jupyter path), showing
    scikit-learn's confusion matrix at that threshold."""
    y, score, thresholds = references()
    k = 40
    cells = [
        DATA + "import confusionlab as cl\ncurve = cl.roc_curve(y, score)\ncl.RocView(curve, size=360)",
        f"cl.RocView(curve, size=360, index={k})",  # the kernel's slice at threshold k
    ]
    tn, fp, fn, tp = confusion_matrix(y, score >= thresholds[k], labels=[0, 1]).ravel()
    with exported_page(cells, name="roc_follows", viewport=(1500, 1400)) as page:
        page.wait_for_selector('body[data-confusionlab-views="2"]')
        view = page.locator(".confusionlab-roc").nth(0)
        reference = page.evaluate(SLICE_DRAWN_JS, 1)
        assert reference["counts"][:4] == [str(tp + fn), str(tn + fp), str(tp), str(tn)]
        assert view.get_attribute("data-static-positions") == str(thresholds.size)  # every threshold
        assert page.evaluate(SLICE_DRAWN_JS, 0) != reference
        view.locator("input.cl-threshold").fill(str(k))
        page.wait_for_function(
            "(tp) => document.querySelector('.confusionlab-roc-slice').dataset.tp === tp", arg=str(tp)
        )
        assert view.get_attribute("data-index") == str(k)
        assert page.evaluate(SLICE_DRAWN_JS, 0) == reference  # counts, bubbles, marginals, pixels
        assert view.locator(".cl-static").inner_text() == ""  # nothing thinned to announce
        page.screenshot(path=str(tmp_path / "roc_follows.png"), full_page=True)


def test_past_the_size_cap_the_export_snaps_to_the_saved_thresholds(exported_page: Any) -> None:
    """A cap lowered in the kernel (20 kB) leaves an even spread of thresholds in the page: the
    slider snaps to the nearest one, the slice shows scikit-learn's matrix there, the page says so."""
    y, score, thresholds = references()
    cells = [
        "import confusionlab.widgets._static as states\nstates.MAX_STATIC_BYTES = 20_000",
        DATA + "import confusionlab as cl\nview = cl.RocView(cl.roc_curve(y, score), size=360)\nview",
        "print('saved:', *view._static['positions'])",
    ]
    with exported_page(cells, name="roc_snaps", viewport=(1500, 1200)) as page:
        root = page.wait_for_selector(".confusionlab-roc[data-static-positions]")
        saved = [int(v) for v in page.locator(".jp-OutputArea-output pre", has_text="saved:").inner_text().split()[1:]]
        assert 2 <= len(saved) < thresholds.size and root.get_attribute("data-static-positions") == str(len(saved))
        assert f"snaps to the {len(saved)} of {thresholds.size} thresholds" in page.inner_text(".cl-static")
        start = int(root.get_attribute("data-index"))
        wanted = next(k for k in range(saved[2] + 1, saved[3]) if k - saved[2] < saved[3] - k)
        page.locator(".confusionlab-roc input.cl-threshold").fill(str(wanted))
        page.wait_for_selector(f'.confusionlab-roc:not([data-index="{start}"])')
        assert root.get_attribute("data-index") == str(saved[2])  # the nearest saved threshold
        assert page.locator("input.cl-threshold").input_value() == str(saved[2])
        page.wait_for_selector(slice_selector(y, score >= thresholds[saved[2]]))


def test_roc_view_walks_the_threshold_with_its_slice_in_jupyterlab(lab: LabSession, tmp_path: Path) -> None:
    y, score, thresholds = references()
    name = "roc_view.ipynb"
    lab.open_notebook(name, [LAB_CELL], wait_for=f'.confusionlab-roc[data-points="{thresholds.size}"]')
    page = lab.page
    kernel = lab.kernel(name)
    start = kernel.evaluate("view.index")
    page.wait_for_selector(slice_selector(y, score >= thresholds[start]))
    assert page.locator(".confusionlab-roc-slice").get_attribute("data-model") == "beta-binomial"
    for k in (1, 40, thresholds.size - 1):
        page.locator(".confusionlab-roc input.cl-threshold").fill(str(k))
        page.wait_for_selector(f'.confusionlab-roc[data-index="{k}"]')
        # The slice moves only after the kernel has processed the new index.
        page.wait_for_selector(slice_selector(y, score >= thresholds[k]))
        assert kernel.evaluate("view.index") == k
    kernel.execute("view.set_threshold(0.5)")
    k = int(np.sum(np.unique(score) >= 0.5))
    page.wait_for_selector(f'.confusionlab-roc[data-index="{k}"]')
    page.wait_for_selector(slice_selector(y, score >= 0.5))
    assert int(page.locator(".confusionlab-roc-slice").get_attribute("data-bubbles")) > 0
    # The other way: an arrow key on the slice (one more false positive, or one more true positive
    # where the next step of the staircase is vertical) walks the threshold.
    fpr, tpr, _ = sk_roc_curve(y, score, drop_intermediate=False)
    tps, fps = np.rint(tpr * np.sum(y == 1)).astype(int), np.rint(fpr * np.sum(y == 0)).astype(int)
    page.locator(".confusionlab-roc-slice").focus()
    for _ in range(3):
        start = kernel.evaluate("view.index")
        right = fps[start + 1] > fps[start]
        page.keyboard.press("ArrowRight" if right else "ArrowUp")
        page.wait_for_selector(f'.confusionlab-roc:not([data-index="{start}"])')
        k = kernel.evaluate("view.index")
        # the nearest staircase point to the moved point, or the next one when that is the current
        d = (tps - tps[start] - (not right)) ** 2 + (fps - fps[start] - right) ** 2
        expected = int(np.argmin(d)) if int(np.argmin(d)) != start else start + 1
        assert k == expected, (start, k, expected)
        page.wait_for_selector(f'.confusionlab-roc[data-index="{k}"]')
        page.wait_for_selector(slice_selector(y, score >= thresholds[k]))  # snapped onto the staircase
    page.screenshot(path=str(tmp_path / "roc_view_lab.png"))
