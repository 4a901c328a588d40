"""One small instance of each result class of confusionlab.items (for test_result_protocol.py)."""

from __future__ import annotations

import numpy as np

import confusionlab as cl


def _rows():
    rng = np.random.default_rng(7)
    item = np.repeat(np.arange(24), 3)
    cluster = item // 4
    p = rng.beta(2, 2, size=24)[item]
    return (rng.uniform(size=item.size) < p).astype(float), rng.uniform(size=item.size) < 0.5, item, cluster


def _evaluation():
    a, _, item, cluster = _rows()
    return cl.evaluate_items(a, item=item, cluster=cluster)


def _comparison():
    a, b, item, cluster = _rows()
    return cl.compare_items(a, b, item=item, cluster=cluster)


def _pass_at_k():
    a, _, item, _ = _rows()
    return cl.pass_at_k(a, item=item, k=2)


CASES = {"ItemEvaluation": _evaluation, "ItemComparison": _comparison, "PassAtK": _pass_at_k}
