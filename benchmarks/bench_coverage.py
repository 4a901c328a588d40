"""Coverage of the 95 % true-value interval, by simulation, per prior.

The question a user reads into ``target="true_value"``: does the interval contain the metric's
true value 95 % of the time? A Bayesian interval need not, but this measures how far it is from
doing so, for the priors ``evaluate`` and ``metric_distribution`` accept.

Binary metrics (accuracy, balanced accuracy, F1, MCC): a test set of N objects has
``p = round(N·prevalence)`` positives and ``n = N − p`` negatives (the prevalence is fixed, as
``target="true_value"`` fixes it at the observed p/N), TP ~ Binomial(p, TPR), TN ~ Binomial(n, TNR)
independently, and the interval is ``metric_distribution(cm, metric, target="true_value",
prior=prior).interval(0.95)``. The true value is the metric of the *expected* confusion matrix
at the true rates and these p, n — (p·TPR, p·(1 − TPR), n·(1 − TNR), n·TNR) — which is what
``target="true_value"`` estimates (its posterior is the metric at (p·TPR, …, n·TNR) with the
rates drawn from their Beta posteriors). Accuracy and balanced accuracy are linear in the
rates, so this is also their expectation; for F1 and MCC (ratios) it is the population value at
this prevalence, not the mean of the metric over test sets. The truth is computed here from the
textbook formulas, not by the library.

When the outcomes (TP, TN) with marginal tails of mass ≤ 1e-4 each trimmed number at most
300 (or ``--reps``, if larger; ``--reps`` alone with ``--quick``), the coverage is exact: every
outcome weighted by its binomial probability, normalised over the retained mass (≥ 0.9996);
column ``outcomes`` says "exact". Otherwise ``--reps`` outcomes are drawn (seeded) and the
coverage c has the Monte Carlo standard error √(c(1 − c)/reps) (0.024 at c = 0.95, 80 draws).

Macro-F1 on three classes: fixed class counts ``round(N·π)`` (π balanced, or 0.45/0.45/0.1),
each true class's predictions Multinomial(n_i, θ_i) with θ_i = a on the diagonal and (1 − a)/2
off it; the interval is ``evaluate(y_true, y_pred, target="true_value", prior=prior,
metrics=["macro_f1"]).interval(0.95)["macro_f1"]`` (20,000 Monte Carlo draws, the default); the
true value is the macro-F1 of the expected table (n_i·θ_i), F1_c = 2·T_cc / (row_c + column_c).
Always ``--reps`` simulated test sets.

The same simulated test sets serve every prior (common random numbers), so the priors'
differences are sharper than their standard errors suggest.

Usage::

    PYTHONPATH=src python benchmarks/bench_coverage.py            # the table in RESULTS.md
    PYTHONPATH=src python benchmarks/bench_coverage.py --quick    # N = 30, 300; fewer repetitions
"""

from __future__ import annotations

import argparse
import math
import os
import time

import numpy as np
from scipy import stats

from confusionlab import ConfusionMatrix, evaluate, metric_distribution

BINARY_METRICS = ("accuracy", "balanced_accuracy", "f1", "mcc")
PRIORS: tuple[object, ...] = ("uniform", "jeffreys", 1 / 3, 0.1)
MODELS = {"accurate": 0.95, "inaccurate": 0.7}
CONFIDENCE = 0.95
TRIM = 1e-4
#: Outcome grids up to this many cells (or ``--reps``, if larger) are enumerated exactly.
EXACT_LIMIT = 300


def true_binary(metric: str, p: int, n: int, tpr: float, tnr: float) -> float:
    """The metric of the expected confusion matrix (p·TPR, p·(1 − TPR), n·(1 − TNR), n·TNR)."""
    tp, fn, fp, tn = p * tpr, p * (1 - tpr), n * (1 - tnr), n * tnr
    if metric == "accuracy":
        return (tp + tn) / (p + n)
    if metric == "balanced_accuracy":
        return (tpr + tnr) / 2
    if metric == "f1":
        return 2 * tp / (2 * tp + fp + fn)
    if metric == "mcc":
        return (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    raise KeyError(metric)


def binary_outcomes(
    p: int, n: int, tpr: float, tnr: float, reps: int, rng: np.random.Generator, exact_limit: int = EXACT_LIMIT
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Distinct outcomes (TP, TN) as an (m, 2) array, their weights, and whether exact."""
    tp_lo, tp_hi = int(stats.binom.ppf(TRIM, p, tpr)), int(stats.binom.isf(TRIM, p, tpr))
    tn_lo, tn_hi = int(stats.binom.ppf(TRIM, n, tnr)), int(stats.binom.isf(TRIM, n, tnr))
    tps, tns = np.arange(tp_lo, tp_hi + 1), np.arange(tn_lo, tn_hi + 1)
    if tps.size * tns.size <= max(reps, exact_limit):
        grid = np.array([(a, b) for a in tps for b in tns])
        w = stats.binom.pmf(grid[:, 0], p, tpr) * stats.binom.pmf(grid[:, 1], n, tnr)
        return grid, w / w.sum(), True
    draws = np.column_stack([rng.binomial(p, tpr, reps), rng.binomial(n, tnr, reps)])
    grid, counts = np.unique(draws, axis=0, return_counts=True)
    return grid, counts / reps, False


def binary_rows(sizes: list[int], reps: int, exact_limit: int = EXACT_LIMIT) -> list[dict[str, object]]:
    rows = []
    for prevalence in (0.5, 0.1):
        for model, rate in MODELS.items():
            for N in sizes:
                p = round(N * prevalence)
                n = N - p
                rng = np.random.default_rng([N, int(prevalence * 100), int(rate * 100)])
                grid, w, exact = binary_outcomes(p, n, rate, rate, reps, rng, exact_limit)
                truth = {m: true_binary(m, p, n, rate, rate) for m in BINARY_METRICS}
                covered = {(m, str(pr)): 0.0 for m in BINARY_METRICS for pr in PRIORS}
                for (tp, tn), weight in zip(grid, w, strict=True):
                    cm = ConfusionMatrix(tp=int(tp), fn=int(p - tp), fp=int(n - tn), tn=int(tn))
                    for prior in PRIORS:
                        for m in BINARY_METRICS:
                            lo, hi = metric_distribution(cm, m, target="true_value", prior=prior).interval(CONFIDENCE)
                            covered[m, str(prior)] += weight * (lo <= truth[m] <= hi)
                for m in BINARY_METRICS:
                    rows.append(
                        {
                            "metric": m,
                            "prevalence": prevalence,
                            "model": model,
                            "N": N,
                            "outcomes": "exact" if exact else f"{reps} draws",
                            **{str(pr): covered[m, str(pr)] for pr in PRIORS},
                        }
                    )
    return rows


def macro_truth(table: np.ndarray) -> float:
    """Macro-F1 of a (real-valued) K × K table: mean of 2·T_cc / (row_c + column_c)."""
    diag = np.diag(table)
    return float(np.mean(2 * diag / (table.sum(axis=1) + table.sum(axis=0))))


def macro_rows(sizes: list[int], reps: int) -> list[dict[str, object]]:
    rows = []
    for shares, label in (((1 / 3, 1 / 3, 1 / 3), "1/3 each"), ((0.45, 0.45, 0.1), "0.45/0.45/0.1")):
        for model, a in MODELS.items():
            theta = np.full((3, 3), (1 - a) / 2)
            np.fill_diagonal(theta, a)
            for N in sizes:
                counts = np.floor(np.array(shares) * N + 0.5).astype(int)
                counts[0] += N - counts.sum()
                truth = macro_truth(counts[:, None] * theta)
                rng = np.random.default_rng([N, len(label), int(a * 100)])
                tables = np.stack([[rng.multinomial(c, theta[i]) for i, c in enumerate(counts)] for _ in range(reps)])
                distinct, weights = np.unique(tables.reshape(reps, 9), axis=0, return_counts=True)
                covered = dict.fromkeys(map(str, PRIORS), 0.0)
                for flat, weight in zip(distinct, weights, strict=True):
                    table = flat.reshape(3, 3)
                    y_true = np.repeat(np.repeat(np.arange(3), 3), flat)
                    y_pred = np.repeat(np.tile(np.arange(3), 3), flat)
                    assert (np.bincount(y_true, minlength=3) == table.sum(axis=1)).all()
                    for prior in PRIORS:
                        ev = evaluate(y_true, y_pred, target="true_value", prior=prior, metrics=["macro_f1"])
                        lo, hi = ev.interval(CONFIDENCE)["macro_f1"]
                        covered[str(prior)] += weight / reps * (lo <= truth <= hi)
                rows.append(
                    {
                        "metric": "macro_f1 (3 classes)",
                        "prevalence": label,
                        "model": model,
                        "N": N,
                        "outcomes": f"{reps} draws",
                        **covered,
                    }
                )
    return rows


def table(rows: list[dict[str, object]]) -> str:
    """A markdown table; cells below 0.925 (more than 2.5 points short of 95 %) in bold."""
    priors = [str(pr) for pr in PRIORS]
    names = [p if isinstance(pr, str) else f"{pr:.3g}" for p, pr in zip(priors, PRIORS, strict=True)]
    head = "| metric | prevalence | model | N | outcomes | " + " | ".join(f"prior {p}" for p in names) + " |"
    lines = [head, "|" + "---|" * 5 + "---:|" * len(priors)]
    for r in rows:
        cells = []
        for p in priors:
            c = float(r[p])  # type: ignore[arg-type]
            text = f"{c:.3f}"
            cells.append(f"**{text}**" if c < 0.925 else text)
        lines.append(
            f"| {r['metric']} | {r['prevalence']} | {r['model']} | {r['N']:,} | {r['outcomes']} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="N = 30 and 300 only, 40 repetitions")
    parser.add_argument("--reps", type=int, default=None, help="outcomes per cell (default 80; 40 with --quick)")
    parser.add_argument(
        "--macro-reps", type=int, default=None, help="3-class test sets per cell (default 100; 40 with --quick)"
    )
    args = parser.parse_args()
    sizes = [30, 300] if args.quick else [30, 100, 300, 1000]
    reps = args.reps or (40 if args.quick else 80)
    macro_reps = args.macro_reps or (40 if args.quick else 100)
    start, load = time.perf_counter(), os.getloadavg()
    rows = binary_rows(sizes, reps, 0 if args.quick else EXACT_LIMIT)
    t_binary = time.perf_counter() - start
    rows += macro_rows(sizes, macro_reps)
    elapsed = time.perf_counter() - start
    print(table(rows))
    print(
        f"\n{elapsed:.0f} s ({t_binary:.0f} s binary), {os.cpu_count()} cores, load average "
        f"{load[0]:.1f} before, {os.getloadavg()[0]:.1f} after; reps {reps}, macro reps {macro_reps}"
    )


if __name__ == "__main__":
    main()
