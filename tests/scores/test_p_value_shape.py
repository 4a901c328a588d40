"""One p-value shape: ``p_value(...)`` is a method giving a float; the test's details come from
``test(...)``. The old spellings (``RocCurve.p_value().method``, the property
``AucComparison.p_value``, ``GroupedAucComparison.p_values``) give the same numbers for one
release, with a FutureWarning naming the new one."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy.stats import mannwhitneyu, norm

import confusionlab as cl

RNG = np.random.default_rng(7)
Y = np.r_[np.ones(30, dtype=int), np.zeros(40, dtype=int)]
A = RNG.normal(size=70) + Y
B = RNG.normal(size=70) + 0.5 * Y
C = RNG.normal(size=70)
GROUPS = np.tile(["f", "m"], 35)


def test_roc_p_value_is_a_float_and_test_says_how() -> None:
    curve = cl.roc_curve(Y, A)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = curve.p_value("two-sided")
        test = curve.test("two-sided")
        assert isinstance(p, float) and type(p + 0.0) is float and p < 0.05 and f"{p:.3g}"
        assert test.method == "exact" and float(test) == p
    reference = mannwhitneyu(A[Y == 1], A[Y == 0], alternative="two-sided", method="exact").pvalue
    assert p == pytest.approx(reference, rel=1e-9)


def test_roc_p_value_method_warns_and_names_test() -> None:
    curve = cl.roc_curve(Y, A)
    p = curve.p_value(method="normal")
    with pytest.warns(FutureWarning, match=r"RocCurve\.p_value\(\)\.method is renamed RocCurve\.test\(\)\.method"):
        assert p.method == "normal"
    with pytest.raises(AttributeError):
        p.mc_error  # noqa: B018


def test_auc_comparison_p_value_is_a_method_giving_a_float() -> None:
    c = cl.compare_auc(Y, A, B)
    frame = c.to_frame()
    expected = 2 * norm.sf(abs(frame["difference"][0]) / frame["sd"][0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = c.p_value()
    assert type(p) is float and p == pytest.approx(expected, rel=1e-12)


def test_auc_comparison_p_value_uncalled_warns_and_gives_the_same_number() -> None:
    c = cl.compare_auc(Y, A, B)
    with pytest.warns(FutureWarning, match=r"AucComparison\.p_value is a method now: write AucComparison\.p_value\(\)"):
        assert c.p_value == c.p_value()
    with pytest.warns(FutureWarning, match="is a method now"):
        assert float(c.p_value) == c.p_value() and math.isclose(c.p_value, c.p_value())
    with pytest.warns(FutureWarning, match="is a method now"):
        assert f"{c.p_value:.6f}" == f"{c.p_value():.6f}"


def test_auc_comparison_of_three_gives_a_mapping_old_and_new() -> None:
    c = cl.compare_auc(Y, {"a": A, "b": B, "c": C})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = c.p_value()
    assert type(new) is dict and set(new) == {("a", "b"), ("a", "c"), ("b", "c")}
    with pytest.warns(FutureWarning, match=r"AucComparison\.p_value is a method now"):
        assert c.p_value[("a", "c")] == new[("a", "c")]
    with pytest.warns(FutureWarning, match="is a method now"):
        assert dict(c.p_value.items()) == new


def test_grouped_p_value_is_a_method_and_p_values_warns() -> None:
    gc = cl.compare_auc(Y, A, B, groups=GROUPS)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = gc.p_value()
    assert set(new) == {"f", "m"} and all(type(v) is float for v in new.values())
    assert new == {name: gc[name].p_value() for name in ("f", "m")}
    with pytest.warns(FutureWarning, match=r"GroupedAucComparison\.p_values is renamed p_value\(\)"):
        old = gc.p_values
    assert old == new
