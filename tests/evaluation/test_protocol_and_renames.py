"""Evaluation under the result protocol (value and interval mappings, to_frame, to_html, plot, view),
the old names and call forms that still work with a FutureWarning, the Monte Carlo error kept on the
Evaluation side, and honest decompositions when a metric's mean is infinite."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import f1_score, recall_score

import confusionlab as cl
from confusionlab import ConfusionMatrix, InvalidParameterError, metric_distribution
from confusionlab.evaluation import evaluate, mixture


def _data(seed: int = 11, m: int = 120, refits: int = 4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, m)
    runs = np.where(rng.random((refits, m)) < 0.85, y, 1 - y)
    groups = np.where(rng.random(m) < 0.5, "F", "M")
    return y, runs, groups


# ----------------------------------------------------------------------------- value and interval
def test_value_is_a_mapping_of_the_metrics_on_the_whole_test_set() -> None:
    y, runs, groups = _data()
    ev = evaluate(y, runs[0], groups=groups, metrics=["f1", "recall"])
    assert isinstance(ev.value, dict) and list(ev.value) == ["f1", "recall"]
    assert ev.value["f1"] == pytest.approx(f1_score(y, runs[0]), abs=1e-15)
    assert ev.value["recall"] == pytest.approx(recall_score(y, runs[0]), abs=1e-15)
    assert ev.value["F1"] == ev.value["f1"]  # any spelling of a reported metric
    assert "mcc" not in ev.value and 7 not in ev.value
    with pytest.raises(KeyError, match="value_of"):
        ev.value["mcc"]
    keep = groups == "M"
    assert ev.value_of("f1", "M") == pytest.approx(f1_score(y[keep], runs[0][keep]), abs=1e-15)


def test_interval_is_keyed_like_value_and_is_the_distributions() -> None:
    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups, metrics=["f1", "recall"])
    for confidence in (0.95, 0.5):
        intervals = ev.interval(confidence)
        assert list(intervals) == list(ev.value)
        for name, (lo, hi) in intervals.items():
            assert (lo, hi) == ev.distribution(name).interval(confidence) == ev.interval_of(name, confidence)
    assert ev.interval() == ev.interval(confidence=0.95)
    assert ev.interval_of("f1", 0.9, "F") == ev.distribution("f1", "F").interval(0.9)
    with pytest.raises(InvalidParameterError, match="confidence"):
        ev.interval(1.5)


# ----------------------------------------------------------------------------- old names warn
def test_old_value_call_warns_and_gives_the_same_number() -> None:
    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups, metrics=["f1"])
    with pytest.warns(FutureWarning, match="value_of"):
        old = ev.value("f1", "F")
    assert old == ev.value_of("f1", "F")
    with pytest.warns(FutureWarning, match="value_of"):
        assert ev.value("recall") == ev.value_of("recall")


@pytest.mark.parametrize(
    ("args", "kwargs", "expected"),
    [
        (("f1",), {}, ("f1", 0.95, None)),
        (("f1", 0.9), {}, ("f1", 0.9, None)),
        (("f1", 0.9, "F"), {}, ("f1", 0.9, "F")),
        (("f1",), {"confidence": 0.8, "group": "M"}, ("f1", 0.8, "M")),
        ((), {"metric": "recall", "group": "F"}, ("recall", 0.95, "F")),
    ],
)
def test_old_interval_call_warns_and_gives_the_same_interval(args, kwargs, expected) -> None:
    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups, metrics=["f1"])
    with pytest.warns(FutureWarning, match="interval_of"):
        old = ev.interval(*args, **kwargs)
    assert old == ev.interval_of(*expected)


def test_n_samples_is_renamed_n_draws() -> None:
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 90)
    pred = np.where(rng.random(90) < 0.7, y, rng.integers(0, 3, 90))
    new = evaluate(y, pred, n_draws=500, random_state=4)
    with pytest.warns(FutureWarning, match="n_draws"):
        old = evaluate(y, pred, n_samples=500, random_state=4)
    assert old.n_draws == new.n_draws == 500
    np.testing.assert_array_equal(old.distribution("macro_f1").values, new.distribution("macro_f1").values)
    with pytest.warns(FutureWarning, match="n_draws"):
        assert new.n_samples == 500
    with pytest.raises(InvalidParameterError, match="n_draws"):
        evaluate(y, pred, n_draws=0)
    with pytest.raises(InvalidParameterError, match="n_draws"):
        evaluate(y, pred, n_samples=10, n_draws=10)


def test_table_is_renamed_to_frame() -> None:
    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups, metrics=["f1", "recall"])
    frame = ev.to_frame(confidence=0.9)
    assert len(frame) == 2 * 3 and list(frame.group) == ["F", "M", "all"] * 2
    with pytest.warns(FutureWarning, match="to_frame"):
        old = ev.table(confidence=0.9)
    assert old.equals(frame)


def test_to_html_returns_the_page_and_writes_it_when_asked(tmp_path: Path) -> None:
    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups, metrics=["f1", "recall"])
    page = ev.to_html()
    assert isinstance(page, str) and page.startswith("<!DOCTYPE html>") and ev.question("f1") in page
    path = tmp_path / "page.html"
    assert ev.to_html(path) == page == path.read_text(encoding="utf-8")
    with pytest.warns(FutureWarning, match="metric="):
        old = ev.to_html(tmp_path / "old.html", "recall", 0.9)
    assert old == ev.to_html(metric="recall", confidence=0.9) and ev.question("recall") in old


def test_plot_takes_an_axes_and_the_old_positional_metric_warns() -> None:
    from matplotlib.figure import Figure

    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups, metrics=["f1", "recall"])
    fig = ev.plot(metric="recall")
    assert len(fig.axes) == 2 * 3 and fig.get_suptitle() == ev.question("recall")
    own = Figure()
    ax = own.add_subplot()
    assert ev.plot(ax, metric="recall") is own
    assert [t.get_text() for t in ax.get_yticklabels()] == ["F", "M", "all"] and ax.get_title() == ev.question("recall")
    with pytest.warns(FutureWarning, match="metric="):
        old = ev.plot("recall", 0.9)
    assert len(old.axes) == 2 * 3 and old.get_suptitle() == ev.question("recall")


def test_summary_and_view() -> None:
    from confusionlab.widgets.evaluation_view import EvaluationView

    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups, metrics=["recall"])
    lo, hi = ev.interval_of("recall", 0.9)
    text = ev.summary(0.9)
    assert f"{lo:.3g}" in text and f"{hi:.3g}" in text and "90%" in text and "4 refits" in text
    view = ev.view()
    assert isinstance(view, EvaluationView) and view.evaluation is ev


# ----------------------------------------------------------------------------- Monte Carlo error
def test_monte_carlo_error_stays_on_the_evaluation() -> None:
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 150)
    runs = np.where(rng.random((4, 150)) < 0.8, y, rng.integers(0, 3, 150))
    ev = evaluate(y, refits=runs, n_draws=8_000, random_state=1)
    d = ev.distribution("macro_f1")
    runs_d = ev._run_dists("macro_f1", len(ev.groups) - 1)
    # each refit's sampled distribution carries its own error from construction; the mixture combines them
    assert all(run.mc_error > 0 for run in runs_d)
    err = ev.mc_error("macro_f1")
    assert d.mc_error == pytest.approx(err, rel=1e-12)
    assert err == pytest.approx(math.sqrt(sum(run.mc_error**2 for run in runs_d)) / len(runs_d), rel=1e-12)
    # the error of the mixture's mean from R refits of n_draws / R draws each: √(Σ s_r² / (n_draws/R)) / R,
    # at most the mixture's sd over √n_draws (its variance also holds the spread between refits)
    assert 0 < err <= d.std() / math.sqrt(8_000) * (1 + 1e-12)
    assert evaluate([0, 1, 1, 0], [0, 1, 0, 0]).mc_error("f1") == 0.0


# ----------------------------------------------------------------------------- infinite means
def test_a_decomposition_with_an_infinite_mean_says_so() -> None:
    """LR+ = TPR/FPR is +inf wherever FP = 0 < TP; under the Dirichlet-multinomial model every refit
    puts mass there, so every refit's mean is +inf: the spread between refits is undefined (NaN),
    the test-set part and the total are inf, as the mixture's own variance."""
    y = np.array([1, 1, 1, 0, 0, 0, 1, 0])
    runs = np.array([[1, 1, 0, 0, 0, 1, 1, 0], [1, 0, 1, 0, 1, 0, 1, 0], [1, 1, 1, 0, 0, 0, 0, 1]])
    ev = evaluate(y, refits=runs, model="dirichlet-multinomial", metrics=["lr_plus"], target="next_test_set")
    assert np.all(np.isinf(ev.refit_means("lr_plus")))
    parts = ev.decompose("lr_plus")
    assert parts["test_set_sd"] == math.inf and math.isnan(parts["refit_sd"]) and parts["total_sd"] == math.inf
    assert ev.distribution("lr_plus").std() == math.inf
    single = evaluate(y, runs[0], model="dirichlet-multinomial", metrics=["lr_plus"], target="next_test_set").decompose(
        "lr_plus"
    )
    assert single == {"test_set_sd": math.inf, "refit_sd": 0.0, "total_sd": math.inf}


# ----------------------------------------------------------------------------- mixture
def test_mixture_refuses_distributions_of_different_metrics() -> None:
    cm = ConfusionMatrix(tp=8, fn=2, fp=3, tn=7)
    recall, f1 = metric_distribution(cm, "recall"), metric_distribution(cm, "f1")
    with pytest.raises(InvalidParameterError, match=r"one metric.*'recall', 'f1'"):
        mixture([recall, f1])
    with pytest.raises(InvalidParameterError, match="distributions is empty"):
        mixture([])
    with pytest.raises(InvalidParameterError, match="MetricDistribution"):
        mixture([recall, cm])
    with pytest.raises(InvalidParameterError, match="sequence"):
        mixture(recall)
    assert mixture([recall, recall]).metric == "recall"


def test_argument_errors_are_invalid_parameter_errors() -> None:
    y, runs, groups = _data()
    ev = evaluate(y, refits=runs, groups=groups)
    for call in (
        lambda: evaluate(y[:5], runs[0]),
        lambda: evaluate(y, refits=runs.T),
        lambda: evaluate(y, runs[0], groups=groups[:5]),
        lambda: evaluate(y, runs[0], metrics=["bogus"]),
        lambda: evaluate(y, runs[0], target="tomorrow"),
        lambda: ev.distribution("f1", "nobody"),
        lambda: ev.per_class("macro_f1"),
        lambda: ev.value_of(3),
    ):
        with pytest.raises(InvalidParameterError):
            call()
    assert cl.InvalidParameterError is InvalidParameterError
