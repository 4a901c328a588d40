"""Every Python example of the documentation site runs as written (one namespace per page, top to bottom),
and the numbers its pages state are what the code gives."""

from __future__ import annotations

import re
import warnings
from fractions import Fraction
from pathlib import Path

import pytest

DOCS = Path(__file__).parents[2] / "docs"
PAGES = sorted(path for path in DOCS.rglob("*.md") if re.search(r"```python\n", path.read_text(encoding="utf-8")))


def test_the_site_has_python_examples() -> None:
    assert len(PAGES) >= 6


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_example_on_the_page_runs(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DOCS.parent)
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    namespace: dict = {"__name__": "docs"}
    for number, block in enumerate(blocks, start=1):
        try:
            exec(compile(block, f"{page.name} python block {number}", "exec"), namespace)
        except Exception as exc:  # pragma: no cover - the message is the point
            raise AssertionError(f"{page.name} python block {number} fails: {exc!r}\n{block}") from exc


def test_float_grouping_of_balanced_accuracy_splits_exact_ties() -> None:
    """conventions.md: at p = 20, n = 40 balanced accuracy has 81 distinct values; grouping the
    floats (tp/p + tn/n)/2 finds 122 (brute force with Fraction and with floats)."""
    exact = {(Fraction(tp, 20) + Fraction(tn, 40)) / 2 for tp in range(21) for tn in range(41)}
    floats = {(tp / 20 + tn / 40) / 2 for tp in range(21) for tn in range(41)}
    assert (len(exact), len(floats)) == (81, 122)
    text = (DOCS / "guide" / "conventions.md").read_text(encoding="utf-8")
    assert "exactly 81 distinct values" in text and "finds 122" in text


def test_the_learners_the_fitted_2pl_needs() -> None:
    """stability.md: the 2PL S(n) = n^b / (a^b + n^b) (a = 40, b = 1.3) reaches 0.95 at
    n = a · 19^(1/b) = 385.2, solved by hand; the fit of the exact curve recovers it."""
    from confusionlab import stability as st

    by_hand = 40.0 * 19 ** (1 / 1.3)
    n = [10, 25, 50, 100, 250, 500]
    assert st.fit_2pl(n, st.twopl(n, 40.0, 1.3)).learners_for(0.95) == pytest.approx(by_hand, rel=1e-6)
    assert f"{by_hand:.1f}" == "385.2"
    assert "385.2" in (DOCS / "guide" / "stability.md").read_text(encoding="utf-8")


def test_the_dask_examples_warn_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """big-data.md's Dask examples run with every warning an error: our first-partition glance used
    Dask's ``head(10_000, npartitions=1)``, which warned ``Insufficient elements for head`` on each
    (the example's partitions hold 2,500 rows)."""
    monkeypatch.chdir(DOCS.parent)
    text = (DOCS / "guide" / "big-data.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL) if "import dask" in b]
    assert blocks
    namespace: dict = {"__name__": "docs"}
    exec("import confusionlab as cl", namespace)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for number, block in enumerate(blocks, start=1):
            exec(compile(block, f"big-data.md Dask block {number}", "exec"), namespace)
    assert namespace["paired"].value == pytest.approx(-0.5)  # A right on half the rows, B on all
