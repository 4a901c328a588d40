"""Monte Carlo draws in bounded memory, and refusals before allocating."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from confusionlab import bias
from confusionlab._validation import TooLargeError, set_memory_limit
from confusionlab.bias import uncertainty as un
from confusionlab.bias.counts import CountTable
from confusionlab.distribution import count_draws


def _grouped_table(groups: int) -> CountTable:
    rng = np.random.default_rng(0)
    counts = rng.integers(0, 6, size=(groups, 2, 2, 2)).astype(np.int64)
    counts[0] = 3  # every outcome present
    return CountTable(counts, (False, True), np.array([False, True]), tuple(range(groups)), True)


@pytest.fixture
def small_memory_limit():
    yield set_memory_limit
    set_memory_limit(None)


def test_cddl_interval_draws_in_chunks_whatever_the_number_of_groups(monkeypatch):
    """5,000 subgroups: the draws used to be materialised at once (n_draws x groups x 4 cells,
    > 9 GB at the default 20,000 draws); now the working memory is a chunk, here 1 MiB."""
    monkeypatch.setattr(count_draws, "CHUNK_BYTES", 1024**2)
    t = _grouped_table(5000)
    r = bias.report_from_counts(t, stage="pre", n_draws=200)
    tracemalloc.start()
    try:
        lo, hi = r["CDDL"].interval(0.95)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # unchunked: 200 draws x 20,000 cells x 8 bytes = 32 MB per array (gamma, probabilities, counts)
    assert peak < 8 * 1024**2, peak
    assert lo <= r["CDDL"].value <= hi
    assert r["CDDL"].distribution.strategy == "monte carlo: 200 draws, random_state 0"


def test_chunked_draws_are_the_same_draws_as_one_block(monkeypatch):
    cells = np.array([[3, 1, 0, 2], [5, 0, 1, 1], [0, 0, 2, 7]])
    whole = un.dirichlet_multinomial_draws(cells, n_draws=500, random_state=4)
    f = lambda x: x[..., 0].sum(axis=-1) / x.sum(axis=(-1, -2))  # noqa: E731
    values = un.sampled_metric(f, cells, n_draws=500, random_state=4)
    np.testing.assert_array_equal(values, f(whole))
    assert (whole.sum(axis=-1) == cells.sum(axis=-1)).all()


def test_one_draw_too_large_for_the_memory_limit_is_refused(small_memory_limit):
    t = _grouped_table(10_000)
    r = bias.report_from_counts(t, stage="pre", n_draws=100)
    small_memory_limit("1M")
    with pytest.raises(TooLargeError, match=r"one Monte Carlo draw of 40,000 count cells would need about"):
        r["CDDL"].interval()


@pytest.mark.parametrize("where", ["report", "report_from_counts", "draws", "sampled_metric"])
def test_huge_n_draws_is_refused_before_allocating(where):
    t = CountTable.from_confusion(a=(5, 1, 2, 8), d=(3, 1, 2, 4))
    import pandas as pd

    df = pd.DataFrame({"y": [1, 0, 1, 0], "s": list("FFMM")})
    call = {
        "report": lambda: bias.report(df, label="y", positive_values=[1], facet="s", facet_values=["F"], n_draws=10**9),
        "report_from_counts": lambda: bias.report_from_counts(t, n_draws=10**9),
        "draws": lambda: un.dirichlet_multinomial_draws(np.array([[1, 2]]), n_draws=10**9),
        "sampled_metric": lambda: un.sampled_metric(np.sum, np.array([[1, 2]]), n_draws=10**9),
    }[where]
    with pytest.raises(TooLargeError, match=r"n_draws=1,000,000,000 Monte Carlo draws would need about"):
        call()


@pytest.mark.parametrize(
    ("value", "exc"), [(100.0, TypeError), (True, TypeError), (99, ValueError), ("1e4", TypeError)]
)
def test_n_draws_is_an_integer(value, exc):
    t = CountTable.from_confusion(a=(5, 1, 2, 8), d=(3, 1, 2, 4))
    with pytest.raises(exc, match=r"n_draws must be"):
        bias.report_from_counts(t, n_draws=value)


def test_huge_facet_support_is_refused_before_allocating(small_memory_limit):
    small_memory_limit("1M")
    big = 10**12
    with pytest.raises(
        TooLargeError,
        match=r"the size of facet d marginal over .* counts .* would need about .*; compute the metric on a subsample",
    ):
        un.exact_facet_sizes(bias.label_metrics.class_imbalance, np.array([big, big]))
