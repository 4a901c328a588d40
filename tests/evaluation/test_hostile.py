"""Hostile calls of evaluate and Evaluation: a valid result or a ValueError/TypeError naming the
argument, never a crash or a huge allocation (hypothesis, no wall-clock assertion)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from confusionlab import MetricDistribution, metric_distribution
from confusionlab.confusion import ConfusionMatrix
from confusionlab.evaluation import Evaluation, evaluate

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
ARGUMENTS = ("y_true", "y_pred", "groups", "refits", "positive", "model", "metric", "target", "n_draws",
             "min_class_size", "random_state", "labels", "distinct")  # fmt: skip

labels = hs.one_of(hs.integers(-1, 3), hs.sampled_from(["a", "b", "c"]), hs.none(), hs.just(float("nan")))
vectors = hs.lists(labels, min_size=0, max_size=12)


@SETTINGS
@given(
    y_true=vectors,
    y_pred=hs.one_of(hs.none(), vectors),
    groups=hs.one_of(hs.none(), hs.lists(hs.sampled_from(["g", "h", "i"]), max_size=12)),
    refits=hs.one_of(hs.none(), hs.lists(vectors, max_size=4)),
    positive=hs.one_of(hs.none(), labels),
    model=hs.sampled_from(["beta-binomial", "binomial", "dirichlet-multinomial", "nope", 3]),
    metrics=hs.one_of(hs.none(), hs.lists(hs.sampled_from(["f1", "macro_f1", "mcc", "bogus", "macro_x", 7]))),
    target=hs.sampled_from(["next_test_set", "true_value", "future"]),
    n_draws=hs.one_of(hs.integers(-5, 300), hs.just(10**12), hs.just(2.5)),
)
def test_evaluate_hostile(y_true, y_pred, groups, refits, positive, model, metrics, target, n_draws) -> None:
    try:
        ev = evaluate(
            y_true, y_pred, groups=groups, refits=refits, positive=positive, model=model, metrics=metrics,
            target=target, n_draws=n_draws,
        )  # fmt: skip
    except (ValueError, TypeError) as err:
        assert any(a in str(err) for a in ARGUMENTS), str(err)
        return
    assert isinstance(ev, Evaluation)
    for metric in ev.metrics:
        try:
            d = ev.distribution(metric)
        except ValueError as err:  # e.g. the dirichlet-multinomial simplex of a big N
            assert "metric" in str(err) or "memory" in str(err), str(err)
            continue
        assert isinstance(d, MetricDistribution)
        assert abs(d.probabilities.sum() + d.pruned_mass - 1) < 1e-9


@SETTINGS
@given(
    tp=hs.integers(0, 60),
    fn=hs.integers(0, 60),
    fp=hs.integers(0, 60),
    tn=hs.integers(0, 60),
    metric=hs.sampled_from(["f1", "mcc", "lr_plus", "precision", "balanced_accuracy", "dor"]),
    undefined=hs.sampled_from([0.0, "exclude", 0.5]),
)
def test_true_value_is_a_valid_distribution(tp, fn, fp, tn, metric, undefined) -> None:
    if tp + fn + fp + tn == 0:
        return
    d = metric_distribution(
        ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn), metric, target="true_value", undefined=undefined
    )
    assert d.target == "true_value" and 0 < d.cdf_error < 0.01
    excluded = d.undefined_mass if undefined == "exclude" else 0.0
    assert abs(d.probabilities.sum() + excluded - 1) < 1e-9
    assert np.all(np.diff(d.values) > 0)
