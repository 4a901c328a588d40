"""metric_distribution(method="monte-carlo" | "auto"): draws of the same model, within their stated bounds.

The references are independent: Fraction brute force of the slice models (brute.py), scipy's
Dirichlet-multinomial pmf over the enumerated simplex, scipy's Beta cdf for the true recall. A
sampled distribution states ``cdf_error``, the Dvoretzky–Kiefer–Wolfowitz bound that holds with
probability ≥ 0.999 for each seed, and ``mc_error``, the standard error of its mean; the tests
check both against the exact answer over several seeds (a defect — another model sampled, a prior
dropped, a wrong future size — moves the cdf by far more than 0.014).
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from brute import as_float, exact_value, slice_distribution
from scipy import stats

import confusionlab as cl
from confusionlab._validation import set_memory_limit
from confusionlab.distribution import MC_CDF_RISK

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)


def _exact_cdf(atoms: dict[float, float]):
    """The cdf of float atoms {value: mass} at any points."""
    xs = np.array(sorted(atoms))
    cum = np.cumsum([atoms[x] for x in xs])
    cum /= cum[-1]
    return xs, lambda q: np.where(
        np.searchsorted(xs, q, side="right") > 0, cum[np.searchsorted(xs, q, side="right") - 1], 0.0
    )


def _brute_atoms(metric: str, model: str) -> dict[float, float]:
    groups, (undef_mass, _) = slice_distribution(metric, *CM.as_tuple(), model)
    atoms: dict[float, float] = {}
    for key, (mass, _) in groups.items():
        atoms[as_float(key)] = atoms.get(as_float(key), 0.0) + float(mass)
    if undef_mass:
        atoms[0.0] = atoms.get(0.0, 0.0) + float(undef_mass)
    return atoms


def _check_against(d: cl.MetricDistribution, xs: np.ndarray, cdf, mean: float) -> None:
    assert d.method == "monte-carlo"
    # the cdf between atoms (midpoints: no float tie can decide the comparison) and at the atoms
    mids = np.r_[xs[0] - 1.0, (xs[:-1] + xs[1:]) / 2, xs[-1] + 1.0]
    gap = np.abs(np.asarray(d.cdf(mids)) - cdf(mids)).max()
    assert gap <= d.cdf_error, (gap, d.cdf_error)
    assert abs(d.mean() - mean) <= 5 * d.mc_error, (d.mean(), mean, d.mc_error)
    # each end of the interval lies between the exact quantiles at levels moved by cdf_error
    lo, hi = d.interval(0.95)
    for end, q in ((lo, 0.025), (hi, 0.975)):
        below = xs[np.searchsorted(cdf(xs), max(q - d.cdf_error, 0.0), side="left")]
        above = xs[min(np.searchsorted(cdf(xs), min(q + d.cdf_error, 1.0), side="left"), xs.size - 1)]
        assert below - 1e-12 <= end <= above + 1e-12, (end, below, above)


@pytest.mark.parametrize(
    ("metric", "model"), list(product(["f1", "mcc", "balanced_accuracy"], ["beta-binomial", "binomial"]))
)
def test_sampled_slice_models_match_fraction_brute_force(metric, model):
    atoms = _brute_atoms(metric, model)
    xs, cdf = _exact_cdf(atoms)
    mean = sum(v * w for v, w in atoms.items()) / sum(atoms.values())
    for seed in range(4):
        d = cl.metric_distribution(CM, metric, model, method="monte-carlo", n_draws=20_000, random_state=seed)
        _check_against(d, xs, cdf, mean)
        assert d.cdf_error == pytest.approx(math.sqrt(math.log(2 / MC_CDF_RISK) / 40_000))


@pytest.mark.parametrize("metric", ["f1", "accuracy", "mcc"])
def test_sampled_simplex_model_matches_scipy_dirichlet_multinomial(metric):
    cm = cl.ConfusionMatrix(tp=5, fn=2, fp=3, tn=6)
    N = cm.N
    alpha = np.array(cm.as_tuple(), dtype=float) + 1.0
    atoms: dict[float, float] = {}
    for tp in range(N + 1):
        for fn in range(N + 1 - tp):
            for fp in range(N + 1 - tp - fn):
                x = [tp, fn, fp, N - tp - fn - fp]
                w = float(stats.dirichlet_multinomial.pmf(x, alpha, N))
                key = exact_value(metric, *x)
                v = 0.0 if key is None else as_float(key)
                atoms[v] = atoms.get(v, 0.0) + w
    xs, cdf = _exact_cdf(atoms)
    mean = sum(v * w for v, w in atoms.items())
    for seed in range(3):
        d = cl.metric_distribution(cm, metric, "dirichlet-multinomial", method="monte-carlo", random_state=seed)
        _check_against(d, xs, cdf, mean)


def test_sampled_true_value_matches_the_beta_posterior():
    """The true recall is TPR itself: its posterior is Beta(TP + α, FN + α) (scipy; α = ½ by default)."""
    for seed in range(3):
        d = cl.metric_distribution(CM, "recall", target="true_value", method="monte-carlo", random_state=seed)
        grid = np.linspace(0.3, 1.0, 141)
        gap = np.abs(np.asarray(d.cdf(grid)) - stats.beta.cdf(grid, 16.5, 4.5)).max()
        assert d.method == "monte-carlo" and d.target == "true_value"
        assert gap <= d.cdf_error
        assert abs(d.mean() - 16.5 / 21) <= 5 * d.mc_error


def test_auto_is_exact_where_it_fits_and_the_same_numbers():
    exact = cl.metric_distribution(CM, "mcc")
    auto = cl.metric_distribution(CM, "mcc", method="auto")
    assert auto.method == exact.method == "exact"
    np.testing.assert_array_equal(auto.values, exact.values)
    np.testing.assert_array_equal(auto.probabilities, exact.probabilities)


@pytest.fixture
def small_memory():
    yield set_memory_limit
    set_memory_limit(None)


def test_auto_samples_where_exact_does_not_fit_and_stays_within_its_bound(small_memory):
    """Under a 4 MB memory limit the exact lattice of p = 300, n = 600 is refused; "auto"
    samples, and its answer is within its bound of the exact one (computed without the limit)."""
    cm = cl.ConfusionMatrix(tp=240, fn=60, fp=90, tn=510)
    exact = cl.metric_distribution(cm, "f1", tolerance=0)
    small_memory("4M")
    with pytest.raises(cl.TooLargeError, match="method='auto'"):
        cl.metric_distribution(cm, "f1", tolerance=0)
    d = cl.metric_distribution(cm, "f1", tolerance=0, method="auto")
    small_memory(None)
    xs = exact.values
    _check_against(d, xs, lambda q: np.asarray(exact.cdf(q)), exact.mean())


def test_auto_answers_at_two_million_objects_and_mcc_at_150_thousand():
    """Issue 24 (2·10⁶ rows) and issue 21 (MCC at p = n = 1.5·10⁵: a MemoryError after its
    estimate passed): "auto" answers, labelled, with a Monte Carlo error far below the spread."""
    big = cl.ConfusionMatrix(tp=900_000, fn=100_000, fp=50_000, tn=950_000)
    d = cl.metric_distribution(big, "f1", method="auto")
    assert d.method == "monte-carlo" and 0 < d.mc_error < d.std() / 50
    tp, fn, fp, tn = 120_000, 30_000, 20_000, 130_000
    mcc = cl.metric_distribution(cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn), "mcc", method="auto")
    assert mcc.method == "monte-carlo"
    observed = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    # at this size the new test set's MCC is close to normal around the observed one, with an sd of
    # about √2·(1 − MCC²)/√N (twice the variance of the plug-in estimate: the rates are uncertain too)
    assert abs(mcc.mean() - observed) < 0.002
    assert 0.5 < mcc.std() / (math.sqrt(2) * (1 - observed**2) / math.sqrt(tp + fn + fp + tn)) < 2


def test_simplex_auto_beyond_the_simplex_and_exact_refusal_names_the_way_out():
    cm = cl.ConfusionMatrix(tp=2000, fn=500, fp=400, tn=2100)
    d = cl.metric_distribution(cm, "f1", "dirichlet-multinomial", method="auto")
    assert d.method == "monte-carlo"
    # the Dirichlet-multinomial's mean F1 ≈ the observed F1 at this size
    assert abs(d.mean() - 2 * 2000 / (2 * 2000 + 500 + 400)) < 0.002
    with pytest.raises(cl.InvalidParameterError, match="method='auto'"):
        cl.metric_distribution(cm, "f1", "dirichlet-multinomial")


@pytest.mark.parametrize("bad", ["fast", None, 3])
def test_method_is_validated(bad):
    with pytest.raises(cl.InvalidParameterError, match="method"):
        cl.metric_distribution(CM, "f1", method=bad)


def test_sampled_distributions_are_reproducible_and_respect_undefined():
    a = cl.metric_distribution(CM, "precision", method="monte-carlo", random_state=3)
    b = cl.metric_distribution(CM, "precision", method="monte-carlo", random_state=3)
    np.testing.assert_array_equal(a.probabilities, b.probabilities)
    zero = cl.ConfusionMatrix(tp=0, fn=5, fp=0, tn=5)  # precision 0/0 often
    d = cl.metric_distribution(zero, "precision", method="monte-carlo", undefined="exclude")
    assert d.undefined_mass > 0.1
    assert abs(d.probabilities.sum() + d.undefined_mass - 1) < 1e-12
