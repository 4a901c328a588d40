"""Scores: the AUC with its DeLong interval, the exact null distribution and the band, each
against a baseline measured in the same run.

* ``auc``: ``cl.roc_curve(y, s)`` then ``.value`` and ``.interval()`` (DeLong, logit scale) on
  10**7 binormal scores (AUC ≈ 0.76, continuous: few ties) against scikit-learn's
  ``roc_auc_score(y, s)`` alone. Goal: ratio ≤ 0.2.
* ``null``: ``.null_distribution()`` (the whole distribution) at 200 + 200 examples with ties
  (scores rounded to one decimal: ≈ 50 tie blocks) against scipy's exact Mann–Whitney without
  ties at 200 + 200 (``mannwhitneyu(method="exact")``; scipy has no exact method with ties) on
  scores without discrimination. scipy counts the distribution only up to the observed
  min(U, pn − U) (here near pn/2, so about half of it) and caches it per size in a
  thread-local; the cache is emptied before each of its runs, so each run counts from
  scratch, as ours does. Goal: ratio ≤ 0.3.
* ``null-unequal``: the same at 180 + 220 (against scipy at 180 + 220): with ``p ≠ n`` the
  distribution is not symmetric and the whole of it is counted (with ``p = n`` only its lower
  half, mirrored).
* ``pvalue``: ``.p_value("two-sided")`` (exact; it counts only the tail it needs, cut where a
  cell can no longer end in it) at 200 + 200 with ties (one decimal, no discrimination: the
  observed U near pn/2, as scipy's side) against the same scipy baseline — like for like, since
  scipy's exact method also counts only up to the observed U. ``--pvalue-shift`` moves our
  observed U into a tail (scipy's side stays at pn/2).
* ``band``: ``.band()`` (Campbell's simultaneous band, exact KS quantiles) on 10**6 scores
  against scikit-learn's ``roc_curve(y, s)`` (the curve alone) at the same size.

Runs alternate and medians are compared (ratio = ours / baseline). BLAS runs on one thread
(``--threads``, threadpoolctl): on this shared 2-core machine OpenBLAS's threads make scipy's
exact Mann–Whitney (a loop of dot products) take anything from 0.12 to 7 s from run to run,
against a steady 0.13 s on one thread.

``--browser`` measures instead the RocView's redraw after a threshold change at 10**5 scores in
JupyterLab + headless Chromium (the browser-test harness), on the browser's clock: from the
slider's ``input`` event to the view's DOM carrying the new index (``data-index``, set at the
end of the redraw), and to the next animation frame; and the linked RocSlice's round trip
through the kernel (to its new ``data-tp``). Goal: ≤ 100 ms median.

Usage::

    python benchmarks/bench_scores.py                 # all five
    python benchmarks/bench_scores.py --only null pvalue --repeat 7
    python benchmarks/bench_scores.py --clock cpu      # CPU time: steadier on a loaded machine
    python benchmarks/bench_scores.py --browser --moves 41
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

import numpy as np
import scipy
import sklearn
from scipy.stats import _mannwhitneyu, mannwhitneyu
from sklearn.metrics import roc_auc_score, roc_curve

import confusionlab as cl


def binormal(size: int, shift: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    y = rng.integers(0, 2, size)
    return y, rng.normal(shift * y, 1.0)


#: The clock of :func:`alternate` (``--clock``): wall time, or this process's CPU time (steadier on
#: a shared machine; every side measured runs on one thread).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def alternate(ours: Callable[[], object], baseline: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median seconds of ``ours`` and ``baseline``, run alternately ``repeat`` times each."""
    t_ours, t_base = [], []
    clock = CLOCK[0]
    for _ in range(repeat):
        start = clock()
        ours()
        t_ours.append(clock() - start)
        start = clock()
        baseline()
        t_base.append(clock() - start)
    return statistics.median(t_ours), statistics.median(t_base)


def bench_auc(size: int, repeat: int) -> tuple[float, float, str]:
    y, s = binormal(size, 1.0, np.random.default_rng(0))

    def ours() -> None:
        curve = cl.roc_curve(y, s)
        curve.interval()

    a, b = alternate(ours, lambda: roc_auc_score(y, s), repeat)
    curve = cl.roc_curve(y, s)
    lo, hi = curve.interval()
    check = f"AUC {curve.value:.6f} (scikit-learn {roc_auc_score(y, s):.6f}), DeLong [{lo:.5f}, {hi:.5f}]"
    return a, b, check


def bench_null(size: int, repeat: int) -> tuple[float, float, str]:
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(size, int), np.zeros(size, int)]
    tied = np.round(rng.normal(0.3 * y, 1.0), 1)
    free = rng.normal(0.0, 1.0, 2 * size)  # no discrimination: U near pn/2, scipy counts about half the support

    def baseline() -> None:
        if hasattr(_mannwhitneyu._mwu_state, "s"):
            del _mannwhitneyu._mwu_state.s  # no cached distribution: count from scratch
        mannwhitneyu(free[y == 1], free[y == 0], method="exact")

    curve = cl.roc_curve(y, tied)
    a, b = alternate(curve.null_distribution, baseline, repeat)
    blocks = np.unique(tied).size
    return a, b, f"{blocks} tie blocks, exact p-value {curve.p_value():.3g}"


def bench_null_unequal(size: int, repeat: int) -> tuple[float, float, str]:
    """``null`` with unequal classes (size − 20 positives, size + 20 negatives): no symmetry to
    halve the count; scipy's exact Mann–Whitney at the same sizes without ties."""
    rng = np.random.default_rng(0)
    p, n = size - 20, size + 20
    y = np.r_[np.ones(p, int), np.zeros(n, int)]
    tied = np.round(rng.normal(0.3 * y, 1.0), 1)
    free = rng.normal(0.0, 1.0, p + n)

    def baseline() -> None:
        if hasattr(_mannwhitneyu._mwu_state, "s"):
            del _mannwhitneyu._mwu_state.s
        mannwhitneyu(free[y == 1], free[y == 0], method="exact")

    curve = cl.roc_curve(y, tied)
    a, b = alternate(curve.null_distribution, baseline, repeat)
    return a, b, f"{p} + {n}, {np.unique(tied).size} tie blocks"


def bench_pvalue(size: int, repeat: int) -> tuple[float, float, str]:
    rng = np.random.default_rng(0)
    y = np.r_[np.ones(size, int), np.zeros(size, int)]
    tied = np.round(rng.normal(PVALUE_SHIFT[0] * y, 1.0), 1)
    free = rng.normal(0.0, 1.0, 2 * size)

    def baseline() -> None:
        if hasattr(_mannwhitneyu._mwu_state, "s"):
            del _mannwhitneyu._mwu_state.s
        mannwhitneyu(free[y == 1], free[y == 0], method="exact")

    curve = cl.roc_curve(y, tied)
    a, b = alternate(lambda: curve.p_value("two-sided"), baseline, repeat)
    p = curve.p_value("two-sided")
    return a, b, f"{np.unique(tied).size} tie blocks, shift {PVALUE_SHIFT[0]}, two-sided p {p:.3g} ({p.method})"


#: The class shift of ``pvalue``'s scores (``--pvalue-shift``).
PVALUE_SHIFT = [0.0]


def bench_band(size: int, repeat: int) -> tuple[float, float, str]:
    y, s = binormal(size, 1.0, np.random.default_rng(1))
    curve = cl.roc_curve(y, s)
    assert curve.fpr.size > 1  # the staircase is the curve's, built once; the band is what is timed
    a, b = alternate(curve.band, lambda: roc_curve(y, s), repeat)
    return a, b, f"{curve.band().fpr.size} band points"


#: Moves the slider to each index in turn; per move, ms to the redrawn DOM, to the next frame and
#: (when the slice is watched) to the linked slice's new TP count, all on performance.now().
MOVES_JS = """
async ([indexes, tps]) => {
  const root = document.querySelector(".confusionlab-roc");
  const slider = root.querySelector("input.cl-threshold");
  const slice = document.querySelector(".confusionlab-roc-slice");
  const when = (node, ok) => new Promise((resolve) => {
    if (ok()) return resolve(performance.now());
    const obs = new MutationObserver(() => { if (ok()) { obs.disconnect(); resolve(performance.now()); } });
    obs.observe(node, { attributes: true });
  });
  const out = [];
  for (let k = 0; k < indexes.length; k++) {
    const target = String(indexes[k]);
    const start = performance.now();
    slider.value = target;
    slider.dispatchEvent(new Event("input"));
    const dom = await when(root, () => root.dataset.index === target);
    const frame = await new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())));
    const linked = await when(slice, () => slice.dataset.tp === String(tps[k]));
    out.push([dom - start, frame - start, linked - start, Number(root.dataset.drawMs)]);
  }
  return out;
}
"""


def bench_browser(size: int, moves: int) -> None:
    import sys
    import tempfile
    from contextlib import ExitStack
    from pathlib import Path

    from playwright.sync_api import sync_playwright

    here = Path(__file__).resolve().parent
    sys.path.insert(0, str(here.parent / "tests" / "browser"))
    sys.path.insert(0, str(here))
    from _machine import machine
    from conftest import CHROMIUM_ARGS, LabSession, running_server

    load_before = os.getloadavg()
    code = (
        "import numpy as np\nimport confusionlab as cl\n"
        f"rng = np.random.default_rng(0)\ny = rng.integers(0, 2, {size})\n"
        "score = np.round(rng.normal(1.0 * y, 1.0), 4)\n"
        "view = cl.RocView(cl.roc_curve(y, score))\nview"
    )
    base = Path(tempfile.mkdtemp(prefix="bench_roc_"))
    with ExitStack() as stack, sync_playwright() as pw:
        server = stack.enter_context(running_server(base, "jupyterlab"))
        chromium = os.environ.get("CONFUSIONLAB_CHROMIUM", "/usr/bin/chromium")
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        lab = LabSession(server=server, page=context.new_page())
        try:
            ready = ".confusionlab-roc-slice[data-bubbles]"
            lab.open_notebook("bench_roc.ipynb", [code], wait_for=ready, timeout_ms=180_000)
            kernel = lab.kernel("bench_roc.ipynb")
            points = kernel.evaluate("view.points")
            rng = np.random.default_rng(1)
            indexes = [int(k) for k in rng.integers(1, points - 1, moves)]
            tps = kernel.evaluate(f"[int(view._counts[1][k]) for k in {indexes}]")
            timings = np.array(lab.page.evaluate(MOVES_JS, [indexes, tps]))
        finally:
            lab.close()
            context.close()
            browser.close()
    med = np.median(timings, axis=0)
    print(f"# RocView threshold change at {size:,} scores ({points:,} staircase points), {moves} moves")
    print(f"# {machine(load_before)}")
    print("| what | median (ms) | min–max (ms) |\n|---|---:|---:|")
    names = ["input → redrawn DOM", "input → next frame", "input → linked slice redrawn (kernel)", "draw() itself"]
    for j, name in enumerate(names):
        print(f"| {name} | {med[j]:.1f} | {timings[:, j].min():.1f}–{timings[:, j].max():.1f} |")


BENCHES = {
    "auc": (bench_auc, 10_000_000, 3),
    "null": (bench_null, 200, 5),
    "null-unequal": (bench_null_unequal, 200, 5),
    "pvalue": (bench_pvalue, 200, 5),
    "band": (bench_band, 1_000_000, 5),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=sorted(BENCHES), nargs="+", default=list(BENCHES))
    parser.add_argument("--repeat", type=int, default=None, help="runs of each side (default: 3 auc, 5 others)")
    parser.add_argument("--browser", action="store_true", help="the RocView's redraw in JupyterLab instead")
    parser.add_argument("--moves", type=int, default=41, help="slider moves of --browser")
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (0: the library's default)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="cpu: this process's CPU time")
    parser.add_argument("--pvalue-shift", type=float, default=0.0, help="class shift of pvalue's scores")
    args = parser.parse_args()
    PVALUE_SHIFT[0] = args.pvalue_shift
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    from threadpoolctl import threadpool_limits

    with threadpool_limits(args.threads or None):
        run(args)


def run(args: argparse.Namespace) -> None:
    if args.browser:
        bench_browser(100_000, args.moves)
        return
    print(
        f"{platform.machine()}, {os.cpu_count()} cores, python {platform.python_version()}, numpy {np.__version__}, "
        f"scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, load {os.getloadavg()[0]:.1f}, "
        f"BLAS threads {args.threads or 'default'}, clock {args.clock}"
    )
    print(f"{'bench':>12s} {'size':>10s} {'ours s':>8s} {'base s':>8s} {'ratio':>6s}  check")
    for name in args.only:
        bench, size, repeat = BENCHES[name]
        a, b, check = bench(size, args.repeat or repeat)
        print(f"{name:>12s} {size:>10,d} {a:8.3f} {b:8.3f} {a / b:6.2f}  {check}", flush=True)


if __name__ == "__main__":
    main()
