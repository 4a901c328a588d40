"""CDDL's interval with thousands of subgroups, and the KL family on many label values (issue 20, defect 4).

Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_bias_cdd.py [--rows 200000] [--groups 5000] [--old-draws 2000]

Same data, same run: ``bias.report(df, ..., group="zip")`` with ``--groups`` subgroups,
then ``r["CDDL"].interval(0.95)``, timed

* new: the library's path (past :data:`~confusionlab.bias.uncertainty.CDD_MC_BUDGET`
  subgroup × draw pairs, the normal distribution with the exact mean and variance of the
  sum over subgroups; deterministic);
* old: the Monte Carlo path of earlier releases (Dirichlet-multinomial draws of every
  subgroup), forced by raising the budget, at ``--old-draws`` draws and scaled linearly to
  the default 20,000 draws (its cost is linear in the draws; pass ``--old-draws 20000`` to
  time it in full, ≈ minutes).

It prints both times, their ratio, and how far apart the two intervals are (the Monte
Carlo one at ``--old-draws`` draws has its own error, printed too). Then the KL family with
``kl_labels="values"`` per label value, for both targets.

``--draws`` (issue 21) times instead the Dirichlet-multinomial draws themselves, the sampler before (a numpy
loop of conditional binomials over the cells, ``benchmarks/_old_bias_draws.py``) against the current one
(one ``Generator.multinomial`` call) in the same run, on the two Monte Carlo paths that were slow: CDDL
below the budget (250 subgroups × 4 cells, 20,000 draws) and the KL family with ``kl_labels="values"``
(2 facets × 10 / 100 / 400 label values), with process CPU time (the machine is shared)::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_bias_cdd.py --draws
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

from confusionlab import bias
from confusionlab.bias import uncertainty


def frame(rows: int, groups: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    zip_code = rng.integers(0, groups, rows)
    sex = rng.random(rows) < 0.35
    y = rng.random(rows) < np.where(sex, 0.2, 0.3) + 0.1 * (zip_code % 3 == 0)
    return pd.DataFrame({"y": y.astype(int), "sex": np.where(sex, "F", "M"), "zip": zip_code})


def cddl(df: pd.DataFrame, **kw) -> tuple[float, tuple[float, float], str, float]:
    r = bias.report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"], group="zip", stage="pre",
                    progress=False, **kw)  # fmt: skip
    start = time.perf_counter()
    m = r["CDDL"]
    interval = m.interval(0.95)
    return time.perf_counter() - start, interval, m.distribution.strategy, m.mc_error(0.95)


def draws() -> None:
    """The sampler before and after, same inputs, process CPU time (median of 3)."""
    import os
    import statistics
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    import _old_bias_draws as old

    rng = np.random.default_rng(0)
    cases = [("CDDL, 250 subgroups x 4 cells, n_i = 40", rng.multinomial(40, [0.4, 0.1, 0.3, 0.2], size=250))]
    for k in (10, 100, 400):
        cases.append(
            (f"KL values, 2 facets x {k} label values, n = 50,000", rng.multinomial(50_000, np.full(k, 1 / k), 2))
        )
    print(f"load {os.getloadavg()[0]:.1f}, 20,000 draws, process CPU seconds (median of 3)")
    print(f"{'case':<48} {'before':>8} {'after':>8} {'ratio':>7}")
    for label, flat in cases:
        n = flat.sum(axis=-1)
        times = {}
        for name, fn in (("before", old._draw), ("after", uncertainty._draw)):
            took = []
            for _ in range(3):
                start = time.process_time()
                fn(np.random.default_rng(1), flat, n, 20_000, 1.0)
                took.append(time.process_time() - start)
            times[name] = statistics.median(took)
        print(f"{label:<48} {times['before']:>8.3f} {times['after']:>8.3f} {times['after'] / times['before']:>7.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=200_000)
    ap.add_argument("--groups", type=int, default=5000)
    ap.add_argument("--old-draws", type=int, default=2000)
    ap.add_argument("--draws", action="store_true", help="time the Dirichlet-multinomial sampler before/after")
    args = ap.parse_args()
    if args.draws:
        draws()
        return
    df = frame(int(args.rows), args.groups)
    print(f"{len(df):,} rows, {df.zip.nunique():,} subgroups")
    for target in ("next_test_set", "true_value"):
        t_new, i_new, how, _ = cddl(df, target=target)
        budget = uncertainty.CDD_MC_BUDGET
        uncertainty.CDD_MC_BUDGET = 10**15  # the old path: Monte Carlo whatever the number of subgroups
        try:
            t_old, i_old, how_old, err_old = cddl(df, target=target, n_draws=args.old_draws)
        finally:
            uncertainty.CDD_MC_BUDGET = budget
        scaled = t_old * 20_000 / args.old_draws
        print(f"[{target}] new: {t_new:.2f} s, {how}: [{i_new[0]:.5f}, {i_new[1]:.5f}]")
        print(f"[{target}] old: {t_old:.2f} s at {args.old_draws:,} draws ({how_old}) → {scaled:.1f} s at 20,000 "
              f"draws: [{i_old[0]:.5f}, {i_old[1]:.5f}] (its Monte Carlo error ±{err_old:.2g})")  # fmt: skip
        print(f"[{target}] ratio old/new at 20,000 draws: {scaled / t_new:.0f}×; interval ends differ by "
              f"{max(abs(i_new[0] - i_old[0]), abs(i_new[1] - i_old[1])):.2g}")  # fmt: skip
    rng = np.random.default_rng(1)
    for values in (10, 100, 400):
        d = pd.DataFrame({"y": rng.integers(0, values, 100_000), "sex": np.where(rng.random(100_000) < 0.4, "F", "M")})
        for target in ("next_test_set", "true_value"):
            r = bias.report(d, label="y", positive_values=[0], facet="sex", facet_values=["F"], stage="pre",
                            kl_labels="values", target=target, progress=False)  # fmt: skip
            start = time.perf_counter()
            r["KL"].interval(0.95)
            took = time.perf_counter() - start
            print(f"KL, kl_labels='values', {values} label values, {target}: {took:.2f} s "
                  f"({1000 * took / values:.1f} ms per label value)")  # fmt: skip


if __name__ == "__main__":
    main()
