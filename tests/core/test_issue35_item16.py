"""Issue 35 item 16, the small ones: each reproduction ends in the right answer or a refusal that
names the argument. References: exact integer arithmetic, hand counts, and the exact method's
probability for the Monte Carlo error."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab import bias
from confusionlab import stability as st


def test_matrix_beyond_2_53_examples_refused():
    """Four counts each at most 2**53 whose total is 2**55: the rates would not be exact."""
    with pytest.raises(cl.InvalidParameterError, match=r"tp \+ fn \+ fp \+ tn .* 2\*\*53"):
        cl.ConfusionMatrix(tp=2**53, fn=2**53, fp=2**53, tn=2**53)
    cm = cl.ConfusionMatrix(tp=2**52, fn=2**51, fp=2**50, tn=2**50)  # total exactly 2**53
    assert cm.N == 2**53 and cm.tpr == 2 / 3


def test_one_column_facet_value_as_one_tuple():
    """facet=['sex'], facet_values=[('F',)]: the 1-tuple is the value (as k-tuples are for k columns).

    Hand count: F rows have y = 1, 0, 1, 1 (q_d = 3/4), the rest 0, 0, 1 (q_a = 1/3); DPL = q_a − q_d.
    """
    df = pd.DataFrame({"y": [1, 0, 1, 0, 1, 1, 0], "sex": list("FFMMFFM")})
    common = {"label": "y", "positive_values": [1], "stage": "pre"}
    r = bias.report(df, facet=["sex"], facet_values=[("F",)], **common)
    assert r["DPL"].value == pytest.approx(1 / 3 - 3 / 4, abs=1e-15)
    assert r["DPL"].value == bias.report(df, facet="sex", facet_values=["F"], **common)["DPL"].value
    with pytest.raises(cl.InvalidParameterError, match="facet_values"):
        bias.report(df, facet="sex", facet_values=[("F", "M")], **common)


@pytest.mark.parametrize("n_draws", [1, 2, 5])
def test_monte_carlo_error_never_zero_from_few_draws(n_draws):
    """A handful of agreeing draws estimate P as 0 or 1; its standard error is not 0. The exact
    method's P(A > B) lies within three of the reported errors of the estimate."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    a = np.where(rng.random(60) < 0.9, y, 1 - y)
    b = np.where(rng.random(60) < 0.7, y, 1 - y)
    exact = cl.compare_paired(y, a, b, "accuracy", method="exact", target="next_test_set").prob_greater
    for seed in range(5):
        r = cl.compare_paired(
            y, a, b, "accuracy", method="monte-carlo", n_draws=n_draws, random_state=seed, target="next_test_set"
        )
        assert r.mc_error > 0
        assert abs(r.prob_greater - exact) <= 3 * r.mc_error


class _Ragged:
    """A classifier whose prediction length depends on its size (a broken estimator)."""

    def __init__(self, n: int, seed: int) -> None:
        self.n = n

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.zeros(len(X) - (self.n > 1), dtype=int)


class _Constant(_Ragged):
    def predict(self, X):
        return np.arange(len(X)) % 2


def _data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(20, 2)), rng.integers(0, 2, 20), rng.normal(size=(6, 2))


def test_stability_curve_ragged_predictions_refused():
    X, y, X_test = _data()
    with pytest.raises(cl.InvalidParameterError, match=r"make_model.*\(5,\).*6"):
        st.stability_curve(_Ragged, X, y, X_test, n_learners=[1, 2], repeats=2, progress=False)


def test_stability_curve_result_index_out_of_range_refused():
    X, y, X_test = _data()
    curve = st.stability_curve(_Constant, X, y, X_test, n_learners=[1, 2], repeats=2, progress=False)
    assert curve.result(-1).n_objects == curve.result(1).n_objects == 6
    with pytest.raises(cl.InvalidParameterError, match="index"):
        curve.result(99)
