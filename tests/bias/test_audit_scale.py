"""An audit of thousands of groups (issue 20: "finishes in seconds"; issue 21: refused before the work).

The true values of the default metrics are one quadrature pass per block of groups (a few milliseconds a
row), so up to MAX_AUDIT_ROWS = 20,000 rows answer; beyond, and above the memory limit, the audit is refused
before any group is evaluated. Blocks do not change a number: a row's quadrature does not depend on the
other rows computed with it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from confusionlab import InvalidParameterError, bias
from confusionlab._validation import TooLargeError, set_memory_limit
from confusionlab.bias import auditing
from confusionlab.bias.auditing import _evaluate, _judge, _size


def _frame(groups: int, per_group: int = 20, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = groups * per_group
    g = np.repeat(np.arange(groups), per_group)
    y = (rng.random(n) < 0.2 + 0.1 * (g % 3 == 0)).astype(int)
    p = np.where(rng.random(n) < 0.85, y, 1 - y)
    return pd.DataFrame({"g": g.astype(str), "y": y, "p": p})


def _no_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    def evaluated(*args, **kwargs):
        raise AssertionError("a group was evaluated before the refusal")

    monkeypatch.setattr(_evaluate, "Evaluator", evaluated)


def test_twenty_thousand_rows_answer_and_more_are_refused_up_front(monkeypatch):
    assert auditing.MAX_AUDIT_ROWS == 20_000
    default = ["DPPL", "RD", "SD", "AD"]
    _size._check_size(["g"], [list(range(5_000))], 5_000, default, "true_value")  # 20,000 rows: within
    _no_evaluation(monkeypatch)
    with pytest.raises(InvalidParameterError, match=r"5,001 groups × 4 metrics = 20,004 audit rows.*MAX_AUDIT_ROWS"):
        bias.audit(_frame(5_001, per_group=2), label="y", positive_values=[1], predicted="p", facets="g", margin=0.05)


def test_slow_rows_count_four_times_so_5000_of_them_answer_as_before():
    values = [list(range(5_001))]
    _size._check_size(["g"], values, 5_000, ["DI"], "true_value")  # the ratio: 5,000 rows, 20,000 of work
    with pytest.raises(InvalidParameterError, match=r"5,001 audit rows \(DI counts 4 rows each: 20,004 rows of work\)"):
        _size._check_size(["g"], values, 5_001, ["DI"], "true_value")
    # a 5,000-value facet with DPPL and DI (issue 21's sweep) is refused up front, not a two-minute run
    with pytest.raises(InvalidParameterError, match=r"25,000 rows of work.*a row id is not a facet"):
        _size._check_size(["g"], values, 5_000, ["DPPL", "DI"], "true_value")
    # for the next test set RD, SD, AD are Monte Carlo and DPPL a lattice: every row counts 4
    _size._check_size(["g"], values, 1_250, ["DPPL", "RD", "SD", "AD"], "next_test_set")
    with pytest.raises(InvalidParameterError, match="MAX_AUDIT_ROWS"):
        _size._check_size(["g"], values, 1_251, ["DPPL", "RD", "SD", "AD"], "next_test_set")


def test_the_memory_estimate_refuses_before_any_group_is_evaluated(monkeypatch):
    _no_evaluation(monkeypatch)
    set_memory_limit("4M")  # above what one group needs, below 400 rows × 16 kB
    try:
        with pytest.raises(TooLargeError, match=r"an audit of 100 groups × 4 metrics = 400 rows would need about"):
            bias.audit(_frame(100), label="y", positive_values=[1], predicted="p", facets="g", margin=0.05)
    finally:
        set_memory_limit(None)


def test_blocks_of_groups_give_the_same_audit(monkeypatch):
    df = _frame(12, per_group=60)
    kw = dict(label="y", positive_values=[1], predicted="p", facets="g", margin=0.05, progress=False)
    whole = bias.audit(df, **kw).to_frame()
    monkeypatch.setattr(_judge, "_JUDGE_BLOCK", 5)  # three blocks: 5, 5 and 2 groups
    blocks = bias.audit(df, **kw).to_frame()
    pd.testing.assert_frame_equal(whole, blocks)
    assert whole.metric.nunique() == 4 and len(whole) == 48
