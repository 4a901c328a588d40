"""Hostile arguments: a valid result, or a ValueError/TypeError that names the argument."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from confusionlab import InvalidParameterError, bias
from confusionlab.bias.counts import CountTable

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.integers(2**53 - 2, 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.lists(st.integers(-2, 2), max_size=5),
    st.tuples(st.integers(-1, 3)),
    st.sampled_from([np.nan, np.int64(3), np.float32(0.5), np.array([1, 2]), object(), {"tp": 1}, b"x"]),
)
COUNT = st.one_of(st.integers(0, 50), HOSTILE)
SETTINGS = settings(max_examples=80, deadline=None)


def _expect(call, *names: str):
    try:
        return call()
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        assert any(n in msg for n in names), f"{type(exc).__name__} does not name {names}: {msg}"
        return None


@SETTINGS
@given(st.lists(COUNT, min_size=0, max_size=6), st.tuples(*[st.integers(0, 20)] * 4))
def test_from_confusion(a, d):
    t = _expect(lambda: CountTable.from_confusion(a=a, d=d), "a[", "a must")
    if t is not None:
        assert t.confusion()[0].tolist() == [int(v) for v in a]
        assert (t.counts >= 0).all()


@SETTINGS
@given(HOSTILE)
def test_from_confusion_whole_argument(a):
    _expect(lambda: CountTable.from_confusion(a=a, d=(1, 1, 1, 1)), "a[", "a must")


OPTIONS = ["stage", "kl_labels", "prior", "n_draws", "random_state", "tolerance", "value_or_threshold"]
TABLE = CountTable.from_confusion(a=(5, 1, 2, 8), d=(3, 1, 2, 4))


@SETTINGS
@given(st.sampled_from(OPTIONS), HOSTILE)
def test_report_from_counts_options(name, value):
    r = _expect(lambda: bias.report_from_counts(TABLE, **{name: value}), name)
    if r is not None:
        v = r["DPL"].value
        assert v is None or math.isfinite(v)


@SETTINGS
@given(HOSTILE)
def test_report_from_counts_counts(value):
    _expect(lambda: bias.report_from_counts(value), "counts")


DF = pd.DataFrame(
    {
        "y": [1, 0, 1, 1, 0, 0, 1, 0],
        "p": [1, 0, 1, 0, 0, 0, 1, 0],
        "s": list("MMMMFFFF"),
        "age": [20.0, 30.0, 40.0, 50.0, 25.0, 35.0, 45.0, 55.0],
        "g": list("abababab"),
        "years": [1.0, 9.0, 2.0, 8.0, 3.0, 7.0, 4.0, 6.0],
    }
)
VALID = dict(label="y", positive_values=[1], facet="s", facet_values=["F"], predicted="p", group="g", features=["age"])
ARGS = [
    "label",
    "positive_values",
    "facet",
    "facet_values",
    "predicted",
    "group",
    "features",
    "dropna",
    "n_draws",
    "random_state",
    "tolerance",
    "stage",
    "kl_labels",
    "prior",
]


@SETTINGS
@given(st.sampled_from(ARGS), HOSTILE)
def test_report_arguments(name, value):
    kw = {**VALID, name: value}
    r = _expect(lambda: bias.report(DF, **kw), name)
    if r is not None:
        assert r.counts.n == len(DF)


@SETTINGS
@given(st.sampled_from(["facet_threshold", "label_threshold"]), HOSTILE)
def test_report_thresholds(name, value):
    kw = dict(label="age", label_threshold=35.0, facet="years", facet_threshold=4.5)
    kw[name] = value
    r = _expect(lambda: bias.report(DF, **kw), name)
    if r is not None:
        assert r.counts.n == len(DF)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_thresholds_are_refused(value):
    with pytest.raises(ValueError, match=r"facet_threshold must be a finite number"):
        bias.report(DF, label="y", positive_values=[1], facet="age", facet_threshold=value)
    with pytest.raises(ValueError, match=r"label_threshold must be a finite number"):
        bias.report(DF, label="age", label_threshold=value, facet="s", facet_values=["F"])


@pytest.mark.parametrize(
    ("kwargs", "exc", "pattern"),
    [
        (dict(counts=np.zeros((1, 2, 2, 2), dtype=float)), TypeError, r"counts must be an integer numpy array"),
        (dict(counts=-np.ones((1, 2, 2, 2), dtype=np.int64)), ValueError, r"counts must be non-negative"),
        (dict(counts=np.ones((1, 3, 2, 2), dtype=np.int64)), ValueError, r"counts must have shape"),
        (dict(has_predictions=False), ValueError, r"has_predictions=False does not match"),
        (dict(groups=("x", "y")), ValueError, r"groups must be None or a tuple of 1"),
    ],
)
def test_count_table_checks_its_fields(kwargs, exc, pattern):
    fields = dict(
        counts=np.ones((1, 2, 2, 2), dtype=np.int64),
        label_values=(False, True),
        label_positive=np.array([False, True]),
        groups=None,
        has_predictions=True,
    )
    with pytest.raises(exc, match=pattern):
        CountTable(**{**fields, **kwargs})


def test_facet_values_with_missing_values_are_refused():
    with pytest.raises(ValueError, match=r"facet_values must not contain missing values"):
        bias.report(DF, label="y", positive_values=[1], facet="s", facet_values=[None])
    with pytest.raises(ValueError, match=r"positive_values must not contain missing values"):
        bias.report(DF, label="y", positive_values=[np.nan], facet="s", facet_values=["F"])


def test_generalized_entropy_alpha():
    from confusionlab.bias.prediction_metrics import generalized_entropy

    with pytest.raises(ValueError, match=r"alpha must be finite and not 0 or 1"):
        generalized_entropy([1, 2, 3, 4], alpha=math.nan)
    with pytest.raises(TypeError, match=r"alpha must be a real number"):
        generalized_entropy([1, 2, 3, 4], alpha="2")


def test_from_confusion_refuses_a_size_beyond_2_53_naming_the_argument():
    """Four counts each within 2**53 whose sum is not (a hypothesis find): refused, naming ``a``."""
    with pytest.raises(InvalidParameterError, match=r"^a must hold at most 2\*\*53 examples in all"):
        CountTable.from_confusion(a=[0, 0, 1, 2**53], d=(0, 0, 0, 0))
