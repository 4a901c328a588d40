"""Property-based invariants (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from brute import as_float, exact_value
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import confusionlab as cl

METRIC_NAMES = list(cl.METRICS)
counts = st.integers(min_value=0, max_value=12)
cms = st.tuples(counts, counts, counts, counts).filter(lambda c: c[0] + c[1] > 0 and c[2] + c[3] > 0)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    cm=cms,
    metric=st.sampled_from(METRIC_NAMES),
    model=st.sampled_from(["binomial", "beta-binomial"]),
    tolerance=st.sampled_from([0.0, 1e-12, 1e-4]),
)
def test_masses_values_and_multiplicities_are_consistent(cm, metric, model, tolerance) -> None:
    cm = cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), cm, strict=True)))
    d = cl.metric_distribution(cm, metric, model, tolerance=tolerance)
    lo, hi = cl.METRICS[metric].range
    assert np.all(d.probabilities >= 0)
    assert np.all((d.values >= lo - 1e-12) & (d.values <= hi + 1e-12))
    assert np.all(np.diff(d.values) > 0)
    assert d.probabilities.sum() == pytest.approx(1 - d.pruned_mass, abs=1e-10)
    assert d.multiplicities.sum() == d.lattice_points
    if tolerance == 0:
        assert d.lattice_points == (cm.p + 1) * (cm.n + 1)
    assert d.cdf(d.values[-1]) == pytest.approx(1.0)
    lo_q, hi_q = d.interval(0.9)
    assert lo_q <= d.median() <= hi_q


@SETTINGS
@given(cm=cms, metric=st.sampled_from([m for m in METRIC_NAMES if cl.METRICS[m].swap]))
def test_class_swap_symmetry(cm, metric) -> None:
    cm = cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), cm, strict=True)))
    m = cl.METRICS[metric]
    assert cl.metric_value(cm.swapped(), m.swap, undefined=np.nan) == pytest.approx(
        cl.metric_value(cm, metric, undefined=np.nan), nan_ok=True, abs=1e-12
    )
    a = cl.metric_distribution(cm, metric, tolerance=0)
    b = cl.metric_distribution(cm.swapped(), m.swap, tolerance=0)
    np.testing.assert_allclose(a.values, b.values, atol=1e-12)
    np.testing.assert_allclose(a.probabilities, b.probabilities, rtol=1e-9, atol=1e-15)
    np.testing.assert_array_equal(a.multiplicities, b.multiplicities)


@SETTINGS
@given(c=st.tuples(counts, counts, counts, counts).filter(lambda c: sum(c) > 0), metric=st.sampled_from(METRIC_NAMES))
def test_metric_value_matches_exact_definition(c, metric) -> None:
    key = exact_value(metric, *c)
    value = cl.metric_value(
        cl.ConfusionMatrix(**dict(zip(("tp", "fn", "fp", "tn"), c, strict=True))), metric, undefined=np.nan
    )
    if key is None:
        assert np.isnan(value)
    else:
        assert value == pytest.approx(as_float(key), rel=1e-12, abs=1e-12)
