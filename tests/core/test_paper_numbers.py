"""The paper's three results, reproduced by the code.

Reference numbers are the published figures of Lovell, Miller, Capra and Bradley,
*Never mind the metrics — what about the uncertainty?* (ICML 2023), copied into the
tests below. Tolerances: published values are given to 4 decimals, so we
allow half a unit in the last place (5e-5) unless stated.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from brute import exact_value

import confusionlab as cl

OBSERVED = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)


@pytest.mark.parametrize(
    ("metric", "n40", "n41"),
    [("balanced_accuracy", 81, 881), ("mcc", 725, 881), ("f1", 594, 614)],
)
def test_discreteness_jump_in_distinct_values(metric: str, n40: int, n41: int) -> None:
    counts = [
        len(cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=n - 32, tn=32), metric, tolerance=0))
        for n in (40, 41)
    ]
    assert counts == [n40, n41]


def test_balanced_accuracy_largest_mass_falls_while_moments_stay() -> None:
    d40 = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), "balanced_accuracy", tolerance=0)
    d41 = cl.metric_distribution(cl.ConfusionMatrix(tp=16, fn=4, fp=9, tn=32), "balanced_accuracy", tolerance=0)
    # paper: "about 0.064" -> "about 0.017"
    assert d40.probabilities.max() == pytest.approx(0.064, abs=5e-4)
    assert d41.probabilities.max() == pytest.approx(0.017, abs=5e-4)
    # paper: mean/sd ≈ 0.78/0.078 -> 0.77/0.078 (two decimals / three decimals)
    assert (round(d40.mean(), 2), round(d40.std(), 3)) == (0.78, 0.078)
    assert (round(d41.mean(), 2), round(d41.std(), 3)) == (0.77, 0.078)


@pytest.mark.parametrize("level", [Fraction(2, 5), Fraction(2, 3)])
def test_f1_contours_pass_through_eleven_lattice_points(level: Fraction) -> None:
    p, n = 20, 40
    on_contour = [
        (tp, tn) for tp in range(p + 1) for tn in range(n + 1) if exact_value("f1", tp, p - tp, n - tn, tn) == level
    ]
    assert len(on_contour) == 11
    d = cl.metric_distribution(OBSERVED, "f1", tolerance=0)
    assert d.multiplicities[np.flatnonzero(d.values == float(level))].tolist() == [11]
    [line] = cl.contour("f1", float(level), p, n)
    # every lattice point lies on the drawn straight line
    (x0, y0), (x1, y1) = line[0], line[-1]
    for tp, tn in on_contour:
        x, y = (n - tn) / n, tp / p
        assert abs((x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)) < 1e-12


SD_TABLE = {  # N: {(metric, model): published sd}
    60: {
        ("mcc", "binomial"): 0.1064,
        ("mcc", "beta-binomial"): 0.1505,
        ("balanced_accuracy", "binomial"): 0.0548,
        ("balanced_accuracy", "beta-binomial"): 0.0776,
        ("f1", "binomial"): 0.0672,
        ("f1", "beta-binomial"): 0.0962,
    },
    240: {("mcc", "binomial"): 0.0531, ("mcc", "beta-binomial"): 0.0751},
    960: {("mcc", "binomial"): 0.0265, ("mcc", "beta-binomial"): 0.0375},
    3840: {
        ("mcc", "binomial"): 0.0133,
        ("mcc", "beta-binomial"): 0.0188,
        ("balanced_accuracy", "binomial"): 0.0068,
        ("balanced_accuracy", "beta-binomial"): 0.0097,
        ("f1", "binomial"): 0.0083,
        ("f1", "beta-binomial"): 0.0118,
    },
}


@pytest.mark.parametrize("N", sorted(SD_TABLE))
def test_one_over_root_n_sd_table(N: int) -> None:
    cm = OBSERVED.scaled(N // 60)
    for (metric, model), published in SD_TABLE[N].items():
        assert cl.metric_distribution(cm, metric, model).std() == pytest.approx(published, abs=5e-5), (metric, model)


def test_sd_halves_with_every_fourfold_n() -> None:
    sds = [cl.metric_distribution(OBSERVED.scaled(m), "mcc").std() for m in (1, 4, 16, 64)]
    ratios = np.array(sds[:-1]) / np.array(sds[1:])
    np.testing.assert_allclose(ratios, 2.0, atol=0.02)


def test_mcc_central_interval_at_n60() -> None:
    lo, hi = cl.metric_distribution(OBSERVED, "mcc", "binomial").interval(0.95)
    assert (lo, hi) == pytest.approx((0.361, 0.782), abs=5e-4)
    lo, hi = cl.metric_distribution(OBSERVED, "mcc", "beta-binomial").interval(0.95)
    assert (lo, hi) == pytest.approx((0.222, 0.811), abs=5e-4)


@pytest.mark.parametrize(
    ("p", "n", "published"),
    [
        (20, 20, 0.0895),
        (20, 80, 0.0708),
        (20, 200, 0.0664),
        (20, 1000, 0.0639),
        (10, 990, 0.0895),
        (100, 900, 0.0298),
        (500, 500, 0.0179),
    ],
)
def test_class_imbalance_sd_table(p: int, n: int, published: float) -> None:
    cm = cl.ConfusionMatrix.from_rates(p, n, 0.8, 0.8)
    assert cl.metric_distribution(cm, "balanced_accuracy").std() == pytest.approx(published, abs=5e-5)


@pytest.mark.parametrize(("prevalence", "published"), [(0.5, 0.866), (0.2, 0.856), (0.01, 0.981)])
def test_mcc_ellipse_eccentricity(prevalence: float, published: float) -> None:
    from confusionlab.contours import mcc_eccentricity

    assert mcc_eccentricity(0.5, prevalence) == pytest.approx(published, abs=5e-4)
