"""evaluate(..., prior=): the prior of every posterior the evaluation forms."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import confusionlab as cl

Y = np.array([1] * 40 + [0] * 60)
P = np.array([1] * 34 + [0] * 6 + [0] * 51 + [1] * 9)


@pytest.mark.parametrize(("prior", "alpha"), [("uniform", 1.0), ("jeffreys", 0.5), (2.0, 2.0)])
def test_binary_true_value_is_the_beta_posterior_of_that_prior(prior, alpha):
    """Recall's true value: Beta(TP + α, FN + α) (scipy), up to the quadrature's cdf error."""
    ev = cl.evaluate(Y, P, metrics=["recall"], target="true_value", prior=prior)
    lo, hi = ev.interval_of("recall", 0.95)
    ref = stats.beta.ppf([0.025, 0.975], 34 + alpha, 6 + alpha)
    assert lo == pytest.approx(ref[0], abs=3e-3) and hi == pytest.approx(ref[1], abs=3e-3)
    assert ev.prior == alpha


def test_next_test_set_is_the_beta_binomial_of_that_prior():
    ev = cl.evaluate(Y, P, metrics=["recall"], prior="jeffreys")
    d = ev.distribution("recall")
    ref = stats.betabinom(40, 34.5, 6.5)
    assert d.mean() == pytest.approx(ref.mean() / 40, abs=1e-9)
    assert d.std() == pytest.approx(ref.std() / 40, abs=1e-9)


def test_macro_averages_use_the_prior_on_each_row():
    """A three-class accurate model: a smaller prior pulls the sampled macro-F1 less toward chance."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 90)
    p = np.where(rng.random(90) < 0.9, y, (y + 1) % 3)
    uniform = cl.evaluate(y, p, metrics=["macro_f1"], target="true_value", n_draws=20_000)
    jeffreys = cl.evaluate(y, p, metrics=["macro_f1"], target="true_value", n_draws=20_000, prior="jeffreys")
    observed = uniform.value["macro_f1"]
    assert abs(jeffreys.distribution("macro_f1").mean() - observed) < abs(
        uniform.distribution("macro_f1").mean() - observed
    )


def test_bad_prior_is_refused_at_the_call():
    with pytest.raises(cl.InvalidParameterError, match="prior"):
        cl.evaluate(Y, P, prior=-1)
