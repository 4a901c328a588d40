"""How much work an audit may take: refused before any interval is computed."""

from __future__ import annotations

from typing import Any

from ..._validation import InvalidParameterError, check_memory
from ._judge import _JUDGE_BLOCK

__all__ = ["FAST_ROWS", "MAX_AUDIT_ROWS", "SLOW_ROW_WEIGHT"]

#: Most rows (groups × metrics) an audit judges, counting each row by its work. A true-value row of a
#: difference of two rates (:data:`FAST_ROWS`: the default metrics) is about 2 ms (the quadrature of many
#: rows together) and counts 1; any other row (DI's ratio, Monte Carlo rows: DCA…TE, the KL family, RD…AD
#: for the next test set; CI) is tens of milliseconds and counts :data:`SLOW_ROW_WEIGHT`. So 20,000 rows of
#: the default metrics (well under a minute of CPU on two cores) or 5,000 other rows (as before) answer;
#: beyond, the audit is refused before any interval is computed.
MAX_AUDIT_ROWS = 20_000
#: The metrics whose true values are a difference of two Beta rates, computed together by quadrature.
FAST_ROWS = frozenset({"DPL", "DPPL", "RD", "DAR", "SD", "DRR", "AD"})
#: What a row of any other metric (or target) counts towards :data:`MAX_AUDIT_ROWS`.
SLOW_ROW_WEIGHT = 4
#: Memory an audit keeps per row while it runs (its group's counts, evaluator and metric objects, the
#: row of the result; measured: about 10 kB), plus one block of ``_JUDGE_BLOCK`` groups'
#: true-value distributions (about 1,400 atoms each) at a time.
_BYTES_PER_AUDIT_ROW = 16 * 1024
_BYTES_PER_DISTRIBUTION = 1_400 * 40


def _check_size(columns: list[str], values_of: list[list[Any]], n_groups: int, metrics: list[str], target: str) -> None:
    """Refuse, before any interval is computed, an audit of more than :data:`MAX_AUDIT_ROWS` rows (slow
    rows counting :data:`SLOW_ROW_WEIGHT` each), or one whose memory estimate is above the memory limit."""
    n_metrics = len(metrics)
    n_rows = n_groups * n_metrics
    slow = [m for m in metrics if target != "true_value" or m not in FAST_ROWS]
    work = n_groups * (n_metrics + (SLOW_ROW_WEIGHT - 1) * len(slow))
    advice = "bin or group the facets' values, audit fewer metrics, or leave out intersections"
    if work > MAX_AUDIT_ROWS:
        widest = max(range(len(columns)), key=lambda i: len(values_of[i]))
        values = len(values_of[widest])
        counted = (
            f" ({', '.join(slow)} {'count' if len(slow) > 1 else 'counts'} {SLOW_ROW_WEIGHT} rows each: "
            f"{work:,} rows of work)"
            if slow
            else ""
        )
        raise InvalidParameterError(
            f"facets {columns!r} give {n_groups:,} groups × {n_metrics} metrics = {n_rows:,} audit "
            f"rows{counted}, more than MAX_AUDIT_ROWS = {MAX_AUDIT_ROWS:,} (facet {columns[widest]!r} has "
            f"{values:,} values{': a row id is not a facet' if values > 1000 else ''}); {advice}"
        )
    block = min(n_groups, _JUDGE_BLOCK) * n_metrics
    check_memory(
        float(n_rows) * _BYTES_PER_AUDIT_ROW + float(block) * _BYTES_PER_DISTRIBUTION,
        f"an audit of {n_groups:,} groups × {n_metrics} metrics = {n_rows:,} rows",
        advice,
    )
