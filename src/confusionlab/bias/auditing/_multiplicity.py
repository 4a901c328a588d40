"""The multiplicity adjustment: the level of each interval so that all of an audit's hold together.

With m rows judged, each row's interval is the central interval at level ``1 − (1 − confidence)/m``
(Bonferroni); by Bonferroni's inequality all m intervals then cover their metrics together with
probability at least ``confidence``. Monte Carlo intervals at that level need more draws per group.
"""

from __future__ import annotations

import math

from ..uncertainty import DEFAULT_N_DRAWS

__all__ = ["row_level"]

#: Monte Carlo draws an audit makes per group when ``n_draws`` is not given: about
#: :data:`_DRAWS_BEYOND` draws beyond each end at the Bonferroni level, within these bounds, and
#: at most :data:`_AUDIT_DRAW_BUDGET` draws over all groups (but never fewer than the report's default).
_DRAWS_BEYOND = 100
_MAX_AUDIT_DRAWS = 100_000
_AUDIT_DRAW_BUDGET = 4_000_000


def row_level(confidence: float, m: int, simultaneous: bool) -> float:
    """Level of each of ``m`` intervals holding together at ``confidence`` (not ``simultaneous``: ``confidence``).

    >>> round(row_level(0.95, 8, True), 6), row_level(0.95, 0, True), row_level(0.95, 8, False)
    (0.99375, 0.95, 0.95)
    """
    return 1.0 - (1.0 - confidence) / max(m, 1) if simultaneous else confidence


def _audit_draws(level: float, n_groups: int) -> int:
    """Draws per group for an audit at per-row ``level`` over ``n_groups`` groups (see :data:`_DRAWS_BEYOND`).

    >>> _audit_draws(0.95, 10), _audit_draws(1 - 0.05 / 68, 17), _audit_draws(1 - 0.05 / 4000, 1000)
    (20000, 100000, 20000)
    """
    tail = (1.0 - level) / 2.0
    wanted = math.ceil(_DRAWS_BEYOND / tail) if tail > 0 else _MAX_AUDIT_DRAWS
    wanted = min(wanted, _MAX_AUDIT_DRAWS, max(DEFAULT_N_DRAWS, _AUDIT_DRAW_BUDGET // max(n_groups, 1)))
    return max(DEFAULT_N_DRAWS, wanted)
