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


class EvaluateWorker(base.Worker):
    """The contract's worker, running this script (so that ``evaluate`` is one of its calls)."""

    def _start(self) -> None:
        import os

        env = dict(os.environ, CONFUSIONLAB_MEMORY_LIMIT="512M", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.info = self._recv()


if __name__ == "__main__":
    base.main()
