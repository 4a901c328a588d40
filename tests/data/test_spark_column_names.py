"""Column names Spark would read as a field access or a quote (a dot, a backtick): every job with
``data=`` on Spark quotes them, and answers as on pandas (with ``score_bins``, as the array path on
the binned scores)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import confusionlab as cl

from .conftest import make_frame, to_spark

#: Each column renamed to a name with a dot and a backtick (the brief's "a.b`c" for the label).
ODD = {"y": "a.b`c", "p": "p.`q", "g": "g`.h", "s": "s.t`", "q": "`q.r"}

DF = make_frame(n=300, seed=4)[list(ODD)].rename(columns=ODD)


@pytest.fixture(scope="module")
def data(spark):
    return to_spark(spark, DF)


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_evaluate_quotes_the_spark_columns(data):
    kw = dict(y_true=ODD["y"], y_pred=ODD["p"], groups=ODD["g"])
    ev, ref = cl.evaluate(data=data, **kw), cl.evaluate(data=DF, **kw)
    assert ev.groups == ref.groups
    np.testing.assert_array_equal(ev.counts, ref.counts)


def test_roc_curve_quotes_the_spark_columns(data):
    kw = dict(y_true=ODD["y"], y_score=ODD["s"])
    c, ref = cl.roc_curve(data=data, **kw), cl.roc_curve(data=DF, **kw)
    for attr in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(c, attr), getattr(ref, attr))
    assert close(c.value, ref.value)


@pytest.mark.parametrize("groups", [None, ODD["g"]])
def test_roc_curve_with_score_bins_quotes_the_spark_columns(data, groups):
    """Binned by Spark (the packed key without groups, the grouped aggregation with them): the curve is
    the array path's on the scores replaced by their bin's lower edge."""
    c = cl.roc_curve(data=data, y_true=ODD["y"], y_score=ODD["s"], score_bins=8, groups=groups)
    curves = dict(getattr(c, "members", c)) if groups is not None else {None: c}
    y, s, g = (DF[ODD[k]].to_numpy() for k in ("y", "s", "g"))
    for name, curve in curves.items():
        rows = np.ones(len(DF), bool) if name is None else g == name
        edges = curve.score_edges
        binned = edges[np.searchsorted(edges[1:], s[rows], side="right")]
        ref = cl.roc_curve(y[rows], binned)
        np.testing.assert_array_equal(curve.tpr, ref.tpr)
        np.testing.assert_array_equal(curve.fpr, ref.fpr)


def test_calibration_quotes_the_spark_columns(data):
    kw = dict(y_true=ODD["y"], y_prob=ODD["q"], random_state=0)
    c, ref = cl.calibration(data=data, **kw), cl.calibration(data=DF, **kw)
    np.testing.assert_array_equal(c.counts, ref.counts)
    assert close(c.value, ref.value) and close(c.brier, ref.brier)


def test_count_columns_with_edges_quotes_the_spark_columns(data):
    """Explicit edges go through Spark's Bucketizer: the same table as pandas."""
    from confusionlab._tables import count_columns

    columns = {"y_true": ODD["y"], "y_score": ODD["s"], "groups": ODD["g"]}
    bins = {"y_score": [-1.0, 0.0, 0.5, 1.5]}
    got, want = count_columns(data, columns, bins=bins), count_columns(DF, columns, bins=bins)

    def cells(t):
        return sorted(zip(*(t.values[a] for a in columns), t.n.tolist(), strict=True))

    assert cells(got) == cells(want) and got.missing == want.missing == {}
