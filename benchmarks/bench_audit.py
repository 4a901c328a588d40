"""Benchmark bias.audit against one pandas group-by count of the same columns (SPEC E4).

Usage::

    .venv/bin/python benchmarks/bench_audit.py --rows 1e6 1e7

For every size it generates one pandas DataFrame (string facets sex (2 values),
race (5), age band (4); binary int label and prediction) and times, in the same run:

* the baseline: ``df.groupby(["sex", "race", "age", "label", "pred"]).size()``,
  the one count every audit needs (pandas' own group-by, median of 3);
* ours: ``audit(..., facets=[sex, race, age], intersections=True)`` with every
  metric it can judge (17: CI, DPL, KL, JS, LP, TVD, KS, DPPL, DI, DCA, DCR, RD,
  DAR, DRR, SD, AD, TE), i.e. 11 single groups + 38 pairs = 49 groups × 17 = 833
  Bonferroni-simultaneous verdicts (median of 3), split into counting and the rest.

The goal is ours / baseline <= 3 at 1e7 rows. The audit judges its groups on up to
``auditing._judge._WORKERS`` threads (min(4, CPUs)); ``--workers 1`` times it on one thread.

``--groups G`` (issue 20) times instead an audit of one facet with G groups (200 rows each) and the
default metrics (DPPL, RD, SD, AD; the true value), against the code path before issue 20's
vectorisation put back by patching in the same run (the per-row quadrature of
``benchmarks/_old_bias_quadrature.py`` for DPPL, Monte Carlo draws for RD, SD, AD, no shared
pass over the rows); it prints both times, the ratio and the largest difference of interval ends::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_audit.py --groups 1000 --workers 1

``--baseline quadrature`` (issue 20's second pass) compares instead with the first vectorised quadrature
(commit 8b8600b, ``benchmarks/_old_bias_twobeta.py``: the composite rule with 140 nodes for every row and
both sides' tables) put back by patching in the same run, and reports process CPU time besides wall time
(the machine is shared)::

    PYTHONPATH=src .venv/bin/python benchmarks/bench_audit.py --groups 1000 --baseline quadrature --repeat 1
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

import numpy as np
import pandas as pd

from confusionlab.bias.auditing import AUDIT_METRICS, audit

_AUDIT = importlib.import_module("confusionlab.bias.auditing._judge")  # the module that judges the groups


def make(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    sex = rng.choice(np.array(["Female", "Male"]), n, p=[0.35, 0.65])
    race = rng.choice(np.array(["White", "Black", "Asian", "Native", "Other"]), n, p=[0.8, 0.1, 0.05, 0.03, 0.02])
    age = rng.choice(np.array(["<25", "25-44", "45-64", "65+"]), n, p=[0.2, 0.45, 0.3, 0.05])
    base = np.where(sex == "Female", 0.15, 0.3) + np.where(race == "White", 0.05, 0.0)
    label = (rng.random(n) < base).astype(np.int8)
    pred = np.where(rng.random(n) < 0.85, label, 1 - label).astype(np.int8)
    return pd.DataFrame({"sex": sex, "race": race, "age": age, "label": label, "pred": pred})


def timed(fn, repeat: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def timed_cpu(fn, repeat: int = 3) -> tuple[float, float, object]:
    """Median wall and process CPU seconds of ``fn`` and its last result."""
    walls, cpus, out = [], [], None
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), out


def against_first_quadrature(groups: int, repeat: int) -> None:
    """One facet of ``groups`` groups, default metrics: the first vectorised quadrature against the current one."""
    import contextlib
    import os
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    import _old_bias_twobeta as old

    evaluator = importlib.import_module("confusionlab.bias.evaluator")

    @contextlib.contextmanager
    def before():
        saved = _AUDIT.beta_pair_distributions, evaluator.beta_pair_distributions
        _AUDIT.beta_pair_distributions = evaluator.beta_pair_distributions = old.beta_pair_distributions
        try:
            yield
        finally:
            _AUDIT.beta_pair_distributions, evaluator.beta_pair_distributions = saved

    df = _groups_frame(groups)
    kw = dict(label="y", positive_values=[1], predicted="p", facets="zip", margin=0.05, progress=False)
    with before():
        w_old, c_old, a_old = timed_cpu(lambda: audit(df, **kw), repeat)
    w_new, c_new, a_new = timed_cpu(lambda: audit(df, **kw), repeat)
    f_old, f_new = a_old.to_frame(), a_new.to_frame()
    gap = float(np.nanmax(np.abs(f_old[["lower", "upper"]].to_numpy() - f_new[["lower", "upper"]].to_numpy())))
    same = int((f_old.verdict == f_new.verdict).sum())
    load = os.getloadavg()[0]
    print(f"{groups:,} groups x 4 metrics ({len(f_new):,} rows), load {load:.1f}, threads {_AUDIT._WORKERS}")
    print(f"  before (first quadrature): wall {w_old:.1f} s, CPU {c_old:.1f} s")
    print(f"  after:                     wall {w_new:.1f} s, CPU {c_new:.1f} s")
    print(f"  ratio after/before: wall {w_new / w_old:.3f}, CPU {c_new / c_old:.3f}; largest change of an interval "
          f"end {gap:.2g}; same verdict on {same:,} of {len(f_new):,} rows")  # fmt: skip


def _groups_frame(groups: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = 200 * groups
    code = rng.integers(0, groups, n)
    label = (rng.random(n) < 0.2 + 0.1 * (code % 3 == 0)).astype(np.int8)
    pred = np.where(rng.random(n) < 0.85, label, 1 - label).astype(np.int8)
    return pd.DataFrame({"zip": code.astype(str), "y": label, "p": pred})


def many_groups(groups: int, repeat: int) -> None:
    """One facet of ``groups`` groups, default metrics: the old per-row path against the current one."""
    import contextlib
    import os
    import sys

    sys.path.insert(0, os.path.dirname(__file__))
    import _old_bias_quadrature as old

    evaluator = importlib.import_module("confusionlab.bias.evaluator")
    uncertainty = importlib.import_module("confusionlab.bias.uncertainty")

    @contextlib.contextmanager
    def before():
        saved = (_AUDIT._true_values_together, evaluator.CONFUSION_RATES, uncertainty._two_rates_exact)
        _AUDIT._true_values_together = lambda *a, **k: None
        evaluator.CONFUSION_RATES = {}
        uncertainty._two_rates_exact = old._two_rates_exact
        try:
            yield
        finally:
            _AUDIT._true_values_together, evaluator.CONFUSION_RATES, uncertainty._two_rates_exact = saved

    df = _groups_frame(groups)
    kw = dict(label="y", positive_values=[1], predicted="p", facets="zip", margin=0.05, progress=False)
    with before():
        t_old, a_old = timed(lambda: audit(df, **kw), repeat)
    t_new, a_new = timed(lambda: audit(df, **kw), repeat)
    f_old, f_new = a_old.to_frame(), a_new.to_frame()
    gap = float(np.nanmax(np.abs(f_old[["lower", "upper"]].to_numpy() - f_new[["lower", "upper"]].to_numpy())))
    same = int((f_old.verdict == f_new.verdict).sum())
    print(f"{groups:,} groups x 4 metrics ({len(f_new):,} rows), load {os.getloadavg()[0]:.1f}: before {t_old:.1f} s, "
          f"after {t_new:.1f} s, ratio {t_new / t_old:.3f}; largest change of an interval end {gap:.4f}; "
          f"same verdict on {same:,} of {len(f_new):,} rows")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", nargs="+", type=float, default=[1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None, help="threads judging groups (default: the audit's)")
    parser.add_argument("--groups", type=int, default=None, help="time an audit of this many groups (issue 20)")
    parser.add_argument("--baseline", choices=["per-row", "quadrature"], default="per-row",
                        help="--groups against the per-row code or the first vectorised quadrature")  # fmt: skip
    args = parser.parse_args()
    if args.workers is not None:
        _AUDIT._WORKERS = max(1, args.workers)
    if args.groups is not None:
        (against_first_quadrature if args.baseline == "quadrature" else many_groups)(args.groups, args.repeat)
        return
    print(f"threads judging groups: {_AUDIT._WORKERS}")
    kw = dict(label="label", positive_values=[1], predicted="pred", facets=["sex", "race", "age"],
              intersections=True, metrics=list(AUDIT_METRICS), margin=0.05)  # fmt: skip
    print(f"{'rows':>10} {'group-by s':>11} {'audit s':>9} {'ratio':>7} {'count s':>8} {'verdicts':>9}")
    for rows in args.rows:
        n = int(rows)
        df = make(n)
        base, _ = timed(lambda df=df: df.groupby(["sex", "race", "age", "label", "pred"]).size(), args.repeat)
        ours, a = timed(lambda df=df: audit(df, **kw), args.repeat)
        count, _ = timed(
            lambda df=df: _AUDIT._count_pandas(df, ["sex", "race", "age"], [], "label", "pred", None), args.repeat
        )
        print(f"{n:>10,} {base:>11.3f} {ours:>9.3f} {ours / base:>7.2f} {count:>8.3f} {len(a):>9}")


if __name__ == "__main__":
    main()
