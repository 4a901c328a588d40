"""PairedView renders in JupyterLab (following the kernel) and in the static HTML export, offline."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from confusionlab.paired import compare_paired_cells

if TYPE_CHECKING:
    from conftest import LabSession

TABLE = [[50, 3, 1, 6], [2, 4, 1, 33]]
CELL = (
    "from confusionlab.paired import compare_paired_cells\n"
    "from confusionlab.widgets.paired_view import PairedView\n"
    f"r = compare_paired_cells({TABLE}, 'accuracy', target='next_test_set')\n"
    "w = PairedView(r, margin=0.02, bins=24, name_a='logistic', name_b='tree')\n"
    "w"
)


def test_paired_view_follows_the_kernel_in_jupyterlab(lab: LabSession, tmp_path: Path) -> None:
    name = "paired_view.ipynb"
    lab.open_notebook(name, [CELL], wait_for='.confusionlab-paired[data-method="exact"][data-generation="0"]')
    page = lab.page
    kernel = lab.kernel(name)
    root = page.locator(".confusionlab-paired")
    summary = kernel.evaluate("w._summary")
    assert root.get_attribute("data-verdict") == summary["verdict"]
    assert int(root.get_attribute("data-bins")) == kernel.evaluate("len(w._edges) // 8 - 1")
    assert float(root.get_attribute("data-prob-greater")) == summary["prob_greater"]
    assert int(root.get_attribute("data-cells")) > 0 and int(root.get_attribute("data-marks")) > 0
    text = root.inner_text()
    assert "new test set of 100 examples (60 positives, 40 negatives)" in text
    assert "logistic would score higher than tree with probability" in text
    kernel.execute("w.update(margin=0.3, generation=1)")
    verdict = kernel.evaluate("w._summary['verdict']")
    assert verdict == compare_paired_cells(TABLE, "accuracy", target="next_test_set").verdict(0.3, 0.95)
    page.wait_for_selector(f'.confusionlab-paired[data-generation="1"][data-margin="0.3"][data-verdict="{verdict}"]')
    page.screenshot(path=str(tmp_path / "paired_view.png"))


def test_paired_view_draws_in_the_export_without_network(exported_page: Any, tmp_path: Path) -> None:
    expected = compare_paired_cells(TABLE, "accuracy", target="next_test_set")
    with exported_page([CELL], name="paired", viewport=(1400, 1000)) as page:
        root = page.wait_for_selector(
            f'.confusionlab-paired[data-method="exact"][data-verdict="{expected.verdict(0.02, 0.95)}"]'
        )
        assert float(root.get_attribute("data-prob-greater")) == expected.prob_greater
        assert int(root.get_attribute("data-cells")) > 0 and int(root.get_attribute("data-marks")) > 0
        assert "logistic would score higher than tree" in root.inner_text()
        page.screenshot(path=str(tmp_path / "paired_export.png"), full_page=True)
