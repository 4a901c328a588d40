"""Hangs and blow-ups of the hostile sweep, each run in the capped child process of the contract
tests (``_hostile_worker.py``: address space capped at its baseline + 3 GiB, CPU 60 s a call, the
library's memory limit 512 MiB), with the answer checked against an independent reference.
"""

from __future__ import annotations

import numpy as np
import pytest
from _hostile_worker import Worker
from scipy import stats


@pytest.fixture(scope="module")
def worker():
    w = Worker()
    yield w
    w.close()


def test_plan_group_size_di_with_an_infinite_upper_end_is_refused_at_once(worker):
    """A new facet a of 5,000 at rate 1e-4 shows no positive with probability 1/4: DI is infinite
    with more than 2.5 % at every facet-d size, so no size reaches any half-width (the plan ran past
    120 s scanning every size). Reference: the beta-binomial probabilities of zero (scipy)."""
    size_a, k_a = 5000, 1  # ⌊1e-4·5000 + ½⌋
    sizes = np.arange(1, 100_001, dtype=np.float64)
    k_d = np.floor(0.25 * sizes + 0.5)
    p_infinite = stats.betabinom.pmf(0, size_a, k_a + 1, size_a - k_a + 1) * (
        1 - stats.betabinom.pmf(0, sizes, k_d + 1, sizes - k_d + 1)
    )
    assert p_infinite.min() > 0.025  # every size's 95 % interval ends at +inf
    reply = worker.call("surface_plan_group_size", metric="DI", size_a=size_a, rate_a=1e-4, rate_d=0.25,
                        half_width=5.0, target="next_test_set")  # fmt: skip
    assert reply["kind"] == "error", reply
    assert "TargetUnreachableError" in reply["mro"]
    assert "no upper end" in reply["message"] and "target='true_value'" in reply["message"]
