"""The Explorer in a real JupyterLab (and Notebook 7): linked views, kernel-side changes,
dragging the observed point, bursts of changes, screenshots.

Screenshots are written to ``$CONFUSIONLAB_SCREENSHOTS`` (default: the test's tmp dir).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import wait_until

if TYPE_CHECKING:
    from conftest import LabSession

SLICE = ".confusionlab-explorer .confusionlab-roc-slice"
PMF = ".confusionlab-explorer .confusionlab-metric-pmf"
SIMPLEX = ".confusionlab-explorer .confusionlab-simplex"

CELLS = [
    "from confusionlab.widgets.explorer import Explorer\nx = Explorer()\nx",
]

#: Installed in the page: records every (generation, p, n, tp, tn) each view shows, at
#: every change of its data attributes, so a test can check no view ever mixed states.
RECORDER_JS = """
() => {
  window.__clRecords = [];
  const watch = (selector, kind) => {
    const node = document.querySelector(selector);
    const record = () => {
      const d = node.dataset;
      window.__clRecords.push([kind, d.generation, d.p, d.n, d.tp, d.tn, d.metric]);
    };
    record();
    new MutationObserver(record).observe(node, { attributes: true });
  };
  watch("SLICE", "slice");
  watch("PMF", "pmf");
  return true;
}
""".replace("SLICE", SLICE).replace("PMF", PMF)


def shots_dir(tmp_path: Path) -> Path:
    path = Path(os.environ.get("CONFUSIONLAB_SCREENSHOTS", tmp_path))
    path.mkdir(parents=True, exist_ok=True)
    return path


def snap(page: Any, path: Path) -> None:
    """Screenshot the whole Explorer: a tall viewport first, so no part is scrolled away."""
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 2600})
    try:
        page.locator(".confusionlab-explorer").first.scroll_into_view_if_needed()
        page.locator(".confusionlab-explorer").first.screenshot(path=str(path))
    finally:
        page.set_viewport_size(size)


def state_selector(root: str, generation: int | None = None, **attrs: Any) -> str:
    parts = [f'[data-{k.replace("_", "-")}="{v}"]' for k, v in attrs.items()]
    if generation is not None:
        parts.append(f'[data-generation="{generation}"]')
    return root + "".join(parts)


def wait_for_state(page: Any, generation: int, N: int, p: int, tp: int, tn: int, timeout: int = 30_000) -> None:
    """Both 2-D views show generation ``generation`` with these counts."""
    n = N - p
    page.wait_for_selector(state_selector(SLICE, generation, p=p, n=n, tp=tp, tn=tn), timeout=timeout)
    page.wait_for_selector(state_selector(PMF, generation, p=p, n=n, tp=tp, tn=tn), timeout=timeout)


def settled_generation(kernel: Any, timeout: float = 30) -> int:
    """The generation of the kernel's state once its flush has run (shown == state)."""
    wait_until(lambda: kernel.evaluate("x.shown == x.state") is True, timeout, "the Explorer never computed its state")
    return kernel.evaluate("x.generation")


def lattice_point_xy(page: Any, tp: int, tn: int) -> tuple[float, float]:
    """Page coordinates of lattice point (tp, tn) in the slice's canvas (ROC view)."""
    root = page.locator(SLICE)
    p, n = int(root.get_attribute("data-p")), int(root.get_attribute("data-n"))
    left, top, width, height = (float(v) for v in root.get_attribute("data-plot").split(","))
    x0, x1, y0, y1 = (float(v) for v in root.get_attribute("data-domain").split(","))
    box = page.locator(f"{SLICE} canvas").bounding_box()
    fpr, tpr = (n - tn) / n, tp / p
    sx = left + (fpr - x0) / (x1 - x0) * width
    sy = top + height - (tpr - y0) / (y1 - y0) * height
    return box["x"] + sx, box["y"] + sy


def test_explorer_renders_follows_the_kernel_and_never_mixes_states(lab: LabSession, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    name = "explorer.ipynb"
    lab.open_notebook(name, CELLS, wait_for=state_selector(SLICE, 1, p=20, n=40, tp=16, tn=32))
    page = lab.page
    wait_for_state(page, 1, 60, 20, 16, 32)
    # Every view is there, showing the paper's example.
    page.wait_for_selector(f'{SIMPLEX}[data-n="60"][data-slices="20"]', timeout=30_000)
    slice_root = page.locator(SLICE)
    assert slice_root.get_attribute("data-points") == "861"
    assert int(slice_root.get_attribute("data-bubbles")) > 100
    assert int(slice_root.get_attribute("data-marginal-bars")) > 10
    pmf_root = page.locator(PMF)
    assert pmf_root.get_attribute("data-values") == "523,690"  # distinct MCC values (tolerance 1e-12)
    assert int(pmf_root.get_attribute("data-marks")) > 200  # sticks merged per pixel column
    assert page.locator(SIMPLEX).get_attribute("data-points") == "39711"
    snap(page, shots / "explorer_n60.png")

    kernel = lab.kernel(name)
    kernel.execute("x.N = 61")
    wait_for_state(page, 2, 61, 20, 16, 32)
    page.wait_for_selector(f'{SIMPLEX}[data-n="61"][data-points="41664"]', timeout=30_000)
    assert slice_root.get_attribute("data-points") == "882"
    assert pmf_root.get_attribute("data-values").split(",") == [
        str(v) for v in kernel.evaluate("[p['distinct'] for p in x.pmf._panels]")
    ]
    snap(page, shots / "explorer_n61.png")

    kernel.execute("x.set(p=30, tp=24, tn=20, metric='balanced_accuracy', model='binomial')")
    wait_for_state(page, 3, 61, 30, 24, 20)
    page.wait_for_selector(f'{SLICE}[data-metric="balanced_accuracy"][data-model="binomial"]')
    page.wait_for_selector(f'{SIMPLEX}[data-slices="30"][data-metric="balanced_accuracy"]', timeout=30_000)

    # 20 rapid kernel-side changes, sent without waiting for each other.
    page.evaluate(RECORDER_JS)
    sent = [kernel.client.execute(f"x.set(N={70 + k}, p={20 + k}, tp={10 + k // 2}, tn={30 - k})") for k in range(20)]
    for msg_id in sent:
        kernel._reply(msg_id, "a rapid change", 60)
    final = kernel.evaluate("[x.N, x.p, x.tp, x.tn]")
    assert final == [89, 39, 19, 11]
    generation = settled_generation(kernel)
    computations = kernel.evaluate("x.computations")
    wait_for_state(page, generation, *final)
    page.wait_for_selector(f'{SIMPLEX}[data-n="89"][data-slices="39"]', timeout=30_000)
    records = page.evaluate("window.__clRecords")
    # Within each view every recorded state is whole, and one generation is one state
    # in both views: no view ever showed a mix of two states.
    by_generation: dict[str, tuple] = {}
    for kind, gen, p, n, tp, tn, metric in records:
        state = (p, n, tp, tn, metric)
        assert by_generation.setdefault(gen, state) == state, (kind, gen, state, by_generation[gen])
        N = int(p) + int(n)
        if int(gen) > 3:  # one of the 20 requested states
            k = int(p) - 20
            assert (N, int(tp), int(tn)) == (70 + k, 10 + k // 2, 30 - k), (kind, gen, state)
    print(f"20 rapid changes: {computations - 3} computations, {len(by_generation)} generations drawn")
    assert computations - 3 <= 20
    snap(page, shots / "explorer_after_burst.png")


def test_dragging_the_observed_point_writes_tp_tn_back(lab: LabSession, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    name = "explorer_drag.ipynb"
    lab.open_notebook(name, CELLS, wait_for=state_selector(SLICE, 1, p=20, n=40, tp=16, tn=32))
    page = lab.page
    wait_for_state(page, 1, 60, 20, 16, 32)
    kernel = lab.kernel(name)
    page.locator(f"{SLICE} canvas").scroll_into_view_if_needed()
    start = lattice_point_xy(page, 16, 32)
    end = lattice_point_xy(page, 12, 36)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=8)
    page.mouse.up()
    wait_until(lambda: kernel.evaluate("[x.tp, x.tn]") == [12, 36], 20, "the kernel never got the drag's end (12, 36)")
    generation = settled_generation(kernel)
    wait_for_state(page, generation, 60, 20, 12, 36)
    page.wait_for_selector(f'{SIMPLEX}[data-observed="12,8,4,36"]', timeout=20_000)
    assert kernel.evaluate("[x.sliders['tp'].value, x.sliders['tn'].value, x.pmf.tp]") == [12, 36, 12]
    # Keyboard nudging still works: focus the slice, one step up in TP.
    page.locator(SLICE).focus()
    page.keyboard.press("ArrowUp")
    wait_until(lambda: kernel.evaluate("x.tp") == 13, 20, "arrow key did not reach the kernel")
    snap(page, shots / "explorer_dragged.png")

    # View options: contours of two more metrics, the PMFs as histograms.
    kernel.execute("x.contour_menu.value = ('f1', 'balanced_accuracy')\nx.pmf_mode.value = 'histogram'")
    page.wait_for_selector(f'{SLICE}[data-contour-metrics="2"]', timeout=20_000)
    page.wait_for_selector(f'{PMF}[data-mode="histogram"]', timeout=20_000)
    assert page.locator(f"{SLICE} .cl-contour-item").count() == 3
    snap(page, shots / "explorer_contours_histogram.png")

    # The class-balance animation: the Play widget steps p in the browser, the kernel
    # keeps the observed rates and every view follows.
    kernel.execute("x.animate()")
    page.wait_for_selector(f'{SLICE}:not([data-p="20"])', timeout=20_000)
    kernel.execute("x.animate(False)")
    generation = settled_generation(kernel)
    state = kernel.evaluate("x.shown")
    assert state["p"] != 20
    wait_for_state(page, generation, state["N"], state["p"], state["tp"], state["tn"])


def test_the_same_notebook_renders_in_notebook_7(notebook7: LabSession, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    name = "explorer_nb7.ipynb"
    notebook7.open_notebook(name, CELLS, wait_for=state_selector(SLICE, 1, p=20, n=40, tp=16, tn=32))
    page = notebook7.page
    wait_for_state(page, 1, 60, 20, 16, 32)
    page.wait_for_selector(f'{SIMPLEX}[data-n="60"]', timeout=30_000)
    assert page.locator(SLICE).get_attribute("data-points") == "861"
    kernel = notebook7.kernel(name)
    kernel.execute("x.N = 61")
    wait_for_state(page, 2, 61, 20, 16, 32)
    snap(page, shots / "explorer_notebook7.png")


@pytest.mark.parametrize("theme", ["JupyterLab Dark"])
def test_dark_theme_uses_the_theme_colours(lab: LabSession, tmp_path: Path, theme: str) -> None:
    shots = shots_dir(tmp_path)
    name = "explorer_dark.ipynb"
    lab.open_notebook(name, CELLS, wait_for=state_selector(SLICE, 1, p=20, n=40, tp=16, tn=32))
    page = lab.page
    light = page.locator(PMF).get_attribute("data-theme")
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Settings$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Theme$")).hover()
    choice = re.compile(f"^Set Preferred Dark Theme: {theme}$|^{theme}$")
    page.locator(".lm-Menu-itemLabel", has_text=choice).first.click()
    page.wait_for_selector('body[data-jp-theme-light="false"]', state="attached", timeout=20_000)
    # Both canvases redraw with the dark theme's colours, without any kernel change.
    page.wait_for_function(
        "([a, b, light]) => [a, b].every((s) => { const t = document.querySelector(s).dataset.theme;"
        " return t && t !== light; })",
        arg=[SLICE, PMF, light],
        timeout=20_000,
    )
    colours = page.evaluate(
        """(sel) => { const s = getComputedStyle(document.querySelector(sel));
                      return [s.color, s.backgroundColor]; }""",
        PMF,
    )
    assert json.dumps(colours) != json.dumps(["rgb(33, 33, 33)", "rgb(255, 255, 255)"]), colours
    snap(page, shots / "explorer_dark.png")
