"""ConfusionSimplex in a real JupyterLab: WebGL drawing, kernel-side updates, rotation."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conftest import LabSession

ROOT = ".confusionlab-simplex"

#: Copies the WebGL canvas (preserveDrawingBuffer) into a 2-D canvas and returns the
#: number of painted pixels (alpha > 0; the GL background is transparent), the number
#: of distinct colours and a hash of the pixels.
CANVAS_PIXELS_JS = """
(selector) => {
  const source = document.querySelector(selector);
  const copy = document.createElement("canvas");
  copy.width = source.width;
  copy.height = source.height;
  const ctx = copy.getContext("2d");
  ctx.drawImage(source, 0, 0);
  const { data } = ctx.getImageData(0, 0, copy.width, copy.height);
  let painted = 0;
  let hash = 0;
  const colours = new Set();
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] > 0) {
      painted++;
      hash = (hash * 31 + (i >> 2) * 7 + data[i] + (data[i + 1] << 8) + (data[i + 2] << 16)) | 0;
      if (colours.size < 5000) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    }
  }
  return { painted, colours: colours.size, hash, total: copy.width * copy.height };
}
"""


def canvas_pixels(page: Any) -> dict[str, int]:
    """Painted-pixel statistics of the simplex canvas."""
    return page.evaluate(CANVAS_PIXELS_JS, f"{ROOT} canvas")


def screenshot_foreground(path: Path) -> int:
    """Pixels of a screenshot that differ from its corner (background) colour."""
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(path).convert("RGB"), dtype=np.int16)
    background = pixels[2, 2]
    return int((np.abs(pixels - background).sum(axis=2) > 30).sum())


def test_simplex_draws_rotates_and_follows_the_kernel(lab: LabSession, tmp_path: Path) -> None:
    name = "simplex.ipynb"
    lab.open_notebook(
        name,
        [
            "from confusionlab.widgets.confusion_simplex import ConfusionSimplex\n"
            "w = ConfusionSimplex(N=60, metric='mcc', slices=[20], observed=[16, 4, 8, 32])\nw",
        ],
        wait_for=f'{ROOT}[data-points="39711"]',
    )
    page = lab.page
    root = page.locator(ROOT)
    assert root.get_attribute("data-error") is None, root.get_attribute("data-error")
    assert root.get_attribute("data-renderer") == "webgl"
    assert root.get_attribute("data-n") == "60"
    assert root.get_attribute("data-metric") == "mcc"
    assert root.get_attribute("data-slices") == "20"
    assert root.get_attribute("data-observed") == "16,4,8,32"
    assert root.get_attribute("data-highlighted") == str(21 * 41)
    labels = root.locator(".cl-vertex-label").all_inner_texts()
    assert labels == ["TP", "FN", "FP", "TN"]

    # The canvas is not blank: thousands of painted pixels in many colours.
    first = canvas_pixels(page)
    assert first["painted"] > 20_000, first
    assert first["colours"] > 50, first
    shot = tmp_path / "simplex_n60.png"
    root.screenshot(path=str(shot))
    assert screenshot_foreground(shot) > 20_000

    # A drag on the canvas turns the view: new rotation, different pixels.
    rotation = root.get_attribute("data-rotation")
    frames = int(root.get_attribute("data-frames"))
    box = page.locator(f"{ROOT} canvas").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 80, y + 30, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "([sel, r, f]) => { const e = document.querySelector(sel);"
        " return e.dataset.rotation !== r && Number(e.dataset.frames) > f; }",
        arg=[ROOT, rotation, frames],
    )
    turned = canvas_pixels(page)
    assert turned["hash"] != first["hash"]
    assert turned["painted"] > 20_000, turned
    root.screenshot(path=str(tmp_path / "simplex_n60_turned.png"))

    # Keyboard rotation (accessibility).
    rotation = root.get_attribute("data-rotation")
    root.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("([sel, r]) => document.querySelector(sel).dataset.rotation !== r", arg=[ROOT, rotation])

    # Kernel-side changes: the metric alone (no new positions), then N.
    kernel = lab.kernel(name)
    kernel.execute("w.metric = 'f1'")
    page.wait_for_selector(f'{ROOT}[data-metric="f1"][data-points="39711"]', timeout=20_000)
    kernel.execute("w.update(N=100, slices=[30, 50], observed=[25, 5, 10, 60], cloud='beta-binomial')")
    page.wait_for_selector(
        f'{ROOT}[data-n="100"][data-points="176851"][data-slices="30,50"][data-cloud="beta-binomial"]',
        timeout=30_000,
    )
    cloud_points = kernel.evaluate("w._cloud_info['points']")
    assert root.get_attribute("data-cloud-points") == str(cloud_points)
    assert cloud_points > 100
    big = canvas_pixels(page)
    assert big["painted"] > 20_000, big
    root.screenshot(path=str(tmp_path / "simplex_n100_cloud.png"))

    kernel.execute("w.update(cloud='dirichlet-multinomial', slices=[])")
    page.wait_for_selector(f'{ROOT}[data-cloud="dirichlet-multinomial"][data-slices=""]', timeout=30_000)
    root.screenshot(path=str(tmp_path / "simplex_n100_dirichlet.png"))

    # JupyterLab's dark theme: the widget re-reads its colours (labels, edges, cloud).
    frames = int(root.get_attribute("data-frames"))
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Settings$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Theme$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^JupyterLab Dark$")).click()
    page.wait_for_selector('body[data-jp-theme-light="false"]', state="attached", timeout=20_000)
    page.wait_for_function("([sel, f]) => Number(document.querySelector(sel).dataset.frames) > f", arg=[ROOT, frames])
    label_colour = page.evaluate(
        "(sel) => getComputedStyle(document.querySelector(sel + ' .cl-vertex-label')).color", ROOT
    )
    channels = [int(c) for c in re.findall(r"\d+", label_colour)[:3]]
    assert sum(channels) > 3 * 150, label_colour  # light text on the dark background
    dark = canvas_pixels(page)
    assert dark["painted"] > 20_000, dark
    root.screenshot(path=str(tmp_path / "simplex_n100_dark.png"))
    print(f"screenshots in {tmp_path}")


def _hovered(page: Any, previous: str | None = None) -> tuple[list[int], float]:
    """Wait for ``data-hover`` (other than ``previous``) and return the named counts and value."""
    page.wait_for_function(
        "([sel, prev]) => { const d = document.querySelector(sel).dataset;"
        " return d.hover !== undefined && d.hover !== prev; }",
        arg=[ROOT, previous],
    )
    root = page.locator(ROOT)
    counts = [int(v) for v in root.get_attribute("data-hover").split(",")]
    return counts, float(root.get_attribute("data-hover-value"))


def _kernel_value(kernel: Any, metric: str, counts: list[int]) -> float:
    """The metric at ``counts`` computed by the kernel (the value table is float64: exact)."""
    return float(kernel.evaluate(f"float(METRICS[{metric!r}].values(*{counts}))"))


def test_simplex_hover_names_the_matrix_and_its_value(lab: LabSession, tmp_path: Path) -> None:
    import math

    name = "simplex_hover.ipynb"
    N = 30
    lab.open_notebook(
        name,
        [
            "from confusionlab.metrics import METRICS\n"
            "from confusionlab.widgets.confusion_simplex import ConfusionSimplex\n"
            f"w = ConfusionSimplex(N={N}, metric='mcc')\nw",
        ],
        wait_for=f'{ROOT}[data-points="{math.comb(N + 3, 3)}"]',
    )
    page = lab.page
    root = page.locator(ROOT)
    kernel = lab.kernel(name)
    box = page.locator(f"{ROOT} canvas").bounding_box()
    size = int(kernel.evaluate("w.size"))
    ratio = box["width"] / size

    # The middle of the picture: some interior matrix, its value from the kernel's metric.
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    counts, value = _hovered(page)
    assert sum(counts) == N and min(counts) >= 0, counts
    assert value == _kernel_value(kernel, "mcc", counts), (counts, value)
    tip = root.locator(".cl-hover")
    assert tip.is_visible()
    assert tip.inner_text().startswith(f"TP {counts[0]} · FN {counts[1]} · FP {counts[2]} · TN {counts[3]}")
    root.screenshot(path=str(tmp_path / "simplex_hover.png"))

    # The TN vertex, found from its label (placed 14 px out from the vertex, away from the
    # centre): the front-most point of the default view, so the hover names (0, 0, 0, N).
    left, top = page.evaluate(
        "(sel) => { const s = document.querySelector(sel + ' .cl-vertex-label[data-vertex=\"TN\"]').style;"
        " return [parseFloat(s.left), parseFloat(s.top)]; }",
        ROOT,
    )
    dx, dy = left - size / 2, top - size / 2
    shrink = 1 - 14 / math.hypot(dx, dy)
    vx, vy = size / 2 + dx * shrink, size / 2 + dy * shrink
    page.mouse.move(box["x"] + vx * ratio, box["y"] + vy * ratio)
    counts, value = _hovered(page, ",".join(map(str, counts)))
    assert counts == [0, 0, 0, N]
    expected = _kernel_value(kernel, "mcc", counts)
    assert value == expected or (math.isnan(value) and math.isnan(expected)), (value, expected)
    assert tip.inner_text().startswith(f"TP 0 · FN 0 · FP 0 · TN {N} — "), tip.inner_text()

    # A kernel-side metric change updates the value under the still pointer.
    kernel.execute("w.metric = 'accuracy'")
    page.wait_for_function(
        "(sel) => { const d = document.querySelector(sel).dataset;"
        " return d.metric === 'accuracy' && d.hoverValue === '1'; }",
        arg=ROOT,
    )
    assert root.get_attribute("data-hover") == f"0,0,0,{N}"
    assert _kernel_value(kernel, "accuracy", [0, 0, 0, N]) == 1.0

    # Leaving the canvas clears the read-out.
    page.mouse.move(box["x"] - 40, box["y"] - 40)
    page.wait_for_function("(sel) => document.querySelector(sel).dataset.hover === undefined", arg=ROOT)
    assert not tip.is_visible()
    print(f"screenshots in {tmp_path}")
