"""Issue 35 item 15 (rest): a missing value in a nullable Float64 score or forecast is refused as a
missing value on every path that takes them; a DuckDB HUGEINT label column answers as the array path
does; ``calibration(bins=100_000)`` with the default ``n_draws`` and the ROC bootstrap at a million
distinct scores stay within a small memory limit (their draws streamed). References: the array path
on plain int64 labels (the data= contract), and the memory limit itself (refused before allocating)."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pandas as pd
import pytest

import confusionlab as cl
from confusionlab._validation import set_memory_limit

RNG = np.random.default_rng(0)
Y = RNG.integers(0, 2, 400)
S = RNG.normal(size=400) + Y
Q = 1 / (1 + np.exp(-S))


def _with_na(values: np.ndarray) -> pd.arrays.FloatingArray:
    out = pd.array(values, dtype="Float64")
    out[3] = pd.NA
    return out


@pytest.fixture
def limit():
    yield set_memory_limit
    set_memory_limit(None)


MATRIX = pd.DataFrame({c: _with_na(RNG.random(400)) for c in "abc"})
ONE_MISSING = pd.DataFrame({c: pd.array(RNG.random(400), dtype="Float64") for c in "abc"})
ONE_MISSING.iloc[5, 1] = pd.NA  # the first column is whole: read as numbers, the second refused
PATHS = {
    "roc_curve": (lambda: cl.roc_curve(Y, _with_na(S)), "y_score"),
    "roc_curve Series": (lambda: cl.roc_curve(Y, pd.Series(_with_na(S))), "y_score"),
    "roc_curve groups": (lambda: cl.roc_curve(Y, _with_na(S), groups=Y % 2), "y_score"),
    "precision_recall_curve": (lambda: cl.precision_recall_curve(Y, _with_na(S)), "y_score"),
    "compare_auc": (lambda: cl.compare_auc(Y, _with_na(S), S), "score_a"),
    "compare_auc dict": (lambda: cl.compare_auc(Y, {"a": S, "b": _with_na(S)}), "score_a['b']"),
    "roc_curve matrix": (lambda: cl.roc_curve(RNG.integers(0, 3, 400), MATRIX, multi_class="ovr"), "y_score[:, 0]"),
    "roc_curve matrix, one missing": (
        lambda: cl.roc_curve(RNG.integers(0, 3, 400), ONE_MISSING, multi_class="ovr"),
        "y_score[:, 1]",
    ),
    "calibration": (lambda: cl.calibration(Y, _with_na(Q)), "y_prob"),
    "calibration Series": (lambda: cl.calibration(Y, pd.Series(_with_na(Q))), "y_prob"),
    "calibration groups": (lambda: cl.calibration(Y, _with_na(Q), groups=Y % 2), "y_prob"),
    "rank_models": (lambda: cl.rank_models(Y, {"a": _with_na(Q), "b": Q}, "mcc"), "predictions['a']"),
    "decision_curve": (lambda: cl.decision_curve(Y, _with_na(Q)), "y_score"),
    "cost_curve": (lambda: cl.cost_curve(Y, _with_na(Q)), "y_score"),
    "choose_threshold": (lambda: cl.choose_threshold(Y, _with_na(Q), cost=(1, 2)), "y_score"),
}


@pytest.mark.parametrize("path", PATHS)
def test_nullable_float_missing_value_refused_as_missing(path):
    call, name = PATHS[path]
    with pytest.raises(cl.InvalidParameterError) as err:
        call()
    message = str(err.value)
    assert message.startswith(name) and "missing value" in message and "position " in message, message


def _duckdb_hugeint():
    import duckdb

    con = duckdb.connect()
    con.register("t", pd.DataFrame({"y": Y, "s": S, "q": Q, "a": (S > 0.5).astype(int), "b": (S > 0).astype(int)}))
    return con.sql("select cast(y as hugeint) y, s, q, cast(a as hugeint) a, cast(b as hugeint) b from t")


def test_duckdb_hugeint_labels_answer_as_the_array_path():
    rel = _duckdb_hugeint()
    a, b = (S > 0.5).astype(int), (S > 0).astype(int)
    assert cl.roc_curve("y", "s", data=rel).value == pytest.approx(cl.roc_curve(Y, S).value, abs=1e-15)
    assert cl.calibration("y", "q", data=rel).value == pytest.approx(cl.calibration(Y, Q).value, abs=1e-15)
    frame = cl.evaluate("y", "a", data=rel, metrics=["accuracy"]).to_frame()
    assert frame["value"].to_numpy() == pytest.approx(cl.evaluate(Y, a, metrics=["accuracy"]).to_frame()["value"])
    kwargs = {"target": "next_test_set"}
    assert cl.compare_paired("y", "a", "b", "accuracy", data=rel, **kwargs).prob_greater == pytest.approx(
        cl.compare_paired(Y, a, b, "accuracy", **kwargs).prob_greater, abs=1e-15
    )


def test_duckdb_hugeint_labels_with_score_bins():
    """Binned by the engine: the label column goes through pandas, its Decimals read as ints. The
    reference is the same binning on pandas (``score_bins`` needs data=)."""
    rel = _duckdb_hugeint()
    frame = pd.DataFrame({"y": Y, "s": S})
    assert cl.roc_curve("y", "s", data=rel, score_bins=50).value == pytest.approx(
        cl.roc_curve("y", "s", data=frame, score_bins=50).value, abs=1e-15
    )


@pytest.mark.slow
def test_calibration_most_bins_with_default_draws_fit_a_small_limit(limit):
    """bins=100_000 (the documented maximum) and the default n_draws needed 14.9 GiB of draws at
    once; drawn bin by bin they need n_draws × 40 bytes. The p-value of calibrated forecasts is no
    smaller than a small level."""
    limit("64M")
    q = RNG.random(100_000)
    y = RNG.random(100_000) < q
    tracemalloc.start()
    c = cl.calibration(y, q, bins=100_000)
    assert c.n_bins == 100_000 and c.n_draws == 10_000
    assert c.test(n_draws=200, random_state=0).p_value > 0.01
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 64 * 2**20


@pytest.mark.slow
def test_roc_bootstrap_at_a_million_distinct_scores_streams(limit):
    """2,000 resamples of a million distinct scores would hold 74.5 GiB at once; in chunks they fit
    128 MiB. The interval of a few resamples contains the AUC (the chunks draw real resamples)."""
    limit("128M")
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 1_000_000)
    s = rng.normal(size=y.size) + y
    curve = cl.roc_curve(y, s)
    tracemalloc.start()
    lo, hi = curve.interval(method="bootstrap", n_resamples=3, target="true_value")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 128 * 2**20
    assert lo <= curve.value <= hi and hi - lo < 0.01
