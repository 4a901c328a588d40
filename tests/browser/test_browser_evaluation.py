"""The EvaluationView draws in the static HTML export, offline (nothing fetched from the network)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

from confusionlab.export import to_html

CELLS = [
    "import numpy as np\n"
    "from confusionlab.evaluation import evaluate\n"
    "from confusionlab.widgets.evaluation_view import EvaluationView\n"
    "rng = np.random.default_rng(0)\n"
    "y = rng.integers(0, 2, 300)\n"
    "pred = np.where(rng.random(300) < 0.8, y, 1 - y)\n"
    "runs = np.where(rng.random((6, 300)) < 0.9, pred, 1 - pred)\n"
    "ev = evaluate(y, refits=runs, groups=rng.choice(['F', 'M'], 300), metrics=['f1'])\n"
    "EvaluationView(ev)",
]


def test_evaluation_view_draws_in_the_export_without_network(browser: Any, tmp_path: Path) -> None:
    notebook = tmp_path / "evaluation.ipynb"
    nbformat.write(
        new_notebook(
            cells=[new_code_cell(c) for c in CELLS],
            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        ),
        notebook,
    )
    page_path = to_html(notebook, tmp_path / "html")
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
        root = page.wait_for_selector('.confusionlab-evaluation[data-groups="3"][data-refits="6"]')
        assert int(root.get_attribute("data-marks")) > 0
        assert root.get_attribute("data-target") == "next_test_set"
        text = page.inner_text(".confusionlab-evaluation")
        assert "What will F1 score be on a new test set of the same size, scored by a new refit" in text
        assert "Least stable objects" in text
        page.screenshot(path=str(tmp_path / "evaluation.png"), full_page=True)
    finally:
        context.close()
    assert fetched == [], f"the exported page tried to fetch {fetched}"
