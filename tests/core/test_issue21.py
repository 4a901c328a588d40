"""Regressions of issue 21 (the adversarial sweep) in the core: each failed before its fix."""

from __future__ import annotations

import nbformat
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from scipy import stats

import confusionlab as cl
from confusionlab import InvalidParameterError
from confusionlab.models import marginal

# ----------------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    "y_true",
    [
        pd.array([1, 0, None, 1], dtype="Int64"),
        pd.array([True, False, None, True], dtype="boolean"),
        pd.Categorical([1, 0, np.nan, 1]),
        pd.Series(pd.Categorical([1, 0, np.nan, 1])),
        pd.Series([1, 0, None, 1], dtype="Int64"),
    ],
    ids=["Int64 array", "boolean array", "Categorical", "Categorical Series", "Int64 Series"],
)
def test_pandas_missing_values_are_refused_as_missing(y_true):
    with pytest.raises(InvalidParameterError, match=r"1 missing value .* at position 2"):
        cl.ConfusionMatrix.from_predictions(y_true, [1, 0, 1, 1])


def test_pyarrow_nulls_are_refused_as_missing():
    for arr in (pa.array([1, 0, None, 1]), pa.chunked_array([[1, 0], [None, 1]])):
        with pytest.raises(InvalidParameterError, match=r"missing value .* at position 2"):
            cl.ConfusionMatrix.from_predictions(arr, [1, 0, 1, 1])


def test_pyarrow_without_nulls_counts_like_a_list():
    cm = cl.ConfusionMatrix.from_predictions(pa.array([1, 0, 0, 1, 1]), pa.chunked_array([[1, 1], [0, 0, 1]]))
    assert cm == cl.ConfusionMatrix(tp=2, fn=1, fp=1, tn=1)


def test_pandas_nullable_without_missing_values_count():
    cm = cl.ConfusionMatrix.from_predictions(pd.array([1, 0, 0, 1], dtype="Int64"), pd.Categorical([1, 1, 0, 1]))
    assert cm == cl.ConfusionMatrix(tp=2, fn=0, fp=1, tn=1)


# ----------------------------------------------------------------------------- models at the edges


@pytest.mark.parametrize("tolerance", [1e-308, 1e-320, 5e-324])
def test_tiny_tolerance_is_a_tolerance_near_zero(tolerance):
    cm = cl.ConfusionMatrix(tp=5, fn=5, fp=5, tn=5)
    exact = cl.metric_distribution(cm, "mcc", tolerance=0)
    tiny = cl.metric_distribution(cm, "mcc", tolerance=tolerance)
    assert tiny.interval() == exact.interval()
    np.testing.assert_allclose(tiny.probabilities, exact.probabilities, atol=1e-15)


@pytest.mark.parametrize("prior", [1e-300, 1e-100, 1e-17, 1e-9])
def test_tiny_prior_without_observations_matches_scipy(prior):
    # trials = 0: BetaBin(5, prior, prior), nearly all of its mass at 0 and 5
    m = marginal("beta-binomial", 0, 0, 5, prior, 0.0, "positives")
    expected = stats.betabinom.pmf(np.arange(6), 5, prior, prior)
    np.testing.assert_allclose(m.pmf, expected, rtol=1e-9, atol=1e-300)
    m = marginal("beta-binomial", 0, 5, 5, prior, 0.0, "positives")
    np.testing.assert_allclose(m.pmf, stats.betabinom.pmf(np.arange(6), 5, prior, 5 + prior), rtol=1e-9, atol=1e-300)


@pytest.mark.parametrize("metric", ["precision", "f1", "mcc"])
def test_tiny_prior_with_no_predicted_positive_answers(metric):
    cm = cl.ConfusionMatrix(tp=0, fn=5, fp=0, tn=5)
    d = cl.metric_distribution(cm, metric, prior=1e-300, tolerance=0)
    # TP = 0 and TN = 5 with probability 1 − O(1e-300): precision and MCC are then undefined (0/0)
    assert np.all(np.isfinite(d.probabilities)) and d.pruned_mass == 0
    assert d.undefined_mass == pytest.approx(0.0 if metric == "f1" else 1.0, abs=1e-12)


# ----------------------------------------------------------------------------- MetricDistribution's surface


def _distribution(values, p):
    from confusionlab.distribution import MetricDistribution

    return MetricDistribution(np.asarray(values, float), np.asarray(p, float), np.ones(len(values), int), metric="m",
                              model="test")  # fmt: skip


def test_ppf_is_scipys_discrete_quantile_rule_exactly():
    rng = np.random.default_rng(21)
    for _ in range(300):
        k = int(rng.integers(1, 12))
        values = np.sort(rng.choice(np.linspace(-1, 1, 41), k, replace=False))
        p = rng.dirichlet(np.full(k, 0.5))
        d = _distribution(values, p)
        cum = np.cumsum(d._p)
        qs = np.concatenate([cum[:-1], np.nextafter(cum[:-1], 0), np.nextafter(cum[:-1], 1), rng.random(20)])
        qs = qs[(qs > 0) & (qs < cum[-1])]  # scipy's rule is argmax(cumsum >= q), defined below its last sum
        rv = stats.rv_discrete(values=(np.arange(k), d._p))
        expected = values[rv.ppf(qs).astype(int)]
        np.testing.assert_array_equal(d.ppf(qs), expected)
        assert np.all(d.ppf(d.cdf(values[:-1])) == values[:-1])


@pytest.mark.parametrize("bad", ["0.5", None, True, [0.5, None], ["a"], b"1"])
@pytest.mark.parametrize("method", ["cdf", "pmf", "sf", "ppf"])
def test_evaluation_points_must_be_numbers(method, bad):
    d = _distribution([0.0, 1.0], [0.5, 0.5])
    with pytest.raises(InvalidParameterError):
        getattr(d, method)(bad)


def test_evaluation_points_keep_their_meaning():
    d = _distribution([0.0, 1.0], [0.25, 0.75])
    assert d.cdf(0) == 0.25 and d.pmf(np.int64(1)) == 0.75 and d.sf([0.0, 1.0]).tolist() == [0.75, 0.0]
    assert np.isnan(d.cdf(np.nan))


@pytest.mark.parametrize(
    ("values", "p"),
    [([1.0, 0.0], [0.5, 0.5]), ([0.0, 0.0], [0.5, 0.5]), ([0.0, 1.0], [1.5, -0.5]), ([0.0, 1.0], [np.nan, 1.0]),
     ([0.0, np.nan], [0.5, 0.5]), ([0.0, 1.0], [1.0])],
)  # fmt: skip
def test_constructor_refuses_unsorted_values_and_negative_probabilities(values, p):
    from confusionlab.distribution import MetricDistribution

    with pytest.raises(InvalidParameterError):
        MetricDistribution(np.asarray(values), np.asarray(p), np.ones(len(values), int), metric="m", model="t")


# ----------------------------------------------------------------------------- the lattice's memory estimate


def _peak_and_estimate(metric: str, cm: cl.ConfusionMatrix) -> tuple[int, float]:
    import tracemalloc

    from confusionlab.distribution import lattice_bytes
    from confusionlab.metrics import get_metric
    from confusionlab.models import slice_model

    sl = slice_model(cm)
    estimate = float(sl.tp_pmf.size) * sl.tn_pmf.size * lattice_bytes(get_metric(metric), sl.p + sl.n)
    tracemalloc.start()
    try:
        cl.metric_distribution(cm, metric)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return peak, estimate


@pytest.mark.parametrize("metric", sorted(cl.METRICS))
def test_the_estimate_covers_the_peak_on_float_keys(metric):
    for cm in (cl.ConfusionMatrix(tp=1500, fn=1500, fp=1000, tn=2000), cl.ConfusionMatrix(tp=2700, fn=300, fp=150,
                                                                                         tn=2850)):  # fmt: skip
        peak, estimate = _peak_and_estimate(metric, cm)
        assert peak <= estimate, (metric, cm, peak, estimate)


def test_the_estimate_covers_the_peak_of_mcc_on_int64_and_beyond_64_bits():
    # p = n = 30,000: int64 keys; p = n = 150,000: keys beyond 64 bits (the estimate used to be 72 B a
    # point where the grouping takes about 520)
    for cm in (cl.ConfusionMatrix(tp=29_700, fn=300, fp=300, tn=29_700),
               cl.ConfusionMatrix(tp=149_850, fn=150, fp=150, tn=149_850)):  # fmt: skip
        peak, estimate = _peak_and_estimate("mcc", cm)
        assert peak <= estimate, (cm, peak, estimate)


def test_a_lattice_beyond_the_memory_limit_is_refused_before_it_is_built():
    cm = cl.ConfusionMatrix(tp=75_000, fn=75_000, fp=75_000, tn=75_000)
    with pytest.raises(cl.TooLargeError):
        cl.metric_distribution(cm, "mcc")


# ----------------------------------------------------------------------------- advice, sizes and numbers


def test_simplex_advice_names_a_size_that_is_accepted():
    import re
    from math import comb

    from confusionlab.lattice import MAX_SIMPLEX_POINTS, simplex_counts

    with pytest.raises(InvalidParameterError, match=r"N <= \d+") as refused:
        simplex_counts(492)
    advised = int(re.search(r"N <= (\d+)", str(refused.value)).group(1))
    assert comb(advised + 3, 3) <= MAX_SIMPLEX_POINTS < comb(advised + 4, 3)  # the largest accepted
    assert advised == 491


@pytest.mark.parametrize("beta", [1e300, 1e-300, 1e151])
def test_fbeta_beyond_double_range_is_refused(beta):
    from confusionlab.metrics import fbeta_metric

    with pytest.raises(InvalidParameterError, match="beta must lie in"):
        fbeta_metric(beta)


def test_fbeta_at_the_edge_of_the_range_still_answers():
    from confusionlab.metrics import fbeta_metric

    assert float(fbeta_metric(1e100).values(3, 2, 1, 4)) == pytest.approx(3 / 5)  # recall
    assert float(fbeta_metric(1e-100).values(3, 2, 1, 4)) == pytest.approx(3 / 4)  # precision


@pytest.mark.parametrize(("p", "k"), [(3 * 10**9 + 7, 1_234_567_891), (10**15 + 1, 10**15), (2**53 - 10, 3)])
def test_from_rates_beyond_a_billion(p, k):
    cm = cl.ConfusionMatrix.from_rates(p, 10, k / p, 0.5)
    assert (cm.tp, cm.fn, cm.fp, cm.tn) == (k, p - k, 5, 5)
    assert cl.ConfusionMatrix.from_rates(p, 10, 1.0, 0.0).tp == p


def test_from_rates_that_are_no_whole_count_say_so():
    with pytest.raises(InvalidParameterError, match=r"tpr=0.3 gives no whole count of 10,000,000,001"):
        cl.ConfusionMatrix.from_rates(10**10 + 1, 10, 0.3, 0.5)
    from fractions import Fraction

    assert cl.ConfusionMatrix.from_rates(9, 3, Fraction(1, 3), Fraction(2, 3)).tp == 3


# ----------------------------------------------------------------------------- the export's command line


def _run_export(*args, cwd):
    import os
    import subprocess
    import sys
    from pathlib import Path

    src = str(Path(cl.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": src}
    return subprocess.run([sys.executable, "-m", "confusionlab.export", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)  # fmt: skip


def test_export_refuses_invalid_json_with_exit_status_2(tmp_path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json", encoding="utf-8")
    done = _run_export(str(bad), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "is not a valid notebook" in done.stderr and "Traceback" not in done.stderr


def test_export_refuses_an_output_path_that_is_a_file(tmp_path):
    good = tmp_path / "good.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), good)
    target = tmp_path / "afile"
    target.write_text("x", encoding="utf-8")
    done = _run_export(str(good), "--no-execute", "-o", str(target), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "output_dir must be a folder" in done.stderr and "Traceback" not in done.stderr
    assert target.read_text(encoding="utf-8") == "x"
