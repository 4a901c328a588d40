"""The Explorer's layout on a 1,400 × 900 screen, measured by bounding boxes.

JupyterLab with its file browser open (the Explorer gets about 970 px), with the side
bar closed (about 1,220 px), Notebook 7 (about 1,110 px) and a narrow 800-px window:

* the ROC slice and the PMF panels sit side by side, wholly on the first screen;
* the simplex is beside them when the row has room for it, else right below them,
  and no two views overlap;
* every slider read-out is shown (its centre is the topmost element there), and no
  control's text is clipped (the "animate class balance" label included);
* a narrow window wraps: the PMF goes below the slice, nothing sticks out sideways.

Screenshots go to ``$CONFUSIONLAB_SCREENSHOTS`` (default: the test's tmp dir).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conftest import LabSession

SCREEN = {"width": 1400, "height": 900}
CELLS = ["from confusionlab.widgets.explorer import Explorer\nx = Explorer()\nx"]
READY = '.confusionlab-explorer .confusionlab-roc-slice[data-generation="1"]'
SIMPLEX_READY = '.confusionlab-explorer .confusionlab-simplex[data-n="60"]'

#: Boxes (viewport coordinates) of the Explorer, its views and the controls' texts.
MEASURE_JS = """
() => {
  const x = document.querySelector('.confusionlab-explorer');
  const box = (e) => { const b = e.getBoundingClientRect();
    return {left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width, height: b.height}; };
  const view = (s) => { const e = x.querySelector(s); return e && e.offsetParent !== null ? box(e) : null; };
  // An element is shown when the topmost element at its centre is itself or inside it.
  const shown = (e) => { const b = e.getBoundingClientRect();
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return Boolean(hit) && (hit === e || e.contains(hit)); };
  const readouts = [...x.querySelectorAll('.widget-readout')].map((e) => ({
    text: e.textContent.trim(), shown: shown(e), box: box(e) }));
  const selector = '.widget-label, .confusionlab-player-label, .widget-readout, .widget-html-content';
  const texts = [...x.querySelectorAll(selector)]
    .filter((e) => e.offsetParent !== null && e.textContent.trim())
    .map((e) => ({ text: e.textContent.trim().slice(0, 60),
                   clipped: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 }));
  return {
    explorer: box(x),
    overflow: x.scrollWidth - x.clientWidth,
    slice: view('.confusionlab-roc-slice'),
    pmf: view('.confusionlab-metric-pmf'),
    simplex: view('.confusionlab-simplex'),
    readouts,
    texts,
    player_label: shown(x.querySelector('.confusionlab-player-label')),
  };
}
"""


def shots_dir(tmp_path: Path) -> Path:
    path = Path(os.environ.get("CONFUSIONLAB_SCREENSHOTS", tmp_path))
    path.mkdir(parents=True, exist_ok=True)
    return path


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes intersect (touching edges do not count)."""
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    )


def side_by_side(left: dict[str, float], right: dict[str, float]) -> bool:
    """``right`` starts where ``left`` ends, on the same row (their heights overlap)."""
    return right["left"] >= left["right"] - 1 and right["top"] < left["bottom"] and left["top"] < right["bottom"]


def check_first_screen(m: dict[str, Any], height: int) -> None:
    """The layout's checks at one window size (see the module docstring)."""
    sl, pmf, sx, ex = m["slice"], m["pmf"], m["simplex"], m["explorer"]
    assert sl and pmf and sx, m
    assert side_by_side(sl, pmf), f"slice {sl} and PMF {pmf} are not side by side"
    for name, b in (("slice", sl), ("PMF", pmf)):
        assert 0 <= b["top"] and b["bottom"] <= height, f"the {name} {b} is not on the first screen (0–{height})"
        assert b["right"] <= ex["right"] + 1, f"the {name} {b} sticks out of the Explorer {ex}"
    row = pmf["right"] - sl["left"]
    if ex["width"] >= row + sx["width"] + 12:  # room beside the pair: the simplex is there
        assert side_by_side(pmf, sx), f"simplex {sx} is not beside the PMF {pmf} in a {ex['width']}-px Explorer"
        assert sx["bottom"] <= height, f"simplex {sx} is not on the first screen"
    else:  # otherwise right below them, never above pushing them down
        assert sx["top"] >= max(sl["bottom"], pmf["bottom"]) - 1, (sx, sl, pmf)
    for a, b in ((sl, pmf), (sl, sx), (pmf, sx)):
        assert not overlap(a, b), (a, b)
    assert m["overflow"] <= 1, f"the Explorer scrolls sideways by {m['overflow']} px"
    check_controls(m)


def check_controls(m: dict[str, Any]) -> None:
    assert [r["text"] for r in m["readouts"]] == ["60", "20", "16", "32"], m["readouts"]
    hidden = [r for r in m["readouts"] if not r["shown"]]
    assert not hidden, f"slider read-outs covered or clipped: {hidden}"
    assert m["player_label"], "the 'animate class balance' label is covered"
    clipped = [t["text"] for t in m["texts"] if t["clipped"]]
    assert not clipped, f"clipped texts: {clipped}"
    assert any(t["text"].startswith("animate class balance") for t in m["texts"]), m["texts"]


def open_explorer(session: LabSession, name: str) -> Any:
    page = session.page
    page.set_viewport_size(SCREEN)
    session.open_notebook(name, CELLS, wait_for=READY)
    page.wait_for_selector(SIMPLEX_READY, timeout=30_000)
    return page


def test_jupyterlab_1400_by_900_with_and_without_the_side_bar(lab: LabSession, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    page = open_explorer(lab, "layout.ipynb")
    page.screenshot(path=str(shots / "layout_lab_1400x900.png"))
    m = page.evaluate(MEASURE_JS)
    print("JupyterLab, file browser open:", {k: m[k] for k in ("explorer", "slice", "pmf", "simplex")})
    assert 900 <= m["explorer"]["width"] < 1100, m["explorer"]  # the file browser takes its share
    check_first_screen(m, SCREEN["height"])

    # Close the side bar: the row gets wider, and the simplex joins the slice and the PMF.
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Escape")
    page.keyboard.press("Control+b")  # View › Show Left Sidebar
    page.wait_for_function(
        "() => document.querySelector('.confusionlab-explorer').getBoundingClientRect().width > 1150"
    )
    page.screenshot(path=str(shots / "layout_lab_no_sidebar_1400x900.png"))
    m = page.evaluate(MEASURE_JS)
    print("JupyterLab, side bar closed:", {k: m[k] for k in ("explorer", "slice", "pmf", "simplex")})
    check_first_screen(m, SCREEN["height"])
    assert side_by_side(m["pmf"], m["simplex"]), m

    # A narrow window wraps: the PMF below the slice, nothing cut off at the side.
    page.set_viewport_size({"width": 800, "height": 900})
    page.wait_for_function("() => document.querySelector('.confusionlab-explorer').getBoundingClientRect().width < 760")
    page.screenshot(path=str(shots / "layout_lab_800.png"), full_page=True)
    m = page.evaluate(MEASURE_JS)
    assert m["pmf"]["top"] >= m["slice"]["bottom"] - 1, (m["slice"], m["pmf"])
    assert m["pmf"]["right"] <= m["explorer"]["right"] + 1 and m["slice"]["right"] <= m["explorer"]["right"] + 1
    assert m["overflow"] <= 1, f"the Explorer scrolls sideways by {m['overflow']} px"
    for a, b in ((m["slice"], m["pmf"]), (m["slice"], m["simplex"]), (m["pmf"], m["simplex"])):
        assert not overlap(a, b), (a, b)


def test_notebook_7_1400_by_900(notebook7: LabSession, tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    page = open_explorer(notebook7, "layout_nb7.ipynb")
    page.screenshot(path=str(shots / "layout_nb7_1400x900.png"))
    m = page.evaluate(MEASURE_JS)
    print("Notebook 7:", {k: m[k] for k in ("explorer", "slice", "pmf", "simplex")})
    check_first_screen(m, SCREEN["height"])
