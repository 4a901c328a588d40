"""Exported HTML draws the widgets offline: opened from disk, nothing fetched from the network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from confusionlab.export import RENDERER, to_html

CELLS = [
    "import confusionlab as cl\nw = cl.RocSlice(p=20, n=40, tp=16, tn=32, metric='mcc')\nw",
    "x = cl.Explorer(N=60, p=20, tp=16, tn=32)\nx",
]


def test_exported_page_draws_the_widgets_without_network(browser: Any, tmp_path: Path) -> None:
    notebook = tmp_path / "views.ipynb"
    nbformat.write(
        new_notebook(
            cells=[new_code_cell(c) for c in CELLS],
            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        ),
        notebook,
    )
    page_path = to_html(notebook, tmp_path / "html")
    assert (page_path.parent / RENDERER).is_file()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    fetched: list[str] = []

    def only_local(route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "blob:", "data:")):
            route.continue_()
        else:
            fetched.append(url)
            route.abort()

    page.route("**/*", only_local)
    try:
        page.goto(page_path.as_uri())
        page.wait_for_selector('.confusionlab-roc-slice[data-points="861"]')
        page.wait_for_selector('.confusionlab-simplex[data-points="39711"]')
        page.wait_for_selector(".confusionlab-metric-pmf")
        page.wait_for_selector('body[data-confusionlab-views="2"]')
        assert "metric: Matthews correlation coefficient" in page.inner_text("body")  # a dropdown, as text
        page.screenshot(path=str(tmp_path / "export.png"), full_page=True)
    finally:
        context.close()
    assert fetched == [], f"the exported page tried to fetch {fetched}"
