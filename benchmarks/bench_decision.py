"""decision_curve with intervals and P(useful) at 10**6 risks × 3 models × 99 thresholds, against scikit-learn's
roc_curve of the three vectors and dcurves.dca (point net benefits only), in the same run.

Risks of three models of one outcome (prevalence 0.2; fixed seed). ``decision`` times
``cl.decision_curve(y, {a, b, c}, thresholds=0.01..0.99)`` then ``.interval_arrays(0.95)`` (every model's
pointwise true-value interval at every threshold) and ``.prob_useful``; ``roc_curve`` times scikit-learn's
``roc_curve(y, r)`` of each of the three (no threshold grid, no interval); ``dcurves`` times
``dcurves.dca(data, "y", ["a", "b", "c"], thresholds=0.01..0.99)`` (point net benefits, no interval: one
pandas pass over the rows per threshold and model), run ``--dcurves-repeat`` times. Runs alternate; medians
are compared. Goals (SPEC G2): decision / roc_curve ≤ 2; dcurves / decision ≥ 20.

Usage::

    python benchmarks/bench_decision.py
    python benchmarks/bench_decision.py --risks 1000000 --repeat 5 --dcurves-repeat 1
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
import pandas as pd
import sklearn
from sklearn.metrics import roc_curve

import confusionlab as cl


def data(size: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    rng = np.random.default_rng(0)
    y = rng.uniform(size=size) < 0.2
    risks = {
        name: np.clip(0.2 + strength * (y - 0.2) + rng.normal(0, 0.12, size), 0.0, 1.0).round(4)
        for name, strength in (("a", 0.35), ("b", 0.25), ("c", 0.15))
    }
    return y, risks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--risks", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dcurves-repeat", type=int, default=1)
    args = parser.parse_args()
    import dcurves

    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
        f"dcurves {getattr(dcurves, '__version__', '1.1.7')}, pandas {pd.__version__}, {platform.machine()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    y, risks = data(args.risks)
    thresholds = np.arange(1, 100) / 100
    t_ours, t_roc = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        dc = cl.decision_curve(y, risks, thresholds=thresholds)
        dc.interval_arrays(0.95)
        dc.prob_useful  # noqa: B018 - computed on first access
        t_ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        for r in risks.values():
            roc_curve(y, r)
        t_roc.append(time.perf_counter() - start)
    frame = pd.DataFrame({"y": y, **risks})
    t_dca = []
    for _ in range(args.dcurves_repeat):
        start = time.perf_counter()
        ref = dcurves.dca(data=frame, outcome="y", modelnames=list(risks), thresholds=list(thresholds))
        t_dca.append(time.perf_counter() - start)
    worst = max(
        float(np.max(np.abs(ref[ref["model"] == m]["net_benefit"].to_numpy() - dc.net_benefit[m])))
        for m in [*risks, "all", "none"]
    )
    ours, roc, dca = (statistics.median(t) for t in (t_ours, t_roc, t_dca))
    print(
        f"{'risks':>10} {'models':>6} {'thresholds':>10} {'decision (s)':>12} {'roc_curve ×3 (s)':>16} "
        f"{'dcurves (s)':>11} {'decision/roc':>12} {'dcurves/decision':>16} {'max |ΔNB|':>10}"
    )
    print(
        f"{args.risks:>10,} {len(risks):>6} {thresholds.size:>10} {ours:>12.3f} {roc:>16.3f} {dca:>11.2f} "
        f"{ours / roc:>12.2f} {dca / ours:>16.1f} {worst:>10.1e}"
    )


if __name__ == "__main__":
    main()
