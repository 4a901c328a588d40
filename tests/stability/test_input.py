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
