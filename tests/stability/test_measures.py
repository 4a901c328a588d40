"""phi / psi against brute-force enumeration of ordered pairs, written out plainly here.

The reference numbers never come from confusionlab: every expected value below is either
computed by the explicit double loops in this file or worked out by hand in a comment.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from confusionlab import stability as st
from confusionlab.stability import UndefinedCoefficientWarning, UndefinedError, phi, psi


# ---------------------------------------------------------------- brute force (plain Python)
def is_missing(v) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def mean_over_ordered_pairs(values, delta) -> float:
    vals = [v for v in values if not is_missing(v)]
    total, count = 0.0, 0
    for j in range(len(vals)):
        for k in range(len(vals)):
            if j != k:
                total += delta(vals[j], vals[k])
                count += 1
    return total / count if count else float("nan")


def nominal_delta(a, b) -> float:
    return 0.0 if a == b else 1.0


def metric_delta(a, b) -> float:
    return (float(a) - float(b)) ** 2


def make_ordinal_delta(categories, reference):
    """Krippendorff's ordinal distance with counts m_g of the reference sample."""
    m = {c: 0 for c in categories}
    for z in reference:
        if not is_missing(z):
            m[z] += 1
    pos = {c: i for i, c in enumerate(categories)}

    def delta(a, b):
        lo, hi = sorted((pos[a], pos[b]))
        between = sum(m[categories[g]] for g in range(lo, hi + 1))
        return (between - (m[a] + m[b]) / 2.0) ** 2

    return delta


def brute_stability(pred_rows, reference, delta):
    """S_i = 1 − D_o,i / D_e with both means over ordered pairs enumerated explicitly."""
    n_objects = len(pred_rows[0])
    d_e = mean_over_ordered_pairs(list(reference), delta)
    d_o = [mean_over_ordered_pairs([row[i] for row in pred_rows], delta) for i in range(n_objects)]
    return [1.0 - d / d_e for d in d_o], d_o, d_e


def as_lists(a):
    return [[None if (isinstance(v, float) and math.isnan(v)) else v for v in row] for row in a]


# ----------------------------------------------------------------------- hand-computed cases
def test_nominal_hand_computed():
    # object 0: (a, a, b) → 4 of 6 ordered pairs disagree → D_o = 2/3
    # object 1: (b, b, b) → D_o = 0
    # reference (a, b, b, b): 6 of 12 ordered pairs disagree → D_e = 1/2
    pred = [["a", "b"], ["a", "b"], ["b", "b"]]
    s = st.phi(pred, ["a", "b", "b", "b"], "nominal")
    np.testing.assert_allclose(s.observed, [2 / 3, 0.0])
    assert s.expected == pytest.approx(0.5)
    np.testing.assert_allclose(s.per_object, [1 - 4 / 3, 1.0])
    assert s.value == pytest.approx((-1 / 3 + 1) / 2)


def test_ordinal_hand_computed():
    # categories 1 < 2 < 3, reference counts m = (2, 1, 1)
    # δ(1,2) = (2+1 − 1.5)² = 2.25, δ(2,3) = (1+1 − 1)² = 1, δ(1,3) = (4 − 1.5)² = 6.25
    # object predictions (1, 3): D_o = 6.25;  (2, 2): D_o = 0
    # D_e = [2·2·... ] = Σ_{c≠k} m_c m_k δ / (4·3) = 2(2·1·2.25 + 2·1·6.25 + 1·1·1)/12 = 3
    s = st.phi([[1, 2], [3, 2]], [1, 1, 2, 3], "ordinal")
    np.testing.assert_allclose(s.observed, [6.25, 0.0])
    assert s.expected == pytest.approx(3.0)
    np.testing.assert_allclose(s.per_object, [1 - 6.25 / 3, 1.0])


def test_metric_hand_computed():
    # object 0: (1, 2, 4) → s² = 7/3, D_o = 14/3; reference (0, 2, 4) → var 4, D_e = 8
    s = st.phi([[1.0], [2.0], [4.0]], [0.0, 2.0, 4.0], "metric")
    assert s.observed[0] == pytest.approx(14 / 3)
    assert s.expected == pytest.approx(8.0)
    assert s.per_object[0] == pytest.approx(1 - (7 / 3) / 4)


# ------------------------------------------------------------------ brute force, every scale
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("scale", ["nominal", "ordinal", "metric"])
@pytest.mark.parametrize("measure", ["phi", "psi"])
def test_matches_brute_force(seed, scale, measure):
    rng = np.random.default_rng(seed)
    r, n = int(rng.integers(2, 7)), int(rng.integers(1, 6))
    if scale == "metric":
        pred = rng.normal(size=(r, n)).round(2)
        ref = rng.normal(size=int(rng.integers(2, 15))) * 2
        delta = metric_delta
    else:
        cats = [0, 1, 2, 3]
        pred = rng.choice(cats, size=(r, n), p=[0.5, 0.2, 0.2, 0.1]).astype(float)
        ref = rng.choice(cats, size=int(rng.integers(3, 15))).astype(float)
        ref[:2] = [0, 3]  # never constant
        delta = nominal_delta if scale == "nominal" else make_ordinal_delta(cats, ref.tolist())
    # sprinkle missing values but keep at least two predictions per object
    if r > 2:
        holes = rng.random((r, n)) < 0.2
        holes[:2] = False
        pred[holes] = np.nan
    func = st.phi if measure == "phi" else st.psi
    cats_arg = None if scale == "metric" else [0, 1, 2, 3]
    got = func(pred, ref, scale, categories=cats_arg)
    want_s, want_do, want_de = brute_stability(as_lists(pred), ref.tolist(), delta)
    assert got.expected == pytest.approx(want_de, rel=1e-12)
    np.testing.assert_allclose(got.observed, want_do, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.per_object, want_s, rtol=1e-12, atol=1e-12)
    assert got.value == pytest.approx(np.mean(want_s), rel=1e-12)


def test_string_categories_ordinal_with_order():
    cats = ["low", "mid", "high"]
    pred = [["low", "high"], ["mid", "high"], ["low", "mid"]]
    ref = ["low", "low", "mid", "high", "high", "high"]
    got = st.phi(pred, ref, "ordinal", categories=cats)
    want, _, _ = brute_stability(pred, ref, make_ordinal_delta(cats, ref))
    np.testing.assert_allclose(got.per_object, want, rtol=1e-12)


def test_ordinal_order_matters():
    # Swapping low and mid changes δ(low, high): with m = (low 1, mid 1, high 2),
    # low<mid<high gives (1+1+2 − 1.5)² = 6.25, mid<low<high gives (1+2 − 1.5)² = 2.25;
    # D_e = 3 in both orders, so S_0 = 1 − 6.25/3 versus 1 − 2.25/3.
    pred = [["low", "high"], ["high", "high"]]
    ref = ["low", "mid", "high", "high"]
    a = st.phi(pred, ref, "ordinal", categories=["low", "mid", "high"]).per_object
    b = st.phi(pred, ref, "ordinal", categories=["mid", "low", "high"]).per_object
    np.testing.assert_allclose(a, [1 - 6.25 / 3, 1.0])
    np.testing.assert_allclose(b, [1 - 2.25 / 3, 1.0])


def test_metric_closed_form_ddof1():
    rng = np.random.default_rng(3)
    pred = rng.normal(size=(7, 5))
    y = rng.normal(size=40)
    s = st.phi(pred, y, "metric")
    np.testing.assert_allclose(s.per_object, 1 - pred.var(axis=0, ddof=1) / y.var(ddof=1))


def test_single_object_works_and_can_be_negative():
    # one object, 4 refits split 2/2 over a 90/10 training set → far less stable than chance
    s = st.phi([[0], [1], [0], [1]], [0] * 9 + [1], "nominal")
    # D_o = 8/12; D_e = 1 − (9·8 + 0)/(10·9) = 0.2
    assert s.per_object[0] == pytest.approx(1 - (8 / 12) / 0.2)
    assert s.value < 0


def test_psi_pools_reference_of_any_shape():
    pred = [[1.0, 2.0], [1.5, 2.0]]
    ref2d = np.array([[0.0, 1.0, 2.0], [3.0, 4.0, np.nan]])
    a = st.psi(pred, ref2d, "metric")
    b = st.psi(pred, [0.0, 1.0, 2.0, 3.0, 4.0], "metric")
    np.testing.assert_allclose(a.per_object, b.per_object)
    assert a.expected == pytest.approx(2 * np.var([0, 1, 2, 3, 4], ddof=1))


def test_object_with_one_prediction_is_nan_with_warning():
    pred = np.array([[1.0, 2.0], [1.0, np.nan], [2.0, np.nan]])
    with pytest.warns(st.UndefinedCoefficientWarning, match="fewer than 2"):
        s = st.phi(pred, [0.0, 1.0, 2.0], "metric")
    assert np.isnan(s.per_object[1])
    assert s.value == pytest.approx(s.per_object[0])


def test_constant_reference_is_undefined():
    with pytest.raises(st.UndefinedError, match="D_e is 0"):
        st.phi([[0, 1], [1, 1]], [1, 1, 1], "nominal")
    with pytest.raises(st.UndefinedError, match="constant"):
        st.psi([[0.2], [0.3]], [5.0, 5.0], "metric")


def test_interval_brackets_value_and_is_reproducible():
    rng = np.random.default_rng(0)
    pred = rng.integers(0, 3, size=(5, 200))
    s = st.phi(pred, rng.integers(0, 3, size=100), "nominal")
    lo, hi = s.interval(0.95, n_resamples=500, random_state=1)
    assert lo < s.value < hi
    assert (lo, hi) == s.interval(0.95, n_resamples=500, random_state=1)
    lo90, hi90 = s.interval(0.90, n_resamples=500, random_state=1)
    assert lo <= lo90 and hi90 <= hi
    # the bootstrap sd of a mean is close to sd/sqrt(N): the 95% width ≈ 2·1.96·that
    se = s.per_object.std(ddof=1) / np.sqrt(s.per_object.size)
    assert hi - lo == pytest.approx(2 * 1.96 * se, rel=0.2)


def test_interval_bad_arguments():
    s = st.phi([[0, 1], [0, 0]], [0, 1, 1], "nominal")
    with pytest.raises(ValueError, match="confidence"):
        s.interval(1.5)
    with pytest.raises(ValueError, match="n_resamples"):
        s.interval(0.9, n_resamples=0)
    one = st.phi([[0], [0]], [0, 1], "nominal")
    with pytest.raises(ValueError, match="at least 2 objects"):
        one.interval()


def test_pandas_and_xarray_inputs():
    import pandas as pd
    import xarray as xr

    arr = np.array([[1.0, 2.0, 3.0], [1.5, 2.0, 2.0]])
    y = np.array([0.0, 1.0, 3.0, 4.0])
    want = st.phi(arr, y, "metric").per_object
    np.testing.assert_allclose(st.phi(pd.DataFrame(arr), pd.Series(y), "metric").per_object, want)
    da = xr.DataArray(arr, dims=("refit", "object"))
    np.testing.assert_allclose(st.phi(da, xr.DataArray(y), "metric").per_object, want)


def test_pandas_ordered_categorical_supplies_order():
    import pandas as pd

    order = ["high", "low", "mid"]  # deliberately not alphabetical order of meaning
    y = pd.Series(pd.Categorical(["low", "mid", "high", "high"], categories=order, ordered=True))
    pred = [["low", "high"], ["mid", "high"]]
    got = st.phi(pred, y, "ordinal").per_object
    want, _, _ = brute_stability(pred, list(y), make_ordinal_delta(order, list(y)))
    np.testing.assert_allclose(got, want)


def plain_nominal_phi(pred, train_y):
    """Nominal closed form with collections.Counter, one object at a time."""
    from collections import Counter

    def disagreement(values):
        vals = [v for v in values if not is_missing(v)]
        r = len(vals)
        return 1.0 - sum(c * (c - 1) for c in Counter(vals).values()) / (r * (r - 1))

    d_e = disagreement(list(train_y))
    return [1.0 - disagreement(list(pred[:, i])) / d_e for i in range(pred.shape[1])]


@pytest.mark.parametrize("variant", ["int", "float", "float-nan", "non-integer", "int-categories", "big-values"])
def test_large_inputs_agree_with_plain_counting(variant):
    """≥ 100,000 values switch on the one-byte counting path; every variant must agree."""
    rng = np.random.default_rng(7)
    pred = rng.choice(3, size=(40, 2600), p=[0.7, 0.2, 0.1])
    y = rng.choice(3, size=300)
    cats = None
    if variant != "int":
        pred, y = pred.astype(float), y.astype(float)
    if variant == "float-nan":
        pred[rng.random(pred.shape) < 0.05] = np.nan
    if variant == "non-integer":
        pred, y = pred / 2, y / 2
    if variant == "int-categories":
        pred, y, cats = pred.astype(np.int16), y.astype(np.int16), [2, 0, 1, 5]
    if variant == "big-values":
        pred, y = pred * 1000.0, y * 1000.0
    got = st.phi(pred, y, "nominal", categories=cats).per_object
    np.testing.assert_allclose(got, plain_nominal_phi(pred, y), rtol=1e-12, atol=1e-12)


# ----------------------------------------------------------------------------- on_undefined (the policy)
@pytest.mark.parametrize("measure", [phi, psi])
def test_constant_reference_follows_on_undefined(measure) -> None:
    pred = np.array([[0, 1, 1], [1, 1, 0], [0, 1, 1]])
    constant = [1, 1, 1, 1]
    with pytest.raises(UndefinedError, match="constant"):
        measure(pred, constant, "nominal")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = measure(pred, constant, "nominal", on_undefined="nan")
    assert not quiet.defined and "constant" in quiet.reason
    assert np.isnan(quiet.value) and np.isnan(quiet.per_object).all() and quiet.per_object.shape == (3,)
    assert all(np.isnan(quiet.interval(random_state=0)))
    with pytest.warns(UndefinedCoefficientWarning, match="constant"):
        loud = measure(pred, constant, "nominal", on_undefined="warn")
    assert np.isnan(loud.value) and loud.reason == quiet.reason
    with pytest.raises(ValueError, match="on_undefined"):
        measure(pred, constant, "nominal", on_undefined="ignore")


def test_no_object_with_two_predictions_follows_on_undefined() -> None:
    pred = np.array([[1.0, np.nan], [np.nan, 0.0]])
    with pytest.raises(UndefinedError, match="two or more"):
        phi(pred, [0, 1, 0, 1], "nominal")
    result = phi(pred, [0, 1, 0, 1], "nominal", on_undefined="nan")
    assert "two or more" in result.reason and np.isnan(result.value)


def test_on_undefined_changes_nothing_where_the_measure_is_defined() -> None:
    pred = np.array([["neg", "neg"]] * 8 + [["neg", "pos"]] * 2)
    train_y = ["pos"] * 10 + ["neg"] * 90
    default = phi(pred, train_y, "nominal")
    for policy in ("warn", "nan", "raise"):
        other = phi(pred, train_y, "nominal", on_undefined=policy)
        assert other.defined and other.reason is None
        np.testing.assert_array_equal(other.per_object, default.per_object)
    # S_1 by hand: D_o = 1 − (8·7 + 2·1)/(10·9) = 16/45, D_e = 2·10·90/(100·99) = 2/11 → S = 1 − 88/45
    assert default.per_object[1] == pytest.approx(1 - (16 / 45) / (2 / 11), abs=1e-15)
