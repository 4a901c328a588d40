"""Exported HTML draws the widgets offline: opened from disk, nothing fetched from the network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from confusionlab.export import RENDERER

CELLS = [
    "import confusionlab as cl\nw = cl.RocSlice(p=20, n=40, tp=16, tn=32, metric='mcc')\nw",
    "x = cl.Explorer(N=60, p=20, tp=16, tn=32)\nx",
    "from confusionlab import bias\nfrom confusionlab.widgets.bias_view import BiasView\n"
    "t = bias.CountTable.from_confusion(a=(2718, 3678, 84, 13900), d=(433, 679, 10, 8660))\n"
    "BiasView(bias.report_from_counts(t, n_draws=500), n_draws=100)",
    "import numpy as np\nfrom confusionlab.widgets.stability_view import StabilityView\n"
    "n = np.array([10, 20, 50, 100, 200, 500])\n"
    "StabilityView(n_learners=n, stability=n / (n + 40.0), per_object=np.linspace(0.5, 1, 30), stability_target=0.9)",
]

#: Canvases of every view with at least one non-transparent pixel: [selector, drawn?].
PIXELS_JS = """
() => [...document.querySelectorAll(
  '.confusionlab-roc-slice canvas, .confusionlab-metric-pmf canvas, .confusionlab-bias-plot canvas,'
  + ' .confusionlab-stability-plot canvas')].map((c) => {
    const view = c.closest('[class*="confusionlab-"]').className.split(' ')
      .find((n) => n.startsWith('confusionlab-') && n !== 'confusionlab-chart');
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let drawn = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn += 1;
    return [view, drawn];
  })
"""

#: The WebGL simplex: pixels read back after a frame (preserveDrawingBuffer is off, so
#: draw into a 2-D canvas in the same task as the read).
SIMPLEX_PIXELS_JS = """
() => [...document.querySelectorAll('.confusionlab-simplex canvas')].map((c) => {
  const copy = document.createElement('canvas');
  copy.width = c.width; copy.height = c.height;
  const ctx = copy.getContext('2d');
  ctx.drawImage(c, 0, 0);
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  let drawn = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) drawn += 1;
  return drawn;
})
"""


def test_exported_page_draws_the_widgets_without_network(exported_page: Any, tmp_path: Path) -> None:
    with exported_page(CELLS, name="views", viewport=(1400, 1000)) as page:
        assert (tmp_path / "html" / RENDERER).is_file()
        page.wait_for_selector('.confusionlab-roc-slice[data-points="861"]')
        page.wait_for_selector('.confusionlab-simplex[data-points="39711"]')
        page.wait_for_selector(".confusionlab-metric-pmf")
        page.wait_for_selector('body[data-confusionlab-views="4"]')
        assert "metric: Matthews correlation coefficient" in page.inner_text("body")  # a dropdown, as text
        # BiasView and StabilityView draw too (canvas charts; bqplot would vanish here).
        page.wait_for_selector('.confusionlab-bias-view .confusionlab-bias-plot[data-marks="204"]')
        page.wait_for_selector('.confusionlab-stability-view .confusionlab-stability-plot[data-series="3"]')
        page.wait_for_selector('.confusionlab-stability-view .confusionlab-stability-plot[data-series="1"]')
        assert "DPPL" in page.inner_text(".confusionlab-bias-view")
        assert "Recommended for the target" in page.inner_text(".confusionlab-stability-view")
        assert page.locator(".confusionlab-static-error, [data-error]").count() == 0
        pixels = page.evaluate(PIXELS_JS)
        views = sorted({view for view, _ in pixels})
        assert views == [
            "confusionlab-bias-plot",
            "confusionlab-metric-pmf",
            "confusionlab-roc-slice",
            "confusionlab-stability-plot",
        ], pixels
        assert all(drawn > 500 for _, drawn in pixels), f"a view's canvas is (nearly) empty: {pixels}"
        simplex_pixels = page.evaluate(SIMPLEX_PIXELS_JS)
        print("drawn pixels per canvas:", pixels, "simplex:", simplex_pixels)
        assert len(simplex_pixels) == 1 and simplex_pixels[0] > 500, simplex_pixels
        page.screenshot(path=str(tmp_path / "export.png"), full_page=True)


def test_exported_appendix_is_collapsed_until_opened(browser: Any, tmp_path: Path) -> None:
    """A lesson's appendix (cells tagged ``appendix``) is in the page but hidden until its summary is clicked."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    from confusionlab.export import to_html

    appendix = {"tags": ["appendix"]}
    check_output = new_output("execute_result", {"text/plain": "'all checks passed'"}, execution_count=1)
    cells = [
        new_markdown_cell("# 99 — A lesson\n\nThe lesson text."),
        new_markdown_cell("## Appendix: checks", metadata=appendix),
        new_code_cell(
            "assert 6 * 7 == 42\n'all checks passed'",
            metadata={**appendix, "jupyter": {"source_hidden": True, "outputs_hidden": True}},
            outputs=[check_output],
        ),
    ]
    notebook = tmp_path / "lesson.ipynb"
    nbformat.write(new_notebook(cells=cells), notebook)
    page_path = to_html(notebook, tmp_path / "html", execute=False)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(page_path.as_uri())
        details = page.locator("details.confusionlab-appendix")
        assert details.count() == 1
        assert details.evaluate("d => d.open") is False
        check = page.locator("details.confusionlab-appendix .jp-CodeCell")
        assert page.get_by_text("The lesson text.").is_visible()
        assert not check.is_visible()
        page.locator("details.confusionlab-appendix > summary").click()
        check.wait_for(state="visible")
        assert "all checks passed" in check.inner_text()
    finally:
        context.close()
