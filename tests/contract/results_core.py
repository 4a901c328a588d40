"""One small instance of each result class of the exact core (for test_result_protocol)."""

from __future__ import annotations

import confusionlab as cl

_A = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
_B = cl.ConfusionMatrix(tp=14, fn=6, fp=10, tn=30)


def _distribution() -> cl.MetricDistribution:
    return cl.metric_distribution(_A, "mcc")


def _comparison() -> cl.distribution.Comparison:
    return cl.compare(cl.metric_distribution(_A, "mcc"), cl.metric_distribution(_B, "mcc"))


def _rate() -> cl.MetricDistribution:
    """A single rate's true value: its exact Beta posterior."""
    return cl.metric_distribution(_A, "recall", target="true_value")


CASES = {"MetricDistribution": _distribution, "RateDistribution": _rate, "Comparison": _comparison}
