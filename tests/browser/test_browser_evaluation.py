"""The EvaluationView in JupyterLab (metric from the kernel, a click on a group moves the linked
RocSlice) and in the static HTML export, offline (nothing fetched from the network)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.metrics import confusion_matrix

if TYPE_CHECKING:
    from conftest import LabSession

#: Test data of the JupyterLab test: refits only, groups F and M (run here too, for the references).
DATA = (
    "import numpy as np\n"
    "rng = np.random.default_rng(5)\n"
    "y = rng.integers(0, 2, 240)\n"
    "pred = np.where(rng.random(240) < 0.8, y, 1 - y)\n"
    "runs = np.where(rng.random((5, 240)) < 0.9, pred, 1 - pred)\n"
    "groups = rng.choice(['F', 'M'], 240, p=[0.3, 0.7])\n"
)
LAB_CELL = (
    DATA + "import ipywidgets\n"
    "from confusionlab.evaluation import evaluate\n"
    "from confusionlab.widgets.evaluation_view import EvaluationView\n"
    "ev = evaluate(y, refits=runs, groups=groups, metrics=['f1', 'recall'])\n"
    "view = EvaluationView(ev, width=360)\n"
    "roc = view.slice_view(size=320)\n"
    "ipywidgets.HBox([view, roc])"
)

CELLS = [
    "import numpy as np\n"
    "from confusionlab.evaluation import evaluate\n"
    "from confusionlab.widgets.evaluation_view import EvaluationView\n"
    "rng = np.random.default_rng(0)\n"
    "y = rng.integers(0, 2, 300)\n"
    "pred = np.where(rng.random(300) < 0.8, y, 1 - y)\n"
    "runs = np.where(rng.random((6, 300)) < 0.9, pred, 1 - pred)\n"
    "ev = evaluate(y, refits=runs, groups=rng.choice(['F', 'M'], 300), metrics=['f1'], target='next_test_set')\n"
    "EvaluationView(ev)",
]


def test_evaluation_view_draws_in_the_export_without_network(exported_page: Any, tmp_path: Path) -> None:
    with exported_page(CELLS, name="evaluation", viewport=(1400, 1000)) as page:
        root = page.wait_for_selector('.confusionlab-evaluation[data-groups="3"][data-refits="6"]')
        assert int(root.get_attribute("data-marks")) > 0
        assert root.get_attribute("data-target") == "next_test_set"
        text = page.inner_text(".confusionlab-evaluation")
        assert "What will F1 score be on a new test set of the same size, scored by a new refit" in text
        assert "Least stable objects" in text
        page.screenshot(path=str(tmp_path / "evaluation.png"), full_page=True)


def test_evaluation_view_links_its_roc_slice_in_jupyterlab(lab: LabSession, tmp_path: Path) -> None:
    name = "evaluation_view.ipynb"
    root_selector = '.confusionlab-evaluation[data-groups="3"][data-refits="5"][data-selected="all"]'
    lab.open_notebook(name, [LAB_CELL], wait_for=root_selector)
    page = lab.page
    kernel = lab.kernel(name)
    data: dict[str, Any] = {}
    exec(DATA, data)  # the notebook's data, for the references below
    y, first, groups = data["y"], data["runs"][0], data["groups"]

    def slice_selector(mask: np.ndarray) -> str:
        # The first refit's matrix of the group, from scikit-learn (with refits only, the slice shows it).
        tn, fp, fn, tp = confusion_matrix(y[mask], first[mask], labels=[0, 1]).ravel()
        return f'.confusionlab-roc-slice[data-p="{tp + fn}"][data-n="{tn + fp}"][data-tp="{tp}"][data-tn="{tn}"]'

    page.wait_for_selector(slice_selector(np.ones(y.size, bool)))
    root = page.locator(".confusionlab-evaluation")
    assert root.get_attribute("data-metric") == "f1" and int(root.get_attribute("data-marks")) > 0
    assert "first refit" in root.inner_text()
    assert page.locator(".confusionlab-roc-slice").get_attribute("data-model") == "beta-binomial"

    kernel.execute("view.metric = 'recall'")
    page.wait_for_selector('.confusionlab-evaluation[data-metric="recall"][data-groups="3"]')
    question = kernel.evaluate("view._question")
    assert "Recall" in question and question in root.inner_text()

    for group in ["F", "M"]:
        page.locator(f'.confusionlab-evaluation .cl-group[data-group="{group}"] .cl-group-title').click()
        page.wait_for_selector(f'.confusionlab-evaluation[data-selected="{group}"]')
        page.wait_for_selector(f'.confusionlab-evaluation .cl-group.cl-selected[data-group="{group}"]')
        # The slice shows the group's matrix only after the kernel has processed the click.
        page.wait_for_selector(slice_selector(groups == group))
        assert kernel.evaluate("[view.selected, roc.p, roc.tp]") == [
            group,
            int(np.sum(y[groups == group])),
            int(np.sum((y == 1) & (first == 1) & (groups == group))),
        ]
    bubbles = page.locator(".confusionlab-roc-slice").get_attribute("data-bubbles")
    assert int(bubbles) > 0
    page.screenshot(path=str(tmp_path / "evaluation_view_linked.png"))
