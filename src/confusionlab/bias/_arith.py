"""smclarify 0.5's division conventions, vectorised: 0/0 → 0, x/0 → ±inf, +inf − +inf → 0."""

from __future__ import annotations

import numpy as np

__all__ = ["divide", "inf_diff"]


def divide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b`` with 0/0 → 0.0 and x/0 → ±inf (smclarify's ``divide``).

    Examples
    --------
    >>> divide(np.array([0, 3, -3, 1]), np.array([0, 0, 0, 4])).tolist()
    [0.0, inf, -inf, 0.25]
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = a / b
    return np.where(b == 0, np.where(a == 0, 0.0, np.copysign(np.inf, a)), q)


def inf_diff(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``x - y``, but 0.0 where both are +inf (smclarify's rule for two infinite rates).

    Examples
    --------
    >>> inf_diff(np.array([np.inf, np.inf, 1.0]), np.array([np.inf, 2.0, 0.5])).tolist()
    [0.0, inf, 0.5]
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    both = (x == np.inf) & (y == np.inf)
    with np.errstate(invalid="ignore"):
        return np.where(both, 0.0, x - y)
