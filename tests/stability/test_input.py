"""Bad inputs give clear errors that name the argument."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from confusionlab import stability as st


def test_ragged_predictions():
    with pytest.raises(ValueError, match=r"predictions must be a rectangular array.*ragged"):
        st.phi([[0, 1], [1]], [0, 1], "nominal")


def test_fewer_than_two_refits():
    with pytest.raises(ValueError, match="at least 2 refits"):
        st.phi([[0, 1, 1]], [0, 1], "nominal")


def test_one_dimensional_predictions_hint():
    with pytest.raises(ValueError, match=r"2-D .*\[:, None\]"):
        st.psi([0.1, 0.2, 0.3], [0.0, 1.0], "metric")


def test_unknown_category_in_predictions():
    with pytest.raises(ValueError, match="predictions contains values not in categories: 'c'"):
        st.phi([["a", "c"], ["a", "b"]], ["a", "b"], "nominal", categories=["a", "b"])


def test_category_list_missing_a_reference_value():
    with pytest.raises(ValueError, match="train_y contains values not in categories: 3"):
        st.phi([[1, 2], [1, 1]], [1, 2, 3], "ordinal", categories=[1, 2])


def test_duplicate_categories():
    with pytest.raises(ValueError, match="duplicates"):
        st.phi([[1, 2], [1, 1]], [1, 2], "ordinal", categories=[1, 2, 2])


def test_ordinal_strings_need_categories():
    with pytest.raises(ValueError, match="needs categories="):
        st.phi([["lo", "hi"], ["lo", "lo"]], ["lo", "hi"], "ordinal")


def test_unknown_scale():
    with pytest.raises(ValueError, match="scale must be one of"):
        st.phi([[0, 1], [1, 1]], [0, 1], "interval")


def test_metric_needs_numbers():
    with pytest.raises(TypeError, match="predictions must be numeric"):
        st.phi([["a", "b"], ["a", "a"]], [0.0, 1.0], "metric")


def test_reference_too_small():
    with pytest.raises(ValueError, match="reference_predictions needs at least 2"):
        st.psi([[0.0], [1.0]], [1.0], "metric")
    with pytest.raises(ValueError, match="train_y needs at least 2 non-missing"):
        st.phi([[0.0], [1.0]], [1.0, np.nan], "metric")


def test_none_input():
    with pytest.raises(TypeError, match="predictions must be array-like"):
        st.phi(None, [0, 1], "nominal")


def test_mixed_types():
    with pytest.raises(TypeError, match="mix"):
        st.phi(np.array([[1, "a"], [1, 1]], dtype=object), [1, 2], "nominal")


def test_none_marks_missing_in_object_arrays():
    pred = np.array([["a", None], ["a", "b"], ["b", "b"]], dtype=object)
    s = st.phi(pred, ["a", "b", "b"], "nominal")
    # object 1 has (b, b): D_o = 0; object 0 (a, a, b): 4/6 pairs disagree
    np.testing.assert_allclose(s.observed, [2 / 3, 0.0])
    np.testing.assert_array_equal(s.n_refits, [3, 2])


def test_import_is_light():
    heavy = ("sklearn", "dask", "joblib", "tqdm", "matplotlib", "distributed")
    code = f"import sys, confusionlab.stability; print([m for m in {heavy!r} if m in sys.modules])"
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


# ----------------------------------------------- np.nan inside string arrays is missing
# numpy turns np.nan inside a list of strings into the string 'nan'
NAN_STRINGS = [
    ["b", "c", "c", np.nan, np.nan, np.nan],
    ["b", "b", "c", np.nan, "c", "b"],
    ["b", "c", "c", np.nan, "c", "b"],
]


def test_nan_in_string_list_is_missing_for_krippendorff_alpha():
    """Reference: krippendorff.alpha on the same data coded as numbers with np.nan missing.

    Before the fix 'nan' was a fourth category and α came out 0.523 instead of 0.714.
    """
    import krippendorff

    assert np.asarray(NAN_STRINGS).dtype.kind == "U"  # the data really hold the string 'nan'
    code = {"b": 0.0, "c": 1.0}
    numeric = [[code.get(v, np.nan) if isinstance(v, str) else np.nan for v in row] for row in NAN_STRINGS]
    want = krippendorff.alpha(reliability_data=numeric, level_of_measurement="nominal")
    assert want == pytest.approx(0.7142857, abs=1e-6)
    got = st.krippendorff_alpha(np.asarray(NAN_STRINGS), "nominal", on_undefined="nan")
    assert float(got) == pytest.approx(want, rel=1e-12)
    # a list (not yet an array) and an object array give the same answer
    assert float(st.krippendorff_alpha(NAN_STRINGS, "nominal")) == pytest.approx(want, rel=1e-12)


def test_nan_in_string_list_is_missing_for_phi_and_psi():
    # brute force by hand, 'nan' skipped:
    # object 0 (b, b, b): D_o = 0;  object 1 (c, b, c): 4 of 6 ordered pairs disagree → 2/3
    # object 2 (c, c, c): 0;  object 3: no prediction → NaN;  object 4 (c, c): 0;  object 5 (b, b): 0
    # reference (b, c, b, c) with a 'nan': D_e = 8/12 = 2/3
    ref = np.asarray(["b", "c", np.nan, "b", "c"])
    assert ref.dtype.kind == "U"
    with pytest.warns(st.UndefinedCoefficientWarning, match="fewer than 2"):
        s = st.phi(np.asarray(NAN_STRINGS), ref, "nominal")
    assert s.categories.tolist() == ["b", "c"]
    assert s.expected == pytest.approx(2 / 3)
    np.testing.assert_allclose(s.per_object, [1.0, 0.0, 1.0, np.nan, 1.0, 1.0])
    np.testing.assert_array_equal(s.n_refits, [3, 3, 3, 0, 2, 2])
    with pytest.warns(st.UndefinedCoefficientWarning):
        p = st.psi(NAN_STRINGS, ref, "nominal")
    np.testing.assert_allclose(p.per_object, s.per_object)


def test_nan_in_string_list_is_missing_for_fleiss_and_gwet():
    """Fleiss' κ and Gwet's AC1 need complete data: 'nan' is refused as missing, not counted."""
    for func in (st.fleiss_kappa, st.gwet_ac1):
        with pytest.raises(ValueError, match="missing values"):
            func(np.asarray(NAN_STRINGS))
    complete = np.asarray([["b", "c", np.nan], ["b", "c", "c"]])[:, :2]
    assert float(st.fleiss_kappa(complete)) == pytest.approx(1.0)


def test_pandas_na_and_none_are_missing():
    import pandas as pd

    df = pd.DataFrame({"o1": pd.array(["b", "b", pd.NA], dtype="string"), "o2": ["c", None, "c"]})
    s = st.phi(df, ["b", "c", "b", "c"], "nominal")
    np.testing.assert_array_equal(s.n_refits, [2, 2])
    np.testing.assert_allclose(s.per_object, [1.0, 1.0])


# ------------------------------------------------------------------ float nominal categories
def test_float_nominal_categories_work():
    """Before: 'need at least one array to stack' (no integer between 0.25 and 0.75).

    Reference: Fleiss' κ from statsmodels, α from krippendorff, phi by hand.
    """
    import krippendorff
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    pred = np.array([[0.25, 0.75, 0.25], [0.25, 0.75, 0.75], [0.25, 0.25, 0.75]])
    # phi: object 0 (all 0.25) 1; objects 1, 2 split 2/1 → D_o = 4/6; reference (0.25, 0.75)
    # ×2 → D_e = 8/12
    s = st.phi(pred, [0.25, 0.75, 0.25, 0.75], "nominal")
    np.testing.assert_allclose(s.per_object, [1.0, 0.0, 0.0])
    assert s.categories.tolist() == [0.25, 0.75]
    table, _ = aggregate_raters(pred.T)
    assert float(st.fleiss_kappa(pred)) == pytest.approx(sm_fleiss(table), rel=1e-12)
    want = krippendorff.alpha(reliability_data=pred, level_of_measurement="nominal")
    assert float(st.krippendorff_alpha(pred, "nominal")) == pytest.approx(want, rel=1e-12)
    assert float(st.gwet_ac1(pred)) == pytest.approx(float(st.gwet_ac1(np.where(pred == 0.25, 0, 1))))


# -------------------------------------------------- continuous data on a categorical scale
@pytest.mark.parametrize("scale", ["nominal", "ordinal"])
def test_continuous_predictions_on_categorical_scale_refused(scale):
    """Before: a dense categories² matrix was built and the call never finished."""
    rng = np.random.default_rng(0)
    pred = rng.normal(size=(10, 2000))  # 20,000 distinct values
    msg = r"take 20,0\d\d distinct values, more than MAX_CATEGORIES.*almost certainly a continuous.*scale='metric'"
    with pytest.raises(ValueError, match=msg):
        st.phi(pred, rng.normal(size=50), scale)
    with pytest.raises(ValueError, match=msg):
        st.krippendorff_alpha(pred, scale)
    if scale == "nominal":
        for func in (st.fleiss_kappa, st.gwet_ac1):
            with pytest.raises(ValueError, match=msg):
                func(pred)
    with pytest.raises(ValueError, match="categories has 5,001 entries"):
        st.phi(pred[:, :2], [0.0, 1.0], scale, categories=np.arange(5001.0))


def test_max_categories_boundary():
    # exactly MAX_CATEGORIES distinct values is still accepted (and computed without a K × K
    # matrix); one more is refused. Object i is predicted (2i, 2i+1): D_o = 1 for every object.
    k = st.MAX_CATEGORIES
    pred = np.arange(k).reshape(-1, 2).T
    s = st.phi(pred, [0, 1, 2, 3], "nominal", categories=np.arange(k))
    # D_e = 1 (four distinct values), so S_i = 1 − 1/1 = 0
    np.testing.assert_allclose(s.per_object, 0.0)
    with pytest.raises(ValueError, match="MAX_CATEGORIES"):
        st.phi(np.arange(k + 2).reshape(-1, 2).T, [0, 1], "nominal")


# ----------------------------------------------------------------- sizes refused
def test_n_resamples_bounded_and_checked_before_allocating():
    s = st.phi([[0, 1, 0], [0, 1, 1]], [0, 1, 1], "nominal")
    with pytest.raises(ValueError, match="n_resamples must be at most 1,000,000"):
        s.interval(0.95, n_resamples=10**9)
    with pytest.raises(TypeError, match="n_resamples must be an integer"):
        s.interval(0.95, n_resamples=2000.0)
    with pytest.raises(TypeError, match="random_state"):
        s.interval(0.95, random_state="seed")
    with pytest.raises(TypeError, match="confidence"):
        s.interval("0.95")


def test_memory_limit_refuses_before_allocating():
    from confusionlab._validation import TooLargeError, set_memory_limit

    rng = np.random.default_rng(0)
    pred = rng.integers(0, 200, size=(3, 3000))
    set_memory_limit("1M")
    try:
        with pytest.raises(TooLargeError, match="category counts of predictions"):
            st.phi(pred, np.arange(200), "nominal")  # 3,000 objects × 200 categories
        with pytest.raises(TooLargeError, match="distance matrix"):
            st.nominal_distances(10_000)
        with pytest.raises(TooLargeError, match="bootstrap"):
            st.phi(pred[:, :100], np.arange(200), "nominal").interval(n_resamples=1_000_000)
    finally:
        set_memory_limit(None)


def test_stability_curve_memory_checked_before_fitting():
    from confusionlab._validation import TooLargeError, set_memory_limit

    def never(n, seed):
        raise AssertionError("no model may be built when the request is refused")

    X = np.zeros((50, 2))
    set_memory_limit("64K")
    try:
        with pytest.raises(TooLargeError, match="refits"):
            st.stability_curve(never, X, np.zeros(50), np.zeros((1000, 2)), n_learners=[1, 2, 4, 8], repeats=10)
    finally:
        set_memory_limit(None)
