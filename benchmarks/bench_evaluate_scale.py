"""Issue 24/21 speed-ups of ``evaluate``, each against the previous code path in one run.

Two workloads, each timed with the current code and with the code path it replaced (put
back by patching the module functions for the baseline runs; runs alternate so that machine
noise hits both alike; medians of ``--repeat``):

* ``simplex``: ``evaluate(y, p, model="dirichlet-multinomial").to_frame()`` at N = 300 (four
  metrics). Before: the simplex (4.6 million matrices) was built for every metric, with
  isometric coordinates nobody read, and pruned with a sort of every point.
* ``groups``: ``evaluate(y, refits=R, groups=g).decompose(metric, by_group=True)``, many small
  groups. Before: each (group, refit) built its own marginals and each group's mixture entered
  ``threadpool_limits`` twice (each call re-reads the loaded libraries). (Its baseline also
  turns off the batch below.)
* ``batch`` (issue 21): ``decompose("f1", by_group=True)`` on issue 21's 10,000 groups of 20
  objects × 20 refits (200,000 objects). Before: one ``slice_mixture`` per group (on 4 threads);
  now one ``slice_mixtures`` over all groups (array operations across the groups).
* ``frame`` (issue 21): ``to_frame()`` of the four default metrics on the same data (the whole
  test set's refit mixtures: union lattices of about 8 million points). The previous code is a
  git revision (``--baseline``, exported with ``git archive``); each run is a fresh child process
  (``PYTHONPATH`` the current tree or the exported one), alternating, and reports its process CPU
  time (user + system: page faults of new memory are a large part of it), its wall time and its
  peak RSS (``ru_maxrss``) while ``to_frame()`` runs.

MetricPMF beyond ``EXACT_POINTS`` (MCC at p = n = 10⁵: 105 s and 3.7 GB in issue 21's sweep) is
not timed here: the exact path it replaced is now refused by the memory limit at that size, so
there is no same-run baseline to compare with.

Ratio = previous / current (above 1: faster now). Every call asks the next test set explicitly: that is
what these code paths compute and what the earlier rows measured (the default question became the
true value after them).

Usage::

    python benchmarks/bench_evaluate_scale.py
    python benchmarks/bench_evaluate_scale.py --groups 1000 --repeat 3
    python benchmarks/bench_evaluate_scale.py --only frame --baseline 8b8600b --repeat 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

import confusionlab.distribution.build as distribution_module
import confusionlab.distribution.mixtures as mixture_module
import confusionlab.evaluation._distributions as result_module
import confusionlab.models.marginals as models_module
import confusionlab.models.slice as slice_module
from confusionlab import evaluate
from confusionlab.lattice import simplex_points
from confusionlab.models import SimplexModel, dirichlet_multinomial_logpmf, resolve_prior


def _old_simplex_model(cm: Any, *, prior: Any = "uniform", future_size: Any = None, tolerance: float = 1e-12) -> Any:
    """The simplex model as it was: every point with its coordinates, pruned by one full sort."""
    N = cm.N if future_size is None else future_size
    alpha = np.array(cm.as_tuple(), dtype=np.float64) + resolve_prior(prior)
    pts = simplex_points(N)
    pmf = np.exp(dirichlet_multinomial_logpmf(pts.counts, alpha))
    if tolerance == 0:
        return SimplexModel(N, pts.counts, pmf, 0.0)
    order = np.argsort(pmf)
    drop = order[np.cumsum(pmf[order]) <= tolerance]
    keep = np.ones(pmf.size, dtype=bool)
    keep[drop] = False
    return SimplexModel(N, pts.counts[keep], pmf[keep], float(pmf[drop].sum()))


@contextlib.contextmanager
def previous(workload: str) -> Iterator[None]:
    """Put the replaced code path back for one run."""
    saved: list[tuple[Any, str, Any]] = []

    def patch(module: Any, name: str, value: Any) -> None:
        saved.append((module, name, getattr(module, name)))
        setattr(module, name, value)

    if workload == "simplex":
        patch(distribution_module, "simplex_model", _old_simplex_model)
        patch(result_module, "shared_simplex", contextlib.nullcontext)
    elif workload == "groups":
        patch(slice_module, "shared_marginal", models_module.marginal)
        patch(mixture_module, "_one_blas_thread", lambda: threadpool_limits(limits=1, user_api="blas"))
        patch(result_module.Distributions, "_batch", lambda self, metrics, groups: {m: list(groups) for m in metrics})
    elif workload == "batch":  # issue 21: one slice_mixture per group (on threads) instead of one batch
        patch(result_module.Distributions, "_batch", lambda self, metrics, groups: {m: list(groups) for m in metrics})
    try:
        yield
    finally:
        for module, name, value in reversed(saved):
            setattr(module, name, value)


def workloads(args: argparse.Namespace) -> dict[str, Callable[[], Any]]:
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    p = np.where(rng.random(300) < 0.85, y, 1 - y)
    rows = args.groups * args.group_size
    yg = rng.integers(0, 2, rows)
    runs = np.where(rng.random((args.refits, rows)) < 0.85, yg, 1 - yg)
    g = np.repeat(np.arange(args.groups), args.group_size)

    def simplex() -> Any:
        return evaluate(y, p, model="dirichlet-multinomial", target="next_test_set").to_frame()

    def groups() -> Any:
        models_module._SHARED_MARGINALS.clear()
        return evaluate(yg, refits=runs, groups=g, metrics="f1", target="next_test_set").decompose("f1", by_group=True)

    big_rows = args.batch_groups * 20
    yb = rng.integers(0, 2, big_rows)
    runs_b = np.where(rng.random((20, big_rows)) < 0.85, yb, 1 - yb)
    gb = rng.integers(0, args.batch_groups, big_rows)

    def batch() -> Any:
        return evaluate(yb, refits=runs_b, groups=gb, metrics="f1", target="next_test_set").decompose(
            "f1", by_group=True
        )

    return {"simplex": simplex, "groups": groups, "batch": batch}


FRAME_CHILD = """
import json, resource, sys, time
import numpy as np
import confusionlab as cl
rng = np.random.default_rng(0)
n = 200_000
y = rng.integers(0, 2, n)
runs = np.where(rng.random((20, n)) < 0.85, y, 1 - y)
g = rng.integers(0, 10_000, n)
ev = cl.evaluate(y, refits=runs, groups=g, target="next_test_set")
cpu, wall = time.process_time(), time.perf_counter()
frame = ev.to_frame()
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
row = frame[(frame.group == "all") & (frame.metric == "f1")].iloc[0]
print(json.dumps({"cpu": cpu, "wall": wall, "rss_mb": rss, "rows": len(frame), "f1": [row["lower"], row["upper"]],
                  "method": row["method"]}))
"""


def export_revision(revision: str, into: Path) -> Path:
    """The ``src`` tree of a git revision, exported under ``into`` (``git archive``)."""
    root = Path(__file__).resolve().parents[1]
    archive = into / "src.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(root), "archive", revision, "src"], stdout=out, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def frame_run(src: Path) -> dict[str, Any]:
    """One ``to_frame()`` of issue 21's evaluation in a fresh child with ``src`` on its path."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, "-c", FRAME_CHILD], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def frame_benchmark(args: argparse.Namespace) -> None:
    current = Path(__file__).resolve().parents[1] / "src"
    with tempfile.TemporaryDirectory() as tmp:
        previous_src = export_revision(args.baseline, Path(tmp))
        runs: dict[str, list[dict[str, Any]]] = {"previous": [], "current": []}
        for _ in range(args.repeat):
            for name, src in (("previous", previous_src), ("current", current)):
                runs[name].append(frame_run(src))
    print(f"load before/after: {os.getloadavg()}")
    for name, got in runs.items():
        print(f"frame {name:8s} (" + ", ".join(f"cpu {r['cpu']:.2f} s wall {r['wall']:.2f} s rss {r['rss_mb']:.0f} MB"
                                           for r in got) + ")")  # fmt: skip
    med = {
        name: {k: statistics.median(r[k] for r in got) for k in ("cpu", "wall", "rss_mb")} for name, got in runs.items()
    }
    old, new = med["previous"], med["current"]
    print(
        f"frame    previous cpu {old['cpu']:6.2f} s wall {old['wall']:6.2f} s rss {old['rss_mb']:5.0f} MB   "
        f"current cpu {new['cpu']:6.2f} s wall {new['wall']:6.2f} s rss {new['rss_mb']:5.0f} MB   "
        f"ratio cpu {old['cpu'] / new['cpu']:4.1f}× wall {old['wall'] / new['wall']:4.1f}×"
    )
    same = runs["previous"][0]["f1"] == runs["current"][0]["f1"]
    print(f"whole test set's f1 interval: previous {runs['previous'][0]['f1']} current {runs['current'][0]['f1']} "
          f"({'identical' if same else 'DIFFERENT'}; method {runs['current'][0]['method']})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--group-size", type=int, default=20)
    parser.add_argument("--refits", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--batch-groups", type=int, default=10_000, help="groups of 20 objects of --only batch")
    parser.add_argument("--only", choices=["simplex", "groups", "batch", "frame"], action="append")
    parser.add_argument("--baseline", default="8b8600b", help="git revision of the previous code (--only frame)")
    args = parser.parse_args()
    print(f"numpy {np.__version__}, python {platform.python_version()}, {platform.machine()}, load {os.getloadavg()}")
    jobs = workloads(args)
    for name in args.only or [*jobs, "frame"]:
        if name == "frame":
            frame_benchmark(args)
            continue
        job = jobs[name]
        job()  # warm-up (imports, caches of the first call)
        new, old = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            job()
            new.append(time.perf_counter() - start)
            with previous(name):
                start = time.perf_counter()
                job()
                old.append(time.perf_counter() - start)
        t_new, t_old = statistics.median(new), statistics.median(old)
        print(f"{name:8s} previous {t_old:8.3f} s   current {t_new:8.3f} s   ratio {t_old / t_new:6.1f}×")


if __name__ == "__main__":
    main()
