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
``auditing._WORKERS`` threads (min(4, CPUs)); ``--workers 1`` times it on one thread.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time

import numpy as np
import pandas as pd

from confusionlab.bias.auditing import AUDIT_METRICS, audit

_AUDIT = importlib.import_module("confusionlab.bias.auditing")  # the module (bias.audit may be the function)


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", nargs="+", type=float, default=[1e6, 1e7])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=None, help="threads judging groups (default: the audit's)")
    args = parser.parse_args()
    if args.workers is not None:
        _AUDIT._WORKERS = max(1, args.workers)
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
