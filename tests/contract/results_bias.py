"""One small instance of each bias result class, for the protocol walk (test_result_protocol.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from confusionlab import bias

# (tp, fn, fp, tn) of facet a and facet d
_A, _D = (300, 100, 40, 500), (60, 40, 10, 150)


def _report() -> bias.BiasReport:
    return bias.report_from_counts(bias.CountTable.from_confusion(a=_A, d=_D), stage="post", n_draws=500)


def _metric() -> bias.BiasMetric:
    return _report()["DPPL"]


def _audit() -> bias.Audit:
    """About 3,000 rows per group: a clear gap between the sexes, none between the races (every verdict occurs)."""
    rng = np.random.default_rng(0)
    n = 6000
    df = pd.DataFrame({"sex": rng.choice(["F", "M"], n), "race": rng.choice(["a", "b"], n)})
    df["y"] = (rng.random(n) < np.where(df.sex == "F", 0.2, 0.5)).astype(int)
    df["p"] = np.where(rng.random(n) < 0.8, df.y, 1 - df.y)
    return bias.audit(df, label="y", positive_values=[1], predicted="p", facets=["sex", "race"],
                      metrics=["DPPL", "DI", "AD"], margin=0.1, n_draws=500)  # fmt: skip


CASES = {"BiasMetric": _metric, "BiasReport": _report, "Audit": _audit}
