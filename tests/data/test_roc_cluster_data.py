"""roc_curve(data=, cluster=) on every engine equals the array path to 1e-12, alone and with groups=.

The cluster column is one more key of the (true label, score, group, cluster) count table; each
cell's placements are weighted by its count in Obuchowski's cluster sums. The array path's
numbers are themselves checked against the paper's formulas pair by pair in exact arithmetic
(tests/cluster/test_roc_cluster.py). The frames in each engine, the SparkSession and the Dask
cluster are this folder's (tests/data/conftest.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl

from .conftest import ENGINES, in_engine


def _frame(n_clusters: int = 40, seed: int = 11) -> pd.DataFrame:
    """Clusters of 1–7 rows with a shared random effect on the scores (ties on purpose), nested in
    two groups; text cluster ids, a hostile one among them."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 8, n_clusters)
    c = np.repeat(np.arange(n_clusters), sizes)
    y = rng.integers(0, 2, c.size)
    s = (1.1 * y + np.repeat(rng.normal(0, 0.8, n_clusters), sizes) + rng.normal(0, 0.6, c.size)).round(1)
    ids = np.array([f"p{k}" for k in range(n_clusters)], dtype=object)
    ids[3] = "<b>$x^$</b>"
    return pd.DataFrame({"y": y, "s": s, "c": ids[c], "g": np.where(c % 3 == 0, "north", "south")})


DF = _frame()
COLS = {k: DF[k].to_numpy() for k in DF.columns}


@pytest.fixture(params=ENGINES)
def data(request):
    return in_engine(DF, request.param, request)


def _same_curve(a, b) -> None:
    assert a.value == pytest.approx(b.value, rel=1e-12, abs=1e-12)
    assert a._cluster.variance == pytest.approx(b._cluster.variance, rel=1e-12, abs=1e-15)
    assert a._cluster.n_clusters == b._cluster.n_clusters
    assert a.design_effect == pytest.approx(b.design_effect, rel=1e-12)
    assert a.effective_size == pytest.approx(b.effective_size, rel=1e-12)
    assert a.interval() == pytest.approx(b.interval(), rel=1e-12, abs=1e-12)
    assert a.interval_method == b.interval_method


def test_clustered_curve_from_data_equals_the_arrays(data):
    by_data = cl.roc_curve("y", "s", data=data, cluster="c")
    by_arrays = cl.roc_curve(COLS["y"], COLS["s"], cluster=COLS["c"])
    _same_curve(by_data, by_arrays)
    assert by_data.design_effect != 1.0  # the clusters count


def test_clustered_groups_from_data_equal_the_arrays(data):
    by_data = cl.roc_curve("y", "s", data=data, groups="g", cluster="c")
    by_arrays = cl.roc_curve(COLS["y"], COLS["s"], groups=COLS["g"], cluster=COLS["c"])
    assert by_data.names == by_arrays.names == ["north", "south"]
    for name in by_data.names:
        _same_curve(by_data[name], by_arrays[name])
    _same_curve(by_data.overall, by_arrays.overall)
    assert by_data.interval() == pytest.approx(by_arrays.interval(), rel=1e-12, abs=1e-12)


def test_binned_scores_with_clusters_are_the_arrays_of_the_binned_scores():
    by_data = cl.roc_curve("y", "s", data=DF, cluster="c", score_bins=5)
    edges = by_data.score_edges
    binned = edges[np.searchsorted(edges, COLS["s"], side="right") - 1]
    _same_curve(by_data, cl.roc_curve(COLS["y"], binned, cluster=COLS["c"]))


def test_missing_cluster_and_one_cluster_are_refused_by_name():
    frame = DF.assign(c=DF["c"].where(DF.index != 5, None))
    with pytest.raises(cl.InvalidParameterError, match=r"^cluster: column 'c' has 1 missing"):
        cl.roc_curve("y", "s", data=frame, cluster="c")
    with pytest.raises(cl.InvalidParameterError, match="single cluster"):
        cl.roc_curve("y", "s", data=DF.assign(c="one"), cluster="c")
    with pytest.raises(cl.InvalidParameterError, match="with data=, cluster is a column name"):
        cl.roc_curve("y", "s", data=DF, cluster=COLS["c"])


def test_a_cluster_spanning_two_groups_is_refused_by_name_on_both_paths():
    sizes = DF[DF["g"] == "south"].groupby("c").size()
    span = sizes.index[sizes >= 2][0]
    g = COLS["g"].copy()
    g[np.flatnonzero(COLS["c"] == span)[-1]] = "north"  # the cluster's last row moved to the other group
    message = rf"^cluster: cluster '{span}' has rows in groups 'south' and 'north'"
    with pytest.raises(cl.InvalidParameterError, match=message):
        cl.roc_curve("y", "s", data=DF.assign(g=g), groups="g", cluster="c")
    with pytest.raises(cl.InvalidParameterError, match=message):
        cl.roc_curve(COLS["y"], COLS["s"], groups=g, cluster=COLS["c"])
