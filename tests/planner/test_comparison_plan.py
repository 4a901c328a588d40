"""plan_comparison_size against independent references.

References written here, not taken from the code under test: the cells from the accuracies and
the error correlation with fractions.Fraction (largest remainders by hand); the normal
approximation N ≈ z²·(p10 + p01 − (p10 − p01)²)/h²; the true difference's quantiles by
scipy.integrate.quad over θ01 (θ10 | θ01 = (1 − θ01)·Beta(a10, a11 + a00): another
representation than the code's quadrature over θ10 + θ01) and by numpy's Dirichlet draws;
Kish's design effect by hand.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import integrate, optimize, special, stats

import confusionlab as cl
from confusionlab.planner import ComparisonSizePlan, TargetUnreachableError, plan_comparison_size

Z95 = stats.norm.ppf(0.975)


def _shares(acc_a: float, acc_b: float, rho: float) -> tuple[float, float, float, float]:
    ea, eb = 1 - acc_a, 1 - acc_b
    p00 = ea * eb + rho * math.sqrt(ea * (1 - ea) * eb * (1 - eb))
    p10, p01 = eb - p00, ea - p00
    return 1 - p10 - p01 - p00, p10, p01, p00


def _cells(shares, n: int) -> list[int]:
    """Largest remainders with fractions: floors, then the items left to the largest remainders."""
    exact = [Fraction(s).limit_denominator(10**9) * n for s in shares]
    floors = [math.floor(x) for x in exact]
    order = sorted(range(4), key=lambda k: (-(exact[k] - floors[k]), k))
    for k in order[: n - sum(floors)]:
        floors[k] += 1
    return floors


def _quantile(cells, q: float) -> float:
    """q-quantile of θ10 − θ01 under Dirichlet(cells + ½): P(D ≤ d) = ∫ f(t)·F((d + t)/(1 − t)) dt,
    θ01 ~ Beta(a01, a10 + rest), θ10/(1 − θ01) ~ Beta(a10, rest) given θ01."""
    a11, a10, a01, a00 = (c + 0.5 for c in cells)
    rest = a11 + a00
    log_norm = special.betaln(a01, a10 + rest)
    lo_t, hi_t = special.betaincinv(a01, a10 + rest, 1e-14), special.betaincinv(a01, a10 + rest, 1 - 1e-14)

    def cdf(d: float) -> float:
        def integrand(t: float) -> float:
            pdf = math.exp((a01 - 1) * math.log(t) + (a10 + rest - 1) * math.log1p(-t) - log_norm)
            return pdf * special.betainc(a10, rest, min(1.0, max(0.0, (d + t) / (1 - t))))

        return integrate.quad(integrand, lo_t, hi_t, epsabs=1e-12, epsrel=1e-10, limit=200)[0]

    return optimize.brentq(lambda d: cdf(d) - q, -1, 1, xtol=1e-12)


def _half_width(cells) -> float:
    return (_quantile(cells, 0.975) - _quantile(cells, 0.025)) / 2


def test_cells_and_the_plans_interval_against_quad():
    plan = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02)
    shares = _shares(0.85, 0.80, 0.5)
    assert list(plan.cells) == _cells(shares, plan.N) and sum(plan.cells) == plan.N
    lo, hi = plan.interval(0.95)
    assert lo == pytest.approx(_quantile(plan.cells, 0.025), abs=1e-6)
    assert hi == pytest.approx(_quantile(plan.cells, 0.975), abs=1e-6)
    assert plan.value == pytest.approx((plan.cells[1] - plan.cells[2]) / plan.N)


def test_planned_n_meets_the_goal_and_n_minus_one_does_not():
    """The half-widths recomputed independently (quad) at N and N − 1."""
    for accuracy, rho, h in (((0.85, 0.80), 0.5, 0.02), ((0.9, 0.9), 0.3, 0.03), ((0.7, 0.6), 0.0, 0.05)):
        plan = plan_comparison_size(accuracy, correlation=rho, half_width=h)
        shares = _shares(*accuracy, rho)
        assert _half_width(_cells(shares, plan.N)) <= h * (1 + 1e-7)
        assert _half_width(_cells(shares, plan.N - 1)) > h * (1 + 1e-7)


def test_plan_is_the_smallest_size_by_a_full_scan():
    """Every size below the plan, evaluated independently (quad), misses the goal."""
    plan = plan_comparison_size((0.8, 0.7), correlation=0.2, half_width=0.15)
    shares = _shares(0.8, 0.7, 0.2)
    widths = [_half_width(_cells(shares, n)) for n in range(2, plan.N + 1)]
    assert all(w > 0.15 for w in widths[:-1]) and widths[-1] <= 0.15 * (1 + 1e-9)


def test_monte_carlo_of_the_posterior_difference():
    """numpy's Dirichlet draws at the planned cells: the half-width within 4 Monte Carlo errors of the goal side."""
    plan = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02)
    rng = np.random.default_rng(12345)
    n_draws = 400_000
    for n, side in ((plan.N, "meets"), (plan.N - 1, "misses")):
        cells = np.array(_cells(_shares(0.85, 0.80, 0.5), n), dtype=float)
        draws = rng.dirichlet(cells + 0.5, n_draws)
        d = draws[:, 1] - draws[:, 2]
        lo, hi = np.quantile(d, [0.025, 0.975])
        sd = d.std()
        # a quantile's standard error: √(q(1 − q)/n)/f(x), f the normal density there
        mc = math.sqrt(0.025 * 0.975 / n_draws) / (stats.norm.pdf(Z95) / sd)
        half = (hi - lo) / 2
        if side == "meets":
            assert half <= 0.02 + 4 * mc
        else:
            assert half > 0.02 - 4 * mc
        assert half == pytest.approx(_half_width(cells.astype(int)), abs=4 * mc)


def test_the_normal_approximation_at_large_n():
    for accuracy, rho in (((0.85, 0.80), 0.5), ((0.9, 0.88), 0.0), ((0.75, 0.75), 0.6)):
        plan = plan_comparison_size(accuracy, correlation=rho, half_width=0.01)
        _, p10, p01, _ = _shares(*accuracy, rho)
        normal = Z95**2 * (p10 + p01 - (p10 - p01) ** 2) / 0.01**2
        assert plan.N == pytest.approx(normal, rel=0.02)


def test_correlated_errors_need_fewer_items():
    independent = plan_comparison_size((0.85, 0.80), correlation=0.0, half_width=0.02)
    paired = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02)
    _, p10, p01, _ = _shares(0.85, 0.80, 0.0)
    _, q10, q01, _ = _shares(0.85, 0.80, 0.5)
    ratio = (q10 + q01 - (q10 - q01) ** 2) / (p10 + p01 - (p10 - p01) ** 2)  # 0.52 by the normal limit
    assert paired.N < independent.N
    assert paired.N / independent.N == pytest.approx(ratio, rel=0.02)


def test_the_library_comparison_reports_the_planned_interval():
    """compare_paired_cells (its draws) at the planned cells, all items one class, within its Monte Carlo error."""
    plan = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02)
    reported = cl.compare_paired_cells([list(plan.cells), [0, 0, 0, 0]], "accuracy").interval(0.95)
    assert reported == pytest.approx(plan.interval(0.95), abs=5e-4)
    assert plan.distribution().interval(0.95) == reported


def test_clustered_plan_is_the_design_effect_times_n():
    plain = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02)
    plan = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.02, icc=0.1, cluster_size=10)
    rows = math.ceil(1.9 * plain.N - 1e-9)
    clusters = math.ceil(rows / 10 - 1e-9)
    assert plan.N == plain.N and plan.design_effect == pytest.approx(1.9)
    assert (plan.N_clustered, plan.n_clusters) == (max(rows, clusters * 10), clusters)
    assert "265 clusters" in plan.summary() and plain.N_clustered is None


def test_result_protocol_pieces():
    plan = plan_comparison_size((0.85, 0.80), correlation=0.5, half_width=0.05)
    assert isinstance(plan, ComparisonSizePlan) and plan.target == "true_value"
    frame = plan.to_frame()
    assert frame.query("planned")["N"].tolist() == [plan.N] and bool(frame.query("planned")["reached"].all())
    assert "<!DOCTYPE html>" in plan.to_html() and f"N = {plan.N:,}" in plan.summary()


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"accuracy": (0.85, 0.80), "correlation": 0.9}, "correlation"),
        ({"accuracy": (0.85, 0.80), "correlation": -0.5}, "correlation"),
        ({"accuracy": (0.85, 0.80), "correlation": float("nan")}, "correlation"),
        ({"accuracy": (0.85, 0.80), "correlation": "0.5"}, "correlation"),
        ({"accuracy": (1.0, 0.80), "correlation": 0.0}, "accuracy"),
        ({"accuracy": (0.85, 0.0), "correlation": 0.0}, "accuracy"),
        ({"accuracy": (0.85, float("nan")), "correlation": 0.0}, "accuracy"),
        ({"accuracy": 0.85, "correlation": 0.0}, "accuracy"),
        ({"accuracy": (0.85, 0.8, 0.7), "correlation": 0.0}, "accuracy"),
        ({"accuracy": "ab", "correlation": 0.0}, "accuracy"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "half_width": 0}, "half_width"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "half_width": -0.1}, "half_width"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "half_width": float("nan")}, "half_width"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "icc": 0.1}, "cluster_size"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "cluster_size": 10}, "icc"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "icc": 1.5, "cluster_size": 10}, "icc"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "target": "next_test_set"}, "target"),
        ({"accuracy": (0.85, 0.80), "correlation": 0.0, "confidence": 1.0}, "confidence"),
    ],
)
def test_refusals_name_the_argument(kwargs, name):
    kwargs = {"half_width": 0.05, **kwargs}
    with pytest.raises(cl.InvalidParameterError, match=name):
        plan_comparison_size(**kwargs)


def test_a_negative_cell_is_refused_with_the_feasible_range():
    # errors 0.15 and 0.2: both wrong is at most 0.15, so ρ ≤ (0.15 − 0.03)/√(0.15·0.85·0.2·0.8) = 0.8402
    with pytest.raises(cl.InvalidParameterError, match=r"correlation=0\.9 .*\[-0\.21, 0\.8402\]"):
        plan_comparison_size((0.85, 0.80), correlation=0.9, half_width=0.05)


def test_the_edge_of_the_range_is_planned():
    """ρ at its largest with equal accuracies: the classifiers never disagree, yet the prior keeps a width."""
    lo, hi = -0.15 * 0.15 / (0.15 * 0.85), 1.0
    plan = plan_comparison_size((0.85, 0.85), correlation=hi, half_width=0.05)
    assert plan.cells[1] == plan.cells[2] == 0 and plan.value == 0
    assert plan_comparison_size((0.85, 0.85), correlation=lo, half_width=0.05).cells[0] >= 0


def test_an_unreachable_goal_says_so():
    with pytest.raises(TargetUnreachableError):
        plan_comparison_size((0.85, 0.80), correlation=0.0, half_width=0.001, max_size=1000)
