"""The simplex's two drawings of the lattice agree in a real browser (issue 15).

With software WebGL the widget splats the lattice on the CPU into one texture
(``data-drawing="splat"``, js/confusion_simplex/splat.js); with a GPU it draws GL points.
Reference: the GL points drawing of the same state, in the same browser. The page loads
the widget's bundle with the state the Python widget sends (its binary buffers as they
travel), so both drawings start from the same codes, value table and (N, stride).

Both drawings run on the software renderer here, so every picture is small (``SIZE``,
the smallest canvas the widget accepts) and every wait has a deadline of seconds: a
test must not depend on how fast the machine fills pixels.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ipywidgets.widgets.widget import _remove_buffers

from confusionlab.widgets.confusion_simplex import ConfusionSimplex

STATIC = Path(__file__).resolve().parents[2] / "src" / "confusionlab" / "static"
ROOT = ".confusionlab-simplex"
#: Side of every canvas drawn here (CSS pixels; the widget's smallest).
SIZE = 200
#: Deadline of each wait in the page (ms), and of a whole test (s, a backstop).
WAIT_MS = 20_000
pytestmark = pytest.mark.timeout(180)
#: Fewest painted pixels a picture must have (the lattice, not a blank canvas).
MIN_PAINTED = 1_000

PAGE = """<!doctype html><html><head><link rel="stylesheet" href="/confusion_simplex.css"></head>
<body><div id="host"></div><script type="module">
import widget from "/confusion_simplex.js";
class Model {
  constructor(state) { this.state = state; this.listeners = new Map(); }
  get(key) { return this.state[key]; }
  on(event, cb) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(cb);
  }
  off(event, cb) { this.listeners.get(event)?.delete(cb); }
  save_changes() {}
}
const decode = ({ state, paths, buffers }) => {
  paths.forEach((path, i) => {
    const bytes = Uint8Array.from(atob(buffers[i]), (c) => c.charCodeAt(0));
    state[path[0]] = new DataView(bytes.buffer);
  });
  return state;
};
window.start = (message) => {
  window.model = new Model(decode(message));
  widget.render({ model: window.model, el: document.getElementById("host") });
};
// A later message from the kernel: the changed keys, then their change events.
window.receive = (message) => {
  const state = decode(message);
  Object.assign(window.model.state, state);
  for (const key of Object.keys(state)) for (const cb of window.model.listeners.get(`change:${key}`) ?? []) cb();
};
window.ready = true;
</script></body></html>"""

#: The canvas's pixels (RGBA bytes, top row first), base64-encoded.
PIXELS_JS = """
(selector) => {
  const source = document.querySelector(selector);
  const copy = document.createElement("canvas");
  copy.width = source.width;
  copy.height = source.height;
  const ctx = copy.getContext("2d");
  ctx.drawImage(source, 0, 0);
  const bytes = ctx.getImageData(0, 0, copy.width, copy.height).data;
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}
"""


def _state(widget: ConfusionSimplex, keys: list[str] | None = None) -> dict[str, Any]:
    state, paths, buffers = _remove_buffers(widget.get_state(keys))
    return {"state": state, "paths": paths, "buffers": [base64.b64encode(bytes(b)).decode() for b in buffers]}


def _draw(browser: Any, widget: ConfusionSimplex, drawing: str, metric: str | None = None) -> tuple[np.ndarray, str]:
    """The canvas's pixels and ``data-drawing``; with ``metric``, after the kernel changed the metric."""
    context = browser.new_context(viewport={"width": 2 * SIZE, "height": 2 * SIZE})
    try:
        context.add_init_script(f"window.confusionlabSimplexDrawing = {drawing!r};")
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)

        def route(request: Any) -> None:
            name = request.request.url.rsplit("/", 1)[-1]
            if name == "index.html":
                request.fulfill(body=PAGE, content_type="text/html")
            elif name in ("confusion_simplex.js", "confusion_simplex.css"):
                kind = "text/javascript" if name.endswith(".js") else "text/css"
                request.fulfill(body=(STATIC / name).read_bytes(), content_type=kind)
            else:
                request.fulfill(status=404, body="")

        page.route("http://simplex.test/**", route)
        page.goto("http://simplex.test/index.html")
        page.wait_for_function("window.ready === true")
        # Rendering (the first frame) runs in a task of its own, so that the wait below
        # (with its deadline) is what waits for it, never an evaluate without one.
        page.evaluate("(m) => { setTimeout(() => window.start(m)); }", _state(widget))
        page.wait_for_selector(f'{ROOT}[data-points="{widget.points}"][data-frames]')
        if metric is not None:  # the message a metric change sends (codes, table, …) only
            later = ConfusionSimplex(**{**widget.get_state(["N", "slices", "observed", "size"]), "metric": metric})
            keys = ["metric", "_codes", "_value_table", "_values_info", "_colour_domain", "_metric_label"]
            page.evaluate("(m) => { setTimeout(() => window.receive(m)); }", _state(later, keys))
            page.wait_for_selector(f'{ROOT}[data-metric="{later.metric}"]')
        root = page.locator(ROOT)
        assert root.get_attribute("data-error") is None
        rgba = base64.b64decode(page.evaluate(PIXELS_JS, f"{ROOT} canvas"))
        pixels = np.frombuffer(rgba, dtype=np.uint8).astype(np.int16).reshape(-1, 4)
        return pixels, str(root.get_attribute("data-drawing"))
    finally:
        context.close()


def _unmatched(a: np.ndarray, b: np.ndarray) -> int:
    """Pixels of ``a`` that differ by more than 32 levels (of 255) from every pixel of ``b``
    within one pixel of the same place: a difference that no rasterisation tie explains
    (a pixel centre on a point's edge goes to one point or its neighbour, so the pictures
    may differ by a one-pixel shift along edges; on a small canvas edges are many)."""
    side = round(len(a) ** 0.5)
    near = np.pad(b.reshape(side, side, 4), ((1, 1), (1, 1), (0, 0)), mode="edge")
    best = np.full((side, side), 255)
    for dy in range(3):
        for dx in range(3):
            best = np.minimum(best, np.abs(a.reshape(side, side, 4) - near[dy : dy + side, dx : dx + side]).max(axis=2))
    return int((best > 32).sum())


def assert_same_picture(splat: np.ndarray, points: np.ndarray) -> None:
    """The two drawings agree up to rasterisation ties and the rounding of the dimmed
    points' blending (a few levels of 255)."""
    painted = (points[:, 3] > 0).sum()
    assert painted > MIN_PAINTED, painted
    unmatched = max(_unmatched(splat, points), _unmatched(points, splat))
    assert unmatched <= 0.005 * painted, (unmatched, painted)
    diff = np.abs(splat - points).max(axis=1)
    assert diff[points[:, 3] > 0].mean() < 2, diff[points[:, 3] > 0].mean()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"N": 30, "metric": "mcc", "observed": [8, 2, 5, 15]},  # every point opaque
        {"N": 30, "metric": "f1", "slices": [10], "observed": [5, 5, 5, 15]},  # a slice, the rest dimmed
        {"N": 8, "metric": "accuracy", "slices": [3]},  # the largest points (7 px): discs
    ],
)
def test_splat_and_gl_points_draw_the_same_picture(browser: Any, kwargs: dict[str, Any]) -> None:
    widget = ConfusionSimplex(size=SIZE, **kwargs)
    splat, mode = _draw(browser, widget, "splat")
    assert mode == "splat"
    points, mode = _draw(browser, widget, "points")
    assert mode == "points"
    assert_same_picture(splat, points)


def test_a_new_metric_recolours_the_same_picture(browser: Any) -> None:
    """After a metric change (the splat recolours its last picture), both drawings still agree."""
    widget = ConfusionSimplex(N=40, metric="mcc", observed=[10, 5, 5, 20], size=SIZE)
    splat, _ = _draw(browser, widget, "splat", metric="f1")
    points, _ = _draw(browser, widget, "points", metric="f1")
    before, _ = _draw(browser, widget, "points")
    assert_same_picture(splat, points)
    painted = (points[:, 3] > 0).sum()
    assert (np.abs(before - points).max(axis=1) > 32).sum() > 0.2 * painted  # the colours did change


def test_software_webgl_splats_the_lattice(browser: Any) -> None:
    """SwiftShader (the browser tests' WebGL) gets the CPU splat by default."""
    widget = ConfusionSimplex(N=12, metric="mcc", size=SIZE)
    _, mode = _draw(browser, widget, "auto")
    assert mode == "splat"
