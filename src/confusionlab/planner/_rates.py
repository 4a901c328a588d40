"""Planning from an expected metric value: the rates at which the metric takes it."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import optimize

from .._validation import InvalidParameterError, check_finite_real, check_rate
from ..metrics import Metric, get_metric

__all__ = ["rates_for_value"]


def rates_for_value(
    metric: str | Metric, value: float, prevalence: float, *, tpr: float | None = None, tnr: float | None = None
) -> tuple[float, float]:
    """Rates (TPR, TNR) at which ``metric`` equals ``value`` at ``prevalence``.

    With neither rate given the two are taken **equal** (TPR = TNR = r, errors balanced
    across the classes); with one rate given the other is solved for. The metric is
    evaluated at the continuous rates (p = π, n = 1 − π); the root is the one with the
    largest free rate (scanning down from 1 on a grid of 4,001 points, refined by
    Brent's method), i.e. the better-than-chance classifier for MCC, BA, F1 ….

    >>> tpr, tnr = rates_for_value("balanced_accuracy", 0.8, 0.1)
    >>> round(tpr, 6), round(tnr, 6)
    (0.8, 0.8)
    >>> tpr, tnr = rates_for_value("mcc", 0.6, 0.1, tpr=0.8)
    >>> round(tpr, 3), round(tnr, 4)
    (0.8, 0.9193)

    See Also
    --------
    plan_test_size : plans from ``value=`` through this function.
    """
    m = get_metric(metric)
    prevalence = check_rate(prevalence, "prevalence")
    goal = check_finite_real(value, "value", what=f"a finite number (the expected {m.name})")
    if tpr is not None and tnr is not None:
        raise InvalidParameterError(
            f"give value with at most one of tpr and tnr (the other is solved for), got tpr={tpr!r} and tnr={tnr!r}"
        )
    tpr = None if tpr is None else check_rate(tpr, "tpr")
    tnr = None if tnr is None else check_rate(tnr, "tnr")

    def rates(r: Any) -> tuple[Any, Any]:
        if tpr is not None:
            return tpr + 0 * r, r
        if tnr is not None:
            return r, tnr + 0 * r
        return r, r

    def f(r: Any) -> Any:
        x, y = rates(r)
        return m.rate_values(1 - y, x, prevalence, 1 - prevalence) - goal

    grid = np.linspace(1 - 1e-9, 1e-9, 4001)
    with np.errstate(all="ignore"):
        fv = np.asarray(f(grid), dtype=np.float64)
    ok = np.isfinite(fv)
    sign_change = np.flatnonzero(ok[:-1] & ok[1:] & (np.sign(fv[:-1]) != np.sign(fv[1:])))
    exact_hit = np.flatnonzero(ok & (fv == 0))
    if exact_hit.size and (not sign_change.size or exact_hit[0] <= sign_change[0]):
        r = float(grid[exact_hit[0]])
    elif sign_change.size:
        i = int(sign_change[0])
        r = float(optimize.brentq(lambda t: float(f(t)), grid[i + 1], grid[i], xtol=1e-14))
    else:
        free = "tnr" if tpr is not None else "tpr" if tnr is not None else "tpr = tnr"
        raise InvalidParameterError(
            f"value: {m.name} = {goal!r} is not reached at prevalence {prevalence!r} for any {free} in (0, 1); "
            "give the rates instead"
        )
    x, y = rates(r)
    return float(x), float(y)
