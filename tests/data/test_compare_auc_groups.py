"""compare_auc(data=, groups=) on every engine equals the array path, and each group's numbers
are DeLong's 1988 (own O(m·n) implementation) with scikit-learn's AUCs.

One aggregation over (group, true label, score A, score B, …) delivers the tie-block count
table; each group's paired placements are weighted by the cells' counts. The frames in each
engine, the SparkSession and the Dask cluster are this folder's (tests/data/conftest.py).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scores.test_delong import delong_1988
from sklearn.metrics import roc_auc_score

import confusionlab as cl
from confusionlab.scores import GroupedAucComparison

from .conftest import ENGINES, in_engine


def _frame(n: int = 500, seed: int = 5) -> pd.DataFrame:
    """Three groups; scores with ties (s, t) and one without (u); a text label; hostile columns."""
    rng = np.random.default_rng(seed)
    g = rng.choice(["north", "south", "east"], n, p=[0.45, 0.35, 0.2])
    y = rng.integers(0, 2, n)
    base = rng.normal(size=n)
    s = (base + np.where(g == "east", 0.4, 1.1) * y).round(1)
    t = (base + 0.8 * y + 0.6 * rng.normal(size=n)).round(2)
    u = base + 0.6 * y + rng.normal(size=n)
    df = pd.DataFrame({"y": y, "yes": np.where(y == 1, "yes", "no"), "s": s, "t": t, "u": u, "g": g})
    df["k"] = np.where(g == "north", 7, np.where(g == "south", 3, 11))  # integer groups
    df["g_nan"] = df["g"].astype(object)
    df.loc[[4, 9, 17], "g_nan"] = None  # 3 missing groups
    one = df["g"].to_numpy().copy()
    one[(g == "east") & (y == 1)] = "west"  # west: positives only, east: negatives only
    df["g_one"] = one
    df["g_same"] = "all"
    return df


DF = _frame()
COLS = {c: DF[c].to_numpy() for c in DF.columns}


@pytest.fixture(params=ENGINES)
def data(request):
    return in_engine(DF, request.param, request)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-11, abs_tol=1e-13)


def _same_as_arrays(c: GroupedAucComparison, ref: GroupedAucComparison) -> None:
    assert isinstance(c, GroupedAucComparison) and c.names == ref.names
    assert c.classifiers == ref.classifiers and c.pairs == ref.pairs
    for name in ref.names:
        a, b = c[name], ref[name]
        assert (a.p, a.n) == (b.p, b.n)
        assert all(_close(a.aucs[k], b.aucs[k]) for k in b.aucs)
        np.testing.assert_allclose(a.covariance, b.covariance, rtol=1e-11, atol=1e-16)
    for got, want in ((c.value, ref.value), (c.interval(0.9), ref.interval(0.9))):
        np.testing.assert_allclose(np.ravel(list(_flat(got))), np.ravel(list(_flat(want))), rtol=1e-10, atol=1e-13)
    for name in ref.names:
        np.testing.assert_allclose(
            list(_flat(c.p_values[name])), list(_flat(ref.p_values[name])), rtol=1e-9, atol=1e-15
        )
        np.testing.assert_allclose(
            list(_flat(c.intervals()[name])), list(_flat(ref.intervals()[name])), rtol=1e-10, atol=1e-13
        )
    assert c.largest_gap == ref.largest_gap


def _flat(v):
    if isinstance(v, dict):
        for x in v.values():
            yield from _flat(x)
    elif isinstance(v, tuple):
        for x in v:
            yield from _flat(x)
    else:
        yield float(v)


def test_two_classifiers_per_group_equal_the_array_path_and_the_paper(data):
    c = cl.compare_auc(data=data, y_true="y", score_a="s", score_b="t", groups="g")
    ref = cl.compare_auc(COLS["y"], COLS["s"], COLS["t"], groups=COLS["g"])
    _same_as_arrays(c, ref)
    assert c.names == ["east", "north", "south"]
    for name in c.names:  # independent references: the paper's O(m·n) covariance, scikit-learn's AUCs
        rows = COLS["g"] == name
        y = COLS["y"][rows]
        aucs, cov = delong_1988(y, [COLS["s"][rows], COLS["t"][rows]])
        np.testing.assert_allclose(c[name].covariance, cov, rtol=1e-10, atol=1e-16)
        assert _close(c[name].aucs["A"], aucs[0]) and _close(c[name].aucs["B"], aucs[1])
        assert _close(c.differences[name], roc_auc_score(y, COLS["s"][rows]) - roc_auc_score(y, COLS["t"][rows]))
        assert (c[name].p, c[name].n) == (int(y.sum()), int((1 - y).sum()))


def test_three_classifiers_text_labels_and_integer_groups(data):
    scores = {"S": "s", "T": "t", "U": "u"}
    c = cl.compare_auc(data=data, y_true="yes", score_a=scores, groups="k", positive="yes")
    ref = cl.compare_auc(COLS["yes"], {k: COLS[v] for k, v in scores.items()}, groups=COLS["k"], positive="yes")
    _same_as_arrays(c, ref)
    assert c.names == [3, 7, 11]


def test_with_score_bins_each_group_states_its_largest_auc_difference(data):
    c = cl.compare_auc(data=data, y_true="y", score_a="s", score_b="u", groups="g", score_bins=8)
    whole = cl.compare_auc(data=data, y_true="y", score_a="s", score_b="u", score_bins=8)
    assert c.names == ["east", "north", "south"]
    for name in c.names:
        rows = COLS["g"] == name
        y = COLS["y"][rows]
        for col, key in (("s", "A"), ("u", "B")):
            exact = roc_auc_score(y, COLS[col][rows])
            # the binned AUC is within the stated bound of the unbinned one (bins shared with the whole table)
            assert abs(c[name].aucs[key] - exact) <= c[name].max_auc_error[key] + 1e-12
        assert c[name].max_auc_error["B"] > 0 and c[name].score_bins == 8
    assert whole.max_auc_error["B"] > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_hostile_groups_are_refused_by_name(engine, request):
    data = in_engine(DF, engine, request)
    kw = dict(data=data, y_true="y", score_a="s", score_b="t")
    with pytest.raises(cl.InvalidParameterError, match=r"^groups: column 'g_nan' has 3 missing value"):
        cl.compare_auc(**kw, groups="g_nan")
    with pytest.raises(cl.InvalidParameterError, match=r"groups: column 'region' is not in data"):
        cl.compare_auc(**kw, groups="region")
    with pytest.raises(cl.InvalidParameterError, match=re.escape("groups: group 'east' has no positives")):
        cl.compare_auc(**kw, groups="g_one")
    with pytest.raises(cl.InvalidParameterError, match=r"groups holds 1 group\(s\) \('all'\).*one comparison"):
        cl.compare_auc(**kw, groups="g_same")


def test_the_refusals_are_the_array_paths():
    y, s, t = COLS["y"], COLS["s"], COLS["t"]
    for col in ("g_one", "g_same"):
        with pytest.raises(cl.InvalidParameterError) as arrays:
            cl.compare_auc(y, s, t, groups=COLS[col])
        with pytest.raises(cl.InvalidParameterError) as frame:
            cl.compare_auc(data=DF, y_true="y", score_a="s", score_b="t", groups=col)
        assert str(frame.value) == str(arrays.value)
    with pytest.raises(cl.InvalidParameterError, match=r"^with data=, groups is a column name \(a string\)"):
        cl.compare_auc(data=DF, y_true="y", score_a="s", score_b="t", groups=COLS["g"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(0, 50),
    seed=st.integers(0, 2**16),
    group_values=st.lists(
        st.one_of(st.sampled_from(["a", "b"]), st.integers(-1, 1), st.none()), min_size=2, max_size=3, unique=True
    ),
    bad_score=st.sampled_from([None, None, None, math.nan, math.inf]),
    rounded=st.booleans(),
)
def test_hostile_frames_by_hypothesis_equal_the_array_path(n, seed, group_values, bad_score, rounded) -> None:
    """Any frame (tiny groups, one group, mixed group types, missing groups, a non-finite score,
    heavy ties): compare_auc(data=, groups=) gives the array path's comparison, or refuses as it
    does (InvalidParameterError with a message) — never another exception."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a, b = rng.normal(size=n) + y, rng.normal(size=n) + 0.5 * y
    if rounded:
        a, b = a.round(0), b.round(0)
    if bad_score is not None and n:
        a[rng.integers(n)] = bad_score
    groups = np.array([group_values[i] for i in rng.integers(len(group_values), size=n)], dtype=object)
    frame = pd.DataFrame({"y": y, "a": a, "b": b, "g": groups})
    try:
        ref = cl.compare_auc(y, a, b, groups=groups)
    except cl.InvalidParameterError:
        ref = None
    try:
        got = cl.compare_auc(data=frame, y_true="y", score_a="a", score_b="b", groups="g")
    except cl.InvalidParameterError as exc:
        assert str(exc)
        got = None
    if ref is None or got is None:  # a frame may say more precisely what is wrong, but both refuse
        assert ref is None and got is None
        return
    _same_as_arrays(got, ref)
