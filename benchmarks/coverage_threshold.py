"""Coverage of choose_threshold's statements by simulation, at the threshold chosen on the same data.

Two score models with known class distributions (the truth is computed here, from scipy's
distributions, not by the library):

* ``binormal``: negatives N(0, 1), positives N(1.5, 1);
* ``beta``: negatives Beta(2, 4), positives Beta(4, 2) — bounded and skewed, not binormal.

For each (model, N, prevalence, cost ratio) ``--reps`` test sets are drawn (seeded), the threshold
minimising the expected cost per example ``(cost_fp·FP + cost_fn·FN)/N`` is chosen on each, and
three statements are checked against the truth:

* ``after``: the after-selection interval (``interval()``, the default) holds the true expected cost
  at the chosen threshold, ``c_fp·(1 − π)·P(S ≥ t | neg) + c_fn·π·P(S < t | pos)``;
* ``plausible``: the plausible set holds the truly best threshold (its candidate: the smallest
  distinct score at or above it; "none positive" when it lies above every score), the best found
  on a fine grid of thresholds (and ±∞);
* ``pointwise``: the pointwise interval (``kind="pointwise"``, as if fixed in advance) holds the
  same true cost — expected to fall short, since the choice favours thresholds that did well by luck.

``--alternative`` measures instead, in five hard settings, the band the library did not take: a
max-statistic band over the Bayesian bootstrap (Dirichlet(1, …, 1) weights on the examples, 1,000
draws of the whole cost curve; the band is the empirical curve ± q·sd with q the 95 % quantile of
the largest standardised deviation over the candidates) beside the Kolmogorov–Smirnov band.

Each row prints the coverages (Monte Carlo standard error ≈ √(c(1 − c)/reps): 0.015 at c = 0.95
with 200 test sets), the mean widths of both intervals and the mean share of candidates that are
plausible. Usage::

    PYTHONPATH=src python benchmarks/coverage_threshold.py               # the table in RESULTS.md
    PYTHONPATH=src python benchmarks/coverage_threshold.py --reps 50     # a quick look
    PYTHONPATH=src python benchmarks/coverage_threshold.py --alternative --reps 150
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from scipy import stats

import confusionlab as cl

CONFIDENCE = 0.95
SIZES = (100, 500, 5000)
PREVALENCES = (0.05, 0.2, 0.5)
COST_RATIOS = (1.0, 9.0)  # cost_fn / cost_fp, cost_fp = 1
MODELS = {
    "binormal": (stats.norm(0.0, 1.0), stats.norm(1.5, 1.0)),
    "beta": (stats.beta(2, 4), stats.beta(4, 2)),
}


def true_cost(t: np.ndarray, model: str, prevalence: float, cost: tuple[float, float]) -> np.ndarray:
    """The expected cost per example at thresholds ``t`` (+inf: none positive; −inf: all positive)."""
    neg, pos = MODELS[model]
    return cost[0] * (1 - prevalence) * neg.sf(t) + cost[1] * prevalence * pos.cdf(t)


def best_threshold(model: str, prevalence: float, cost: tuple[float, float]) -> float:
    """The truly best threshold: the grid's best, refined by a bounded search around it."""
    neg, pos = MODELS[model]
    lo, hi = min(neg.ppf(1e-9), pos.ppf(1e-9)), max(neg.ppf(1 - 1e-9), pos.ppf(1 - 1e-9))
    grid = np.concatenate([[-np.inf], np.linspace(lo, hi, 200_001), [np.inf]])
    k = int(np.argmin(true_cost(grid, model, prevalence, cost)))
    if k in (0, grid.size - 1):
        return float(grid[k])
    from scipy.optimize import minimize_scalar

    found = minimize_scalar(
        lambda t: float(true_cost(np.array([t]), model, prevalence, cost)[0]),
        bounds=(grid[k - 1], grid[k + 1]),
        method="bounded",
        options={"xatol": 1e-12},
    )
    return float(found.x)


def one_setting(model: str, size: int, prevalence: float, ratio: float, reps: int, seed: int) -> dict:
    neg, pos = MODELS[model]
    cost = (1.0, ratio)
    t_star = best_threshold(model, prevalence, cost)
    rng = np.random.default_rng(seed)
    hits = {"after": 0, "plausible": 0, "pointwise": 0}
    widths = {"after": 0.0, "pointwise": 0.0}
    share = 0.0
    done = 0
    while done < reps:
        y = rng.uniform(size=size) < prevalence
        p = int(y.sum())
        if p == 0 or p == size:
            continue  # a test set with one class has no threshold to choose; drawn again
        s = np.where(y, pos.rvs(size=size, random_state=rng), neg.rvs(size=size, random_state=rng))
        choice = cl.choose_threshold(y, s, cost=cost, confidence=CONFIDENCE)
        truth = float(true_cost(np.array([choice.threshold]), model, prevalence, cost)[0])
        for kind in ("after", "pointwise"):
            lo, hi = choice.interval(CONFIDENCE, kind="after_selection" if kind == "after" else "pointwise")
            hits[kind] += lo <= truth <= hi
            widths[kind] += hi - lo
        hits["plausible"] += choice.is_plausible(t_star)
        share += choice.plausible_thresholds.size / choice.candidates.size
        done += 1
    return {
        **{k: v / reps for k, v in hits.items()},
        **{f"width_{k}": v / reps for k, v in widths.items()},
        "share": share / reps,
        "t_star": t_star,
    }


ALTERNATIVE_SETTINGS = (
    ("binormal", 100, 0.05, 9.0),
    ("binormal", 100, 0.5, 1.0),
    ("binormal", 500, 0.2, 9.0),
    ("beta", 100, 0.2, 9.0),
    ("beta", 500, 0.05, 9.0),
)


def maxstat_interval(choice: cl.ThresholdChoice, y: np.ndarray, s: np.ndarray, rng: np.random.Generator) -> tuple:
    """The Bayesian-bootstrap max-statistic band at the chosen candidate (1,000 draws of the cost curve)."""
    draws, cost = 1000, choice.cost
    order = np.argsort(s, kind="stable")
    ys, ss = y[order], s[order]
    weights = rng.dirichlet(np.ones(s.size), draws)
    starts = np.searchsorted(ss, choice.candidates[:-1], side="left")
    neg_above = np.cumsum((weights * ~ys)[:, ::-1], axis=1)[:, ::-1][:, starts]
    pos_above = np.cumsum((weights * ys)[:, ::-1], axis=1)[:, ::-1][:, starts]
    zero = np.zeros((draws, 1))
    fp = np.concatenate([neg_above, zero], axis=1)
    fn = (weights * ys).sum(axis=1)[:, None] - np.concatenate([pos_above, zero], axis=1)
    curves = cost[0] * fp + cost[1] * fn
    value = choice.candidate_values
    sd = np.maximum(curves.std(axis=0), 1e-12)
    q = np.quantile(np.max(np.abs(curves - value) / sd, axis=1), CONFIDENCE)
    k = choice.index
    return value[k] - q * sd[k], value[k] + q * sd[k]


def alternative(reps: int, seed: int) -> None:
    print(
        f"{reps} test sets per row, {CONFIDENCE:.0%} nominal: coverage of the chosen threshold's true cost, mean width"
    )
    print(f"{'model':>8} {'N':>5} {'prev':>5} {'c_fn/c_fp':>9} {'KS':>6} {'w_KS':>7} {'maxstat':>7} {'w_max':>7}")
    for k, (model, size, prevalence, ratio) in enumerate(ALTERNATIVE_SETTINGS):
        neg, pos = MODELS[model]
        cost = (1.0, ratio)
        rng = np.random.default_rng(seed + k)
        hits, widths, done = np.zeros(2), np.zeros(2), 0
        while done < reps:
            y = rng.uniform(size=size) < prevalence
            if y.sum() in (0, size):
                continue
            s = np.where(y, pos.rvs(size=size, random_state=rng), neg.rvs(size=size, random_state=rng))
            choice = cl.choose_threshold(y, s, cost=cost)
            truth = float(true_cost(np.array([choice.threshold]), model, prevalence, cost)[0])
            for j, (lo, hi) in enumerate((choice.interval(CONFIDENCE), maxstat_interval(choice, y, s, rng))):
                hits[j] += lo <= truth <= hi
                widths[j] += hi - lo
            done += 1
        h, w = hits / reps, widths / reps
        print(
            f"{model:>8} {size:>5} {prevalence:>5.2f} {ratio:>9.0f} {h[0]:>6.3f} {w[0]:>7.3f} {h[1]:>7.3f} {w[1]:>7.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reps", type=int, default=200, help="test sets per setting (default 200)")
    parser.add_argument("--seed", type=int, default=20261207)
    parser.add_argument("--alternative", action="store_true", help="the max-statistic band beside the KS band")
    args = parser.parse_args()
    if args.alternative:
        alternative(args.reps, args.seed)
        return
    settings = [(m, n, pi, r) for m in MODELS for n in SIZES for pi in PREVALENCES for r in COST_RATIOS]
    header = (
        f"{'model':>8} {'N':>5} {'prev':>5} {'c_fn/c_fp':>9} {'t*':>7} {'after':>6} {'plaus.':>6} "
        f"{'pointw.':>7} {'w_after':>8} {'w_point':>8} {'share':>6}"
    )
    rows = []
    start = time.perf_counter()
    for k, (model, size, prevalence, ratio) in enumerate(settings):
        r = one_setting(model, size, prevalence, ratio, args.reps, args.seed + k)
        rows.append(
            f"{model:>8} {size:>5} {prevalence:>5.2f} {ratio:>9.0f} {r['t_star']:>7.3f} {r['after']:>6.3f} "
            f"{r['plausible']:>6.3f} {r['pointwise']:>7.3f} {r['width_after']:>8.4f} {r['width_pointwise']:>8.4f} "
            f"{r['share']:>6.2f}"
        )
        elapsed = time.perf_counter() - start
        print(f"\r{k + 1}/{len(settings)} settings, {elapsed:.0f} s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(
        f"{args.reps} test sets per row, {CONFIDENCE:.0%} nominal; after = after-selection interval, "
        "plaus. = plausible set holds t*, pointw. = pointwise interval at the chosen threshold"
    )
    print(header)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
