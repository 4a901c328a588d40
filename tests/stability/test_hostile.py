"""Hostile arguments: every public function of confusionlab.stability either answers or
refuses with a ValueError/TypeError whose message names the argument — never a crash of
another kind, never a hang (sizes are bounded before anything is allocated or looped over).

Driven by hypothesis with ``deadline=None``: no wall-clock assertion anywhere.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from confusionlab import stability as st

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)

# -------------------------------------------------------------------------- hostile values
scalars = hs.one_of(
    hs.none(),
    hs.just(np.nan),
    hs.just(pd.NA),
    hs.just(pd.NaT),
    hs.just("nan"),
    hs.just(math.inf),
    hs.just(-math.inf),
    hs.integers(-3, 3),
    hs.integers(2**62, 2**70),
    hs.floats(allow_nan=True, allow_infinity=True, width=64),
    hs.sampled_from(["a", "b", "", "é"]),
    hs.booleans(),
    hs.just(1 + 2j),
)


def matrices():
    """Rectangular nested lists of hostile scalars (0–4 rows, 0–4 columns)."""
    shape = hs.tuples(hs.integers(0, 4), hs.integers(0, 4))
    return shape.flatmap(
        lambda rc: hs.lists(hs.lists(scalars, min_size=rc[1], max_size=rc[1]), min_size=rc[0], max_size=rc[0])
    )


typed_arrays = hs.one_of(
    hs.just(np.array([[np.nan, 1.0], [2.0, np.nan]])),
    hs.just(np.full((3, 2), np.nan)),
    hs.just(np.asarray([["a", np.nan], ["b", "a"]])),  # 'nan' strings
    hs.just(np.array([[None, "a"], ["a", None]], dtype=object)),
    hs.just(np.array([[pd.NA, 1], [1, 2]], dtype=object)),
    hs.just(np.array([["2020-01-01", "NaT"], ["2020-01-02", "2020-01-01"]], dtype="M8[D]")),
    hs.just(np.array([[1 + 1j, 2], [2, 1]])),
    hs.just(np.array([[b"a", b"b"], [b"a", b"a"]])),
    hs.just(np.zeros((0, 3))),
    hs.just(np.zeros((3, 0))),
    hs.just(np.zeros((2, 2, 2))),
    hs.just(np.array([[True, False], [True, True]])),
    hs.just(np.arange(12.0).reshape(3, 4) / 7),  # float categories
    hs.just(pd.DataFrame({"a": pd.array([1, None, 2], dtype="Int64"), "b": [1.0, np.nan, 2.0]})),
)

hostile = hs.one_of(
    scalars,
    matrices(),
    hs.lists(hs.lists(scalars, max_size=3), max_size=4),  # ragged
    hs.lists(scalars, max_size=5),
    typed_arrays,
    hs.just({"a": 1}),
    hs.just(object()),
    hs.just(iter([1, 2])),
)

sizes = hs.one_of(
    hs.integers(-(2**70), 2**70),
    hs.sampled_from([0, -1, 10**9, 10**18, 2**63]),
    hs.floats(allow_nan=True, allow_infinity=True),
    hs.sampled_from(["10", None, True, 2.5, [1]]),
)

OK_PRED = [[0, 1, 1], [0, 1, 0], [1, 1, 0]]
OK_REF = [0, 1, 1, 0, 1]
N = [10, 20, 50, 100, 200]


def check(call, name):
    """Run ``call``: any result is fine; a ValueError/TypeError must name ``name``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return call()
        except (ValueError, TypeError) as exc:  # UndefinedError, TooLargeError are ValueErrors
            assert name in str(exc), f"{type(exc).__name__} does not name {name!r}: {exc}"
            return None


# ------------------------------------------------------------------------------- tests
@SETTINGS
@given(bad=hostile, scale=hs.sampled_from(["nominal", "ordinal", "metric"]))
def test_phi_psi_stability_predictions(bad, scale):
    check(lambda: st.phi(bad, OK_REF, scale), "predictions")
    check(lambda: st.psi(bad, OK_REF, scale), "predictions")
    check(lambda: st.stability(bad, OK_REF, scale), "predictions")


@SETTINGS
@given(bad=hostile, scale=hs.sampled_from(["nominal", "ordinal", "metric"]))
def test_phi_psi_reference(bad, scale):
    check(lambda: st.phi(OK_PRED, bad, scale), "train_y")
    check(lambda: st.psi(OK_PRED, bad, scale), "reference_predictions")


@SETTINGS
@given(bad=hostile)
def test_phi_scale_and_categories(bad):
    check(lambda: st.phi(OK_PRED, OK_REF, bad), "scale")
    check(lambda: st.phi(OK_PRED, OK_REF, "nominal", categories=bad), "categories")


@SETTINGS
@given(bad=hostile)
def test_phi_psi_stability_policy(bad):
    check(lambda: st.phi(OK_PRED, OK_REF, "nominal", on_undefined=bad), "on_undefined")
    check(lambda: st.psi(OK_PRED, OK_REF, "nominal", on_undefined=bad), "on_undefined")
    check(lambda: st.stability(OK_PRED, OK_REF, "nominal", on_undefined=bad), "on_undefined")


@SETTINGS
@given(bad=hostile, scale=hs.sampled_from(["nominal", "ordinal", "metric"]))
def test_comparators_predictions(bad, scale):
    check(lambda: st.fleiss_kappa(bad, on_undefined="nan"), "predictions")
    check(lambda: st.gwet_ac1(bad, on_undefined="nan"), "predictions")
    check(lambda: st.krippendorff_alpha(bad, scale, on_undefined="nan"), "predictions")
    check(lambda: st.icc(bad, on_undefined="nan"), "predictions")


@SETTINGS
@given(bad=hostile)
def test_comparators_policy_and_form(bad):
    check(lambda: st.fleiss_kappa(OK_PRED, on_undefined=bad), "on_undefined")
    check(lambda: st.krippendorff_alpha(OK_PRED, bad), "scale")
    check(lambda: st.icc(OK_PRED, bad), "form")


@SETTINGS
@given(bad=hostile)
def test_fit_2pl_arrays(bad):
    check(lambda: st.fit_2pl(bad, [0.5, 0.6, 0.7, 0.8, 0.85]), "n_learners")
    check(lambda: st.fit_2pl(N, bad), "stability")


@SETTINGS
@given(bad=hostile)
def test_learners_for_target(bad):
    fit = st.fit_2pl(N, st.twopl(N, 30.0, 1.0))
    result = check(lambda: fit.learners_for(bad), "target")
    assert result is None or result >= 1.0


@SETTINGS
@given(
    step=hs.one_of(hs.just(10), sizes),
    tol=hs.one_of(hs.just(1e-6), hs.floats(allow_nan=True, allow_infinity=True), hs.sampled_from([0, "x", None])),
    round_to=hs.one_of(hs.just(1000), sizes),
    minimum=hs.one_of(hs.just(500), sizes),
    max_learners=hs.one_of(hs.just(10_000_000), sizes),
)
def test_recommendation_arguments(step, tol, round_to, minimum, max_learners):
    fit = st.fit_2pl(N, st.twopl(N, 30.0, 1.0))
    kwargs = {"step": step, "tol": tol, "round_to": round_to, "minimum": minimum, "max_learners": max_learners}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rec = fit.recommendation(**kwargs)
        except (ValueError, TypeError) as exc:
            assert any(name in str(exc) for name in kwargs), str(exc)
        else:
            assert rec.n_learners >= 1


@SETTINGS
@given(n_resamples=sizes, confidence=hs.one_of(hs.floats(allow_nan=True, allow_infinity=True), sizes), seed=hostile)
def test_interval_arguments(n_resamples, confidence, seed):
    s = st.phi(OK_PRED, OK_REF, "nominal")
    check(lambda: s.interval(0.95, n_resamples=n_resamples, random_state=0), "n_resamples")
    check(lambda: s.interval(confidence, n_resamples=50, random_state=0), "confidence")
    check(lambda: s.interval(0.95, n_resamples=50, random_state=seed), "random_state")


def test_huge_sizes_refused_at_once():
    s = st.phi(OK_PRED, OK_REF, "nominal")
    with pytest.raises(ValueError, match="n_resamples"):
        s.interval(n_resamples=10**12)
    fit = st.fit_2pl(N, st.twopl(N, 30.0, 1.0))
    with pytest.raises(ValueError, match="max_learners"):
        fit.recommendation(max_learners=10**30)
    # a huge but valid max_learners is answered by bisection, not a loop over 10¹⁵ / 10 steps
    with pytest.warns(st.ExtrapolationWarning):
        rec = fit.recommendation(max_learners=10**15, tol=1e-13, round_to=1, minimum=1)
    assert rec.n_learners >= 1
