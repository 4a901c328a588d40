"""RocSlice in a real JupyterLab: state mirrored in the DOM, kernel-side updates, big slices."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conftest import LabSession

ROOT = ".confusionlab-roc-slice"

#: Counts the canvas pixels that are painted (alpha > 0; the background is
#: transparent) and the number of distinct painted colours.
CANVAS_PIXELS_JS = """
(selector) => {
  const canvas = document.querySelector(selector);
  const ctx = canvas.getContext("2d");
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let painted = 0;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] > 0) {
      painted++;
      if (colours.size < 5000) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    }
  }
  return { painted, colours: colours.size, total: canvas.width * canvas.height };
}
"""


def canvas_pixels(page: Any) -> dict[str, int]:
    """Painted-pixel statistics of the RocSlice canvas."""
    return page.evaluate(CANVAS_PIXELS_JS, f"{ROOT} canvas")


def test_roc_slice_follows_the_kernel(lab: LabSession, tmp_path: Path) -> None:
    name = "roc_slice.ipynb"
    lab.open_notebook(
        name,
        [
            "import confusionlab as cl\nw = cl.RocSlice(p=20, n=40, tp=16, tn=32, metric='mcc')\nw",
        ],
        wait_for=f'{ROOT}[data-points="861"]',
    )
    page = lab.page
    root = page.locator(ROOT)
    assert root.get_attribute("data-p") == "20"
    assert root.get_attribute("data-tp") == "16"
    assert root.get_attribute("data-tn") == "32"
    assert root.get_attribute("data-metric") == "mcc"
    root.screenshot(path=str(tmp_path / "roc_slice_861.png"))
    small = canvas_pixels(page)
    kernel = lab.kernel(name)
    kernel.execute("w.coordinates = 'counts'")
    page.wait_for_selector(f'{ROOT}[data-coordinates="counts"][data-points="861"]')
    root.screenshot(path=str(tmp_path / "roc_slice_861_counts.png"))
    kernel.execute("w.coordinates = 'roc'")
    page.wait_for_selector(f'{ROOT}[data-coordinates="roc"]')
    # 861 points of several pixels each, in many colours, on a transparent canvas.
    assert small["painted"] > 861 * 4, small
    assert small["colours"] > 20, small

    kernel.execute("w.n = 41")
    page.wait_for_selector(f'{ROOT}[data-n="41"][data-points="882"]', timeout=20_000)
    assert kernel.evaluate("[w.n, len(w._values) // 4]") == [41, 882]

    kernel.execute("w.metric = 'accuracy'")
    page.wait_for_selector(f'{ROOT}[data-metric="accuracy"]', timeout=20_000)

    # The largest slice drawn point by point: (p + 1)(n + 1) = 250,000.
    kernel.execute("w.set_slice(p=499, n=499, tp=400, tn=450)")
    page.wait_for_selector(
        f'{ROOT}[data-p="499"][data-n="499"][data-tp="400"][data-points="250000"]',
        timeout=30_000,
    )
    screenshot = tmp_path / "roc_slice_250000.png"
    root.screenshot(path=str(screenshot))
    assert screenshot.stat().st_size > 5_000

    big = canvas_pixels(page)
    # A 500 × 500 lattice covers the plot area: most of the canvas is painted.
    assert big["painted"] > 0.3 * big["total"], big
    assert big["colours"] > 20, big
