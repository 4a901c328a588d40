"""The capped child process of tests/contract (``_hostile_worker.py``), with one more call:
``evaluate`` from label vectors, everything it reports computed (``to_frame``), each
distribution checked with the contract's invariants.

Run as a script it is the child (the contract worker's ``main`` with this call added);
:class:`EvaluateWorker` starts it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

_SPEC = importlib.util.spec_from_file_location(
    "_contract_hostile_worker", Path(__file__).resolve().parents[1] / "contract" / "_hostile_worker.py"
)
assert _SPEC is not None and _SPEC.loader is not None
base = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(base)


def call_evaluate(**kwargs: Any) -> list[str]:
    """``evaluate(**kwargs)``, then every (group, metric) distribution of its to_frame."""
    import numpy as np

    from confusionlab import evaluate

    ev = evaluate(**kwargs)
    frame = ev.to_frame()
    out: list[str] = []
    for group in ev.groups:
        for metric in ev.metrics:
            d = ev.distribution(metric, group)
            out += [f"{group!r}/{metric}: {v}" for v in base.check_distribution(d, excluded=False)]
            if d.method not in ("exact", "quadrature", "monte-carlo"):
                out.append(f"{group!r}/{metric}: method {d.method!r}")
    if len(frame) != len(ev.groups) * len(ev.metrics):
        out.append(f"to_frame has {len(frame)} rows for {len(ev.groups)} groups × {len(ev.metrics)} metrics")
    if not set(frame["method"]) <= {"exact", "quadrature", "monte-carlo"}:
        out.append(f"methods {sorted(set(frame['method']))}")
    whole = ev.sizes(ev.groups[-1])["objects"]
    if whole != len(np.asarray(kwargs["y_true"], dtype=object)):
        out.append(f"the whole test set has {whole} objects, not {len(kwargs['y_true'])}")
    return out


base.CALLS["evaluate"] = call_evaluate

_EVALUATIONS: dict[str, Any] = {}


def _evaluation(kind: str) -> Any:
    """A small evaluation kept across calls: binary with groups and 3 refits, or three classes."""
    if kind not in _EVALUATIONS:
        import numpy as np

        from confusionlab import evaluate

        rng = np.random.default_rng(5)
        k = 2 if kind == "binary" else 3
        y = rng.integers(0, k, 120)
        runs = np.where(rng.random((3, 120)) < 0.8, y, (y + 1) % k)
        groups = np.where(np.arange(120) % 3 == 0, "a", "b")
        metrics = ["f1", "specificity"] if kind == "binary" else ["macro_f1"]
        _EVALUATIONS[kind] = evaluate(y, refits=runs, groups=groups, metrics=metrics, n_draws=400)
    return _EVALUATIONS[kind]


def call_evaluation_method(*, kind: str, method: str, kwargs: dict[str, Any]) -> list[str]:
    """One method of an Evaluation with (hostile) arguments; a distribution answered is checked
    with the contract's invariants, a figure closed."""
    from confusionlab.distribution import MetricDistribution

    out = getattr(_evaluation(kind), method)(**kwargs)
    found = []
    if isinstance(out, MetricDistribution):
        found += base.check_distribution(out, excluded=False)
    if isinstance(out, dict):
        for v in out.values():
            if isinstance(v, MetricDistribution):
                found += base.check_distribution(v, excluded=False)
    if type(out).__name__ == "Figure":
        import matplotlib.pyplot as plt

        plt.close(out)
    return found


def call_slice_mixtures(*, counts: Any, metric: Any, tolerance: Any) -> list[str]:
    """``slice_mixtures`` (issue 21's batch across groups): each batched group's distribution is
    checked, and equals the one-group ``slice_mixture``'s mean."""
    from confusionlab import ConfusionMatrix
    from confusionlab.distribution import slice_mixture, slice_mixtures

    found = []
    for rows, mix in zip(counts, slice_mixtures(counts, metric, tolerance=tolerance), strict=True):
        if mix is None:
            continue
        found += base.check_distribution(mix.distribution, excluded=False)
        cms = [ConfusionMatrix(tp=a, fn=b, fp=c, tn=d) for a, b, c, d in rows]
        one = slice_mixture(cms, metric, tolerance=tolerance)
        if abs(one.distribution.mean() - mix.distribution.mean()) > 1e-12:
            found.append(f"batched mean {mix.distribution.mean()!r} != one-group {one.distribution.mean()!r}")
    return found


def call_decompose(*, means: Any, variances: Any) -> list[str]:
    import math

    from confusionlab.distribution import decompose

    parts = decompose(means, variances)
    return [f"{k} = {v!r}" for k, v in parts.items() if not (math.isnan(v) or v >= 0)]


def refit_data(n: int, refits: int, groups: int) -> tuple[Any, Any, Any]:
    """Labels, refits right 85 % of the time and groups (issue 35's many refits at scale)."""
    import numpy as np

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n).astype(np.int8)
    runs = np.where(rng.random((refits, n), dtype=np.float32) < 0.85, y, 1 - y).astype(np.int8)
    return y, runs, rng.integers(0, groups, n)


def call_refit_frame(*, n: int, refits: int, groups: int, target: str) -> dict[str, Any]:
    """``evaluate(..., target=target).to_frame()`` of :func:`refit_data`, built in the child; returns the frame."""
    from confusionlab import evaluate

    y, runs, g = refit_data(n, refits, groups)
    frame = evaluate(y, refits=runs, groups=g, progress=False, target=target).to_frame()
    return {"violations": [], "frame": frame[["group", "metric", "value", "lower", "upper", "method"]]}


base.CALLS.update(evaluation_method=call_evaluation_method, slice_mixtures=call_slice_mixtures,
                  decompose=call_decompose, refit_frame=call_refit_frame)  # fmt: skip


class EvaluateWorker(base.Worker):
    """The contract's worker, running this script (so that ``evaluate`` is one of its calls)."""

    def _start(self) -> None:
        import os

        env = dict(os.environ, CONFUSIONLAB_MEMORY_LIMIT="512M", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.info = self._recv()


if __name__ == "__main__":
    base.main()
