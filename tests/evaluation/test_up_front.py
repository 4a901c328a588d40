"""evaluate refuses bad arguments before anything is computed (issue 20, defect 8)."""

from __future__ import annotations

import numpy as np
import pytest

import confusionlab as cl
from confusionlab import InvalidParameterError

Y = [0, 1, 0, 1, 1, 0]
P = [0, 1, 1, 1, 0, 0]


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"model": "binomial", "target": "true_value"}, "model='beta-binomial'"),
        ({"model": "dirichlet-multinomial", "target": "true_value"}, "target='next_test_set'"),
        ({"positive": 7}, "positive=7"),
    ],
)
def test_refused_at_the_call(kw, match):
    with pytest.raises(InvalidParameterError, match=match):
        cl.evaluate(Y, P, **kw)


def test_the_simplex_model_on_a_large_test_set_is_refused_at_the_call():
    """With method="exact" (method="auto" samples instead: tests/evaluation/test_any_size.py)."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 5000)
    with pytest.raises(InvalidParameterError, match="model='beta-binomial'"):
        cl.evaluate(y, y, model="dirichlet-multinomial", method="exact", target="next_test_set")


def test_monte_carlo_memory_is_checked_at_the_call():
    y = np.array([0, 1, 2] * 10)
    with pytest.raises(cl.TooLargeError, match="n_draws"):
        cl.evaluate(y, np.roll(y, 1), n_draws=10**8, target="next_test_set")


@pytest.mark.parametrize("where", ["y_pred", "y_true", "refits"])
def test_scores_passed_as_labels_get_advice_that_works(where):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 200)
    scores = np.clip(y * 0.6 + rng.random(200) * 0.5, 0, 1)
    kw = {"y_true": y, "y_pred": y}
    if where == "refits":
        kw["refits"] = np.stack([scores, scores])
    else:
        kw[where] = scores
    with pytest.raises(InvalidParameterError, match=f"{where} holds scores") as info:
        cl.evaluate(**kw)
    assert "threshold" in str(info.value) and "n_draws" not in str(info.value) and "fewer" not in str(info.value)
    # the advice works: thresholded scores are labels
    if where == "y_pred":
        assert cl.evaluate(y, scores >= 0.5).value["recall"] >= 0


def test_integer_valued_floats_are_labels():
    assert cl.evaluate(np.array(Y, dtype=float), np.array(P, dtype=float)).value["recall"] == pytest.approx(2 / 3)
