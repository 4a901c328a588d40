"""issue 20 item 5 (speed): the assurance criterion evaluates exactly only the outcomes its
calibrated bounds leave undecided, and gives the full enumeration's answer.

The reference is ``_assurance_full`` (one exact distribution per outcome, the code before
this change) and, on a small case, the brute-force ``_reference.assurance`` (scipy's pmfs,
every outcome); the operation count (exact distributions computed) is bounded, not the time.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from confusionlab.metrics import get_metric
from confusionlab.planner import _assurance
from confusionlab.planner._criterion import _Evaluator

CASES = [
    ("mcc", 0.2, 0.8, 0.9, 0.15, 200, "beta-binomial", 0.9),
    ("mcc", 0.2, 0.8, 0.9, 0.15, 150, "binomial", 0.5),
    ("f1", 0.3, 0.8, 0.9, 0.12, 160, "beta-binomial", 0.5),
    ("f1", 0.3, 0.8, 0.9, 0.12, 160, "binomial", 0.9),
    ("balanced_accuracy", 0.3, 0.8, 0.8, 0.12, 140, "beta-binomial", 0.9),
    ("balanced_accuracy", 0.3, 0.8, 0.8, 0.12, 120, "binomial", 0.5),
    ("precision", 0.3, 0.8, 0.9, 0.12, 120, "beta-binomial", 0.9),
    ("recall", 0.5, 0.8, 0.8, 0.1, 250, "binomial", 0.9),
]


def _evaluator(metric, prevalence, tpr, tnr, model):
    return _Evaluator(get_metric(metric), prevalence, tpr, tnr, 0.95, model, 1.0, 1e-12, "next_test_set")


@pytest.mark.parametrize(("metric", "prevalence", "tpr", "tnr", "goal", "N", "model", "q"), CASES)
def test_pruned_assurance_equals_the_full_enumeration(metric, prevalence, tpr, tnr, goal, N, model, q):
    fast_ev = _evaluator(metric, prevalence, tpr, tnr, model)
    fast = _assurance._assurance_at(fast_ev, N, goal, q, 1e-3, 10**6)
    full_ev = _evaluator(metric, prevalence, tpr, tnr, model)
    full = _assurance._assurance_full(full_ev, N, goal, q, 1e-3, 10**6)
    for a, b in zip(fast, full, strict=True):
        assert (math.isinf(a) and math.isinf(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-15)
    assert len(fast_ev.cache) <= len(full_ev.cache)


def test_pruned_assurance_skips_most_outcomes():
    """Where the goal and the 0.9-quantile sit in the bulk of the reported half-widths, far fewer
    exact distributions than outcomes are computed (the old code computed one per outcome)."""
    ev = _evaluator("mcc", 0.3, 0.8, 0.9, "beta-binomial")
    N = 1200  # 5,904 outcomes at the default assurance_tolerance
    quantile, probability, _, _ = _assurance._assurance_at(ev, N, 0.065, 0.9, 1e-3, 10**6)
    assert 0.5 < probability < 0.9 and 0.065 < quantile < 0.07  # the goal and the quantile in the bulk
    assert len(ev.cache) < _assurance.outcome_count(ev, N, 1e-3) / 5


def test_the_readme_assurance_plan_passes_the_up_front_checks_at_its_defaults(monkeypatch):
    """issue 20 item 5: at its defaults (max_outcomes 20,000) this plan was refused ("too many
    outcomes": about 37,000 at the plain plan's size). With the pruned enumeration the default is
    100,000: the up-front checks pass and the enumeration is reached (patched here to stop)."""
    import confusionlab as cl
    from confusionlab.planner import _plan

    class Reached(Exception):
        pass

    def stop(*args, **kwargs):
        raise Reached

    monkeypatch.setattr(_plan, "_assurance_at", stop)
    with pytest.raises(Reached):
        cl.plan_test_size(
            "mcc", prevalence=0.25, tpr=0.62, tnr=0.93, half_width=0.03, assurance=0.9, target="next_test_set"
        )


def _random_settings(count: int, seed: int) -> list[tuple]:
    """Seeded settings for the batched exact path (MCC and F-scores): rates, prevalence, size,
    model, goal (near the plain half-width at that size, so that the goal cuts the outcomes) and q."""
    from confusionlab.planner._criterion import normal_half_width

    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        metric = str(rng.choice(["mcc", "f1", "f2"]))
        prevalence, tpr, tnr = rng.uniform(0.2, 0.5), rng.uniform(0.65, 0.92), rng.uniform(0.7, 0.95)
        N = int(rng.integers(120, 260))
        model = str(rng.choice(["beta-binomial", "binomial"]))
        plain = float(normal_half_width(get_metric(metric), np.array([N]), prevalence, tpr, tnr, model=model)[0])
        out.append((metric, prevalence, tpr, tnr, round(plain * rng.uniform(0.95, 1.1), 4), N, model,
                    float(rng.choice([0.5, 0.8, 0.9]))))  # fmt: skip
    return out


@pytest.mark.parametrize(("metric", "prevalence", "tpr", "tnr", "goal", "N", "model", "q"), _random_settings(16, 20))
def test_pruned_batched_assurance_equals_the_full_enumeration_on_random_settings(
    metric, prevalence, tpr, tnr, goal, N, model, q
):
    """The pruned enumeration with the batched exact half-widths (many outcomes at once) against the
    full one, one exact distribution per outcome, on seeded random settings."""
    fast_ev = _evaluator(metric, prevalence, tpr, tnr, model)
    fast = _assurance._assurance_at(fast_ev, N, goal, q, 1e-3, 10**6)
    full = _assurance._assurance_full(_evaluator(metric, prevalence, tpr, tnr, model), N, goal, q, 1e-3, 10**6)
    assert fast[1] == pytest.approx(full[1], rel=1e-12, abs=1e-15)  # the probability
    assert fast[0] == full[0] or (math.isinf(fast[0]) and math.isinf(full[0]))  # the quantile: one known width
    assert fast[2:] == pytest.approx(full[2:], rel=1e-12, abs=1e-15)
