"""The exact consistency band at 10**6 forecasts and 20 bins vs scikit-learn's calibration_curve alone.

Forecasts q ~ Beta(2, 3), outcomes y ~ Bernoulli(q) (fixed seed). ``band`` times
``cl.calibration(y, q, bins=20)`` and ``.band(0.95)``: the quantile bins (as
calibration_curve), each bin's exact Poisson-binomial PMF of 50,000 forecasts by
divide-and-conquer convolution, and the Šidák-simultaneous central intervals.
``calibration_curve`` times scikit-learn's ``calibration_curve(y, q, n_bins=20,
strategy="quantile")``, which gives the points without any band. Runs alternate and
medians are compared; ratio = band / calibration_curve, measured in the same run. The
ECE's bootstrap interval (``.interval()``, 2,000 resamples) and the p-value
(``.p_value()``, 10,000 draws) are timed once each, for the record; ``--pair-by-pair`` also
times the bootstrap drawn pair by pair (the exact stratified bootstrap the interval approximates).

Usage::

    python benchmarks/bench_calibration.py
    python benchmarks/bench_calibration.py --forecasts 1000000 --bins 20 --repeat 5 --pair-by-pair
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
import sklearn
from sklearn.calibration import calibration_curve

import confusionlab as cl
from confusionlab.calibration._ece import bootstrap, percentile_interval


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--forecasts", type=int, default=1_000_000)
    parser.add_argument("--bins", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--pair-by-pair", action="store_true", help="also time the bootstrap drawn pair by pair (slow: ≈ 25 s)"
    )
    args = parser.parse_args()
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, scikit-learn {sklearn.__version__}, "
        f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    rng = np.random.default_rng(0)
    q = rng.beta(2, 3, size=args.forecasts)
    y = rng.uniform(size=q.size) < q
    t_band, t_curve = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        cal = cl.calibration(y, q, bins=args.bins, random_state=0)
        band = cal.band(0.95)
        t_band.append(time.perf_counter() - start)
        start = time.perf_counter()
        prob_true, prob_pred = calibration_curve(y, q, n_bins=args.bins, strategy="quantile")
        t_curve.append(time.perf_counter() - start)
    assert np.allclose(cal.observed_frequency, prob_true) and np.allclose(cal.mean_forecast, prob_pred)
    b, c = statistics.median(t_band), statistics.median(t_curve)
    print(f"{'forecasts':>10s} {'bins':>5s} {'band s':>8s} {'curve s':>8s} {'ratio':>6s} {'outside':>8s} {'error':>8s}")
    outside = int(band.outside.sum())
    print(f"{args.forecasts:10,d} {args.bins:5d} {b:8.3f} {c:8.3f} {b / c:6.2f} {outside:8d} {band.error_bound:8.1e}")
    start = time.perf_counter()
    lo, hi = cal.interval()
    t_interval = time.perf_counter() - start
    start = time.perf_counter()
    test = cal.p_value()
    t_test = time.perf_counter() - start
    err = cal.bootstrap_error
    print(
        f"ECE {cal.value:.5f}, interval [{lo:.5f}, {hi:.5f}] in {t_interval:.2f} s "
        f"({err.normal_bins} bins by sums, Wasserstein bound {err.ece_error:.1e}); "
        f"p = {test.p_value:.3f} ± {test.mc_error:.3f} in {t_test:.2f} s"
    )
    if args.pair_by_pair:
        start = time.perf_counter()
        draws = bootstrap(cal._bins, cal.n_resamples, np.random.default_rng(1), exact_max=10**12, exact_budget=10**15)
        lo2, hi2 = percentile_interval(draws.ece, 0.95)
        print(f"pair by pair: interval [{lo2:.5f}, {hi2:.5f}] in {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
