"""A capped child process for the contract tests: one call at a time under hard limits.

Run as a script it is the child; :class:`Worker` (imported by ``test_core_hostile`` and
``test_core_regressions``) starts it, sends calls and restarts it if it dies.

The parent sends pickled requests ``{"call": name, "kwargs": {...}}`` on stdin, each
framed by an 8-byte little-endian length; the worker answers in the same framing on
stdout with a small dict:

* ``{"kind": "ok", "violations": [...]}`` — the call returned and the result was
  checked here (probabilities, cdf/sf range, shapes); ``violations`` lists what is wrong;
* ``{"kind": "error", "mro": [...], "message": ...}`` — the call raised;
* ``{"kind": "memory", "message": ...}`` — the call tried to allocate beyond the cap.

Caps (set once the imports are done, so they measure the call, not the interpreter):

* ``RLIMIT_AS`` = the worker's virtual size after a warm-up + :data:`HEADROOM` bytes. An
  allocation beyond it fails at once with :class:`MemoryError` instead of swapping or
  bringing down the machine;
* ``RLIMIT_CPU`` = CPU seconds used so far + :data:`CPU_SECONDS` before each call; a call
  that computes longer than that is killed by the kernel (SIGXCPU) and the parent reports
  it. CPU time, unlike wall-clock time, does not grow when the CI machine is busy.

The library's own memory limit is lowered to :data:`LIBRARY_LIMIT` (through the documented
``CONFUSIONLAB_MEMORY_LIMIT`` variable, set by the parent), so a function that estimates
its working set and refuses above the limit stays far below the cap.
"""

from __future__ import annotations

import math
import os
import pickle
import resource
import struct
import subprocess
import sys
from typing import Any

HEADROOM = 3 * 1024**3
CPU_SECONDS = 60
LIBRARY_LIMIT = "512M"


def _vmsize() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmSize in /proc/self/status")


# ----------------------------------------------------------------------------- checks
def check_distribution(d: Any, *, excluded: bool) -> list[str]:
    """Every invariant a MetricDistribution keeps (Σ probabilities + pruned mass = 1, ordered
    finite-or-±inf values, cdf/sf in [0, 1], mean/std/interval consistent); returns the violations."""
    import numpy as np

    out: list[str] = []
    values = np.asarray(d.values, dtype=np.float64)
    probs = np.asarray(d.probabilities, dtype=np.float64)
    if values.shape != probs.shape:
        out.append(f"values {values.shape} and probabilities {probs.shape} differ in shape")
        return out
    if not np.all(np.isfinite(probs)) or np.any(probs < 0):
        out.append(f"probabilities not finite and non-negative: {probs[~(np.isfinite(probs) & (probs >= 0))][:5]}")
    if np.any(np.isnan(values)):
        out.append("NaN among the values")
    if np.any(np.diff(values) <= 0):
        out.append("values not strictly ascending")
    pruned, undef = float(d.pruned_mass), float(d.undefined_mass)
    if not (0.0 <= pruned <= 1.0 and 0.0 <= undef <= 1.0):
        out.append(f"pruned_mass={pruned!r} or undefined_mass={undef!r} outside [0, 1]")
    total = float(probs.sum()) + pruned + (undef if excluded else 0.0)
    if not abs(total - 1.0) <= 1e-9:
        what = "sum(probabilities) + pruned_mass" + (" + undefined_mass" if excluded else "")
        out.append(f"{what} = {total!r}, not 1 within 1e-9")
    if values.size == 0:
        for name, call in (("mean()", d.mean), ("interval(0.95)", lambda: d.interval(0.95))):
            try:
                call()
            except ValueError:
                continue
            out.append(f"a distribution with no defined value answered {name} instead of raising ValueError")
        return out
    at = {"cdf(inf)": d.cdf(math.inf), "cdf(-inf)": d.cdf(-math.inf), "cdf(nan)": d.cdf(math.nan)}
    if at["cdf(inf)"] != 1.0:
        out.append(f"cdf(inf) = {at['cdf(inf)']!r}, not exactly 1.0")
    if at["cdf(-inf)"] != 0.0:
        out.append(f"cdf(-inf) = {at['cdf(-inf)']!r}, not exactly 0.0")
    if not math.isnan(at["cdf(nan)"]):
        out.append(f"cdf(nan) = {at['cdf(nan)']!r}, not nan")
    finite = values[np.isfinite(values)]
    grid = np.concatenate([values, finite - 1e-9, finite + 1e-9])
    cdf, sf = np.asarray(d.cdf(grid)), np.asarray(d.sf(grid))
    if np.any(~((cdf >= 0) & (cdf <= 1))) or np.any(~((sf >= 0) & (sf <= 1))):
        out.append(
            f"cdf or sf outside [0, 1]: cdf in [{cdf.min()!r}, {cdf.max()!r}], sf in [{sf.min()!r}, {sf.max()!r}]"
        )
    inf_mass = float(probs[np.isinf(values)].sum())
    mean, std = d.mean(), d.std()
    if inf_mass > 0:
        if not (math.isinf(mean) and math.isinf(std)):
            out.append(f"mass {inf_mass:.3g} on ±inf but mean={mean!r}, std={std!r} (must be inf)")
    elif not (math.isfinite(mean) and math.isfinite(std) and std >= 0):
        out.append(f"mean={mean!r}, std={std!r} not finite with all values finite")
    lo, hi = d.interval(0.95)
    if not (values[0] <= lo <= hi <= values[-1]):
        out.append(f"interval(0.95) = ({lo!r}, {hi!r}) not ordered inside the support")
    return out


def _cm(counts: tuple[Any, Any, Any, Any]) -> Any:
    import confusionlab as cl

    tp, fn, fp, tn = counts
    return cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn)


_DISTRIBUTIONS: dict[tuple[Any, ...], Any] = {}


def _distribution(counts: tuple[int, int, int, int], metric: str) -> Any:
    import confusionlab as cl

    key = (counts, metric)
    if key not in _DISTRIBUTIONS:
        _DISTRIBUTIONS[key] = cl.metric_distribution(_cm(counts), metric)
    return _DISTRIBUTIONS[key]


# ----------------------------------------------------------------------------- calls
def call_confusion_matrix(*, counts: tuple[Any, ...]) -> list[str]:
    import confusionlab as cl

    tp, fn, fp, tn = counts
    cm = cl.ConfusionMatrix(tp=tp, fn=fn, fp=fp, tn=tn)
    got = cm.as_tuple()
    if not all(type(c) is int for c in got) or [float(c) for c in got] != [float(c) for c in counts]:
        return [f"ConfusionMatrix kept {got!r} for {counts!r}"]
    return []


def call_from_sklearn(*, matrix: Any, positive_index: Any) -> list[str]:
    import confusionlab as cl

    cm = cl.ConfusionMatrix.from_sklearn(matrix, positive_index=positive_index)
    return [] if all(type(c) is int and c >= 0 for c in cm.as_tuple()) else [f"bad counts {cm!r}"]


def call_from_predictions(*, y_true: Any, y_pred: Any, positive: Any) -> list[str]:
    import confusionlab as cl

    cm = cl.ConfusionMatrix.from_predictions(y_true, y_pred, positive=positive)
    if cm.N != len(y_true):
        return [f"{cm!r} counts {cm.N} examples, got {len(y_true)}"]
    return []


def call_from_rates(*, p: Any, n: Any, tpr: Any, tnr: Any) -> list[str]:
    import confusionlab as cl

    cm = cl.ConfusionMatrix.from_rates(p, n, tpr, tnr)
    if (cm.p, cm.n) != (int(p), int(n)):
        return [f"{cm!r} does not have p={p}, n={n}"]
    return []


def call_metric_value(*, counts: tuple[Any, ...], metric: Any, undefined: Any) -> list[str]:
    import confusionlab as cl

    cm = _cm(counts)
    value = cl.metric_value(cm, metric, undefined=undefined)
    if not isinstance(value, float):
        return [f"metric_value returned {type(value).__name__}"]
    lo, hi = cl.METRICS[metric].range
    if math.isnan(value) or not (lo <= value <= hi or value == undefined):
        return [f"{metric} of {cm!r} = {value!r}, outside its range {(lo, hi)}"]
    return []


def call_fbeta_metric(*, beta: Any) -> list[str]:
    import confusionlab as cl
    from confusionlab.metrics import fbeta_metric

    m = fbeta_metric(beta)
    value = cl.metric_value(cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32), m)
    return [] if 0.0 <= value <= 1.0 else [f"F-beta({beta!r}) = {value!r}"]


def call_metric_distribution(*, counts: tuple[Any, ...], metric: Any, **kwargs: Any) -> list[str]:
    import confusionlab as cl

    d = cl.metric_distribution(_cm(counts), metric, **kwargs)
    return check_distribution(d, excluded=isinstance(kwargs.get("undefined"), str))


def call_distribution_method(*, counts: tuple[int, int, int, int], metric: str, method: str, args: tuple) -> list[str]:
    import numpy as np

    d = _distribution(counts, metric)
    result = getattr(d, method)(*args)
    arr = np.asarray(result, dtype=np.float64)
    if method in ("cdf", "sf") and np.any((arr < 0) | (arr > 1)):
        return [f"{method}{args!r} = {result!r} outside [0, 1]"]
    if method == "rvs" and not np.all(np.isin(arr, d.values)):
        return ["rvs drew values off the support"]
    if method in ("interval", "ppf") and np.any(np.isnan(arr)):
        return [f"{method}{args!r} = {result!r}"]
    return []


def call_compare(*, a: Any, b: Any, **kwargs: Any) -> list[str]:
    import confusionlab as cl

    da = _distribution(*a) if isinstance(a, tuple) else a
    db = _distribution(*b) if isinstance(b, tuple) else b
    c = cl.compare(da, db, **kwargs)
    out = []
    probs = (c.prob_greater, c.prob_equal, c.prob_less)
    if not all(0.0 <= x <= 1.0 for x in probs) or abs(sum(probs) - 1.0) > 1e-9:
        out.append(f"P(>), P(=), P(<) = {probs!r}")
    out += [f"difference: {v}" for v in check_distribution(c.difference, excluded=False)]
    return out


def call_contour(*, metric: Any, level: Any, p: Any, n: Any, **kwargs: Any) -> list[str]:
    import numpy as np

    import confusionlab as cl

    lines = cl.contour(metric, level, p, n, **kwargs)
    for line in lines:
        arr = np.asarray(line)
        if arr.ndim != 2 or arr.shape[1] != 2 or not np.all(np.isfinite(arr)):
            return [f"a contour polyline of shape {arr.shape} with non-finite points"]
    return []


def call_slice_lattice(*, p: Any, n: Any) -> list[str]:
    import numpy as np

    import confusionlab as cl

    tp, tn = cl.slice_lattice(p, n)
    if np.shape(tp) != (int(p) + 1, 1) or np.shape(tn) != (1, int(n) + 1):
        return [f"slice_lattice({p}, {n}) shapes {np.shape(tp)}, {np.shape(tn)}"]
    return []


def call_simplex_points(*, N: Any) -> list[str]:
    import confusionlab as cl

    pts = cl.simplex_points(N)
    return [] if len(pts) == math.comb(int(N) + 3, 3) else [f"simplex_points({N}) has {len(pts)} points"]


def call_slice_model(*, counts: tuple[Any, ...], **kwargs: Any) -> list[str]:
    from confusionlab.models import slice_model

    m = slice_model(_cm(counts), **kwargs)
    total = float(m.tp_pmf.sum()) * float(m.tn_pmf.sum()) + m.pruned_mass
    return [] if abs(total - 1) <= 1e-9 else [f"slice_model keeps mass {total!r} with the pruned mass"]


# ---- issue 21: labels from every container, the audit, its view, the 2PL fit
def _labels(kind: str, values: list[Any]) -> Any:
    import numpy as np
    import pandas as pd

    if kind == "list":
        return values
    if kind == "object":
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
        return arr
    if kind == "Int64":
        return pd.array(values, dtype="Int64")
    if kind == "boolean":
        return pd.array([None if v is None else bool(v) for v in values], dtype="boolean")
    if kind == "Categorical":
        return pd.Categorical(values)
    if kind == "Series":
        return pd.Series(values, dtype="Int64")
    import pyarrow as pa

    whole = pa.array(values)
    return whole if kind == "arrow" else pa.chunked_array([values[:1], values[1:]], type=whole.type)


def call_labels(*, kind: str, y_true: list[Any], y_pred: list[Any]) -> list[str]:
    import confusionlab as cl

    cm = cl.ConfusionMatrix.from_predictions(_labels(kind, y_true), y_pred, positive=1)
    return [] if cm.N == len(y_true) else [f"{cm!r} counts {cm.N} examples of {len(y_true)}"]


def call_audit(*, groups: list[Any], metrics: Any, margin: Any, rows: int = 0) -> list[str]:
    import numpy as np
    import pandas as pd

    from confusionlab import bias

    n = rows or len(groups)
    g = np.empty(n, dtype=object)
    g[:] = [groups[i % len(groups)] for i in range(n)] if rows else groups
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"y": rng.integers(0, 2, n), "p": rng.integers(0, 2, n), "g": g})
    a = bias.audit(df, label="y", positive_values=[1], predicted="p", facets="g", metrics=metrics, margin=margin,
                   n_draws=500)  # fmt: skip
    frame = a.to_frame()
    out = []
    if frame[["facet", "group", "metric"]].duplicated().any():
        out.append("two audit rows share (facet, group, metric)")
    if int(a.sizes["n"].sum()) != n:
        out.append(f"the groups hold {int(a.sizes['n'].sum())} rows of {n}")
    a.verdict_table()
    a.to_html()
    return out


def call_audit_view_cell(*, index: Any) -> list[str]:
    import pandas as pd

    from confusionlab import bias
    from confusionlab.widgets.audit_view import AuditView

    df = pd.DataFrame({"y": [1, 0] * 30, "p": [1, 0] * 30, "sex": ["F", "M", "M"] * 20})
    view = AuditView(bias.audit(df, label="y", positive_values=[1], predicted="p", facets="sex",
                                metrics=["DPPL", "DI"], margin=0.1))  # fmt: skip
    row = view.cell_row(index)
    return [] if 0 <= int(index) < 4 and row["metric"] in ("DPPL", "DI") else [f"cell {index!r} read {row!r}"]


def call_twopl_predict(*, n_learners: Any) -> list[str]:
    import numpy as np

    from confusionlab import stability as st

    n = np.array([10.0, 20, 40, 80, 160])
    fit = st.fit_2pl(n, 1 / (1 + (55 / n) ** 0.8))
    out = np.asarray(fit.predict(n_learners))
    return [] if np.all((out >= 0) & (out <= 1)) else [f"predict({n_learners!r}) = {out!r}"]


def call_points(*, method: str, x: Any) -> list[str]:
    import numpy as np

    d = _distribution((3, 1, 1, 3), "mcc")
    out = np.asarray(getattr(d, method)(x), dtype=np.float64)
    if method != "ppf" and np.any(out[~np.isnan(out)] < 0):
        return [f"{method}({x!r}) = {out!r}"]
    return []


def call_roc_curve(*, y_true: Any, y_score: Any, method: Any, confidence: Any, n_resamples: Any = 200) -> list[str]:
    """Scores (issue 22): the curve, its AUC's interval, the band and one operating point."""
    import numpy as np

    import confusionlab as cl

    curve = cl.roc_curve(y_true, y_score)
    lo, hi = curve.interval(confidence, method=method, n_resamples=n_resamples, random_state=0)
    out: list[str] = []
    if not (0.0 <= lo <= hi <= 1.0) or not 0.0 <= curve.value <= 1.0:
        out.append(f"AUC {curve.value!r} or its interval ({lo!r}, {hi!r}) outside [0, 1] or unordered")
    if np.any(np.diff(curve.fpr) < 0) or np.any(np.diff(curve.tpr) < 0) or curve.fpr[-1] != 1 or curve.tpr[-1] != 1:
        out.append("the staircase is not monotone from (0, 0) to (1, 1)")
    band = curve.band(confidence)
    if np.any(band.lower > band.upper + 1e-12) or np.any(band.lower < 0) or np.any(band.upper > 1):
        out.append("the band is not inside [0, 1] with lower <= upper")
    cm = curve.at_threshold(float(np.median(np.asarray(y_score, dtype=float))))
    if (cm.p, cm.n) != (curve.p, curve.n):
        out.append(f"at_threshold's matrix has p, n = {cm.p}, {cm.n}, not {curve.p}, {curve.n}")
    return out


def call_roc_view(*, index: Any = None, confidence: Any = None, threshold: Any = None, tp: Any = None) -> list[str]:
    """RocView (issue 22) driven with hostile trait values, a threshold and a slice move."""
    import numpy as np

    import confusionlab as cl

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    view = cl.RocView(cl.roc_curve(y, np.round(rng.normal(y, 1.0), 1)))
    if index is not None:
        view.index = index
    if confidence is not None:
        view.confidence = confidence
    if threshold is not None:
        view.set_threshold(threshold)
    if tp is not None:
        view.slice.set_state({"tp": tp})
    out: list[str] = []
    cm = view.confusion_matrix()
    if not 0 <= view.index < view.points or (view.slice.tp, view.slice.tn) != (cm.tp, cm.tn):
        out.append(f"index {view.index} of {view.points} or the slice ({view.slice.tp}, {view.slice.tn}) != {cm}")
    return out


# ---- issue 21: the surface of the last rounds (test_hostile_surface.py)
def _unit(name: str, x: Any) -> list[str]:
    x = float(x)
    return [] if 0.0 <= x <= 1.0 else [f"{name} = {x!r} outside [0, 1]"]


def _ordered(name: str, lo: Any, hi: Any, lower: float = -math.inf, upper: float = math.inf) -> list[str]:
    lo, hi = float(lo), float(hi)
    return [] if lower <= lo <= hi <= upper else [f"{name} = ({lo!r}, {hi!r}) unordered or outside [{lower}, {upper}]"]


def _paired_checks(c: Any) -> list[str]:
    probs = (c.prob_greater, c.prob_equal, c.prob_less)
    out = [v for name, x in zip(("P(>)", "P(=)", "P(<)"), probs, strict=True) for v in _unit(name, x)]
    if abs(sum(float(x) for x in probs) - 1.0) > 1e-6:
        out.append(f"P(>) + P(=) + P(<) = {sum(probs)!r}, not 1")
    return out + _ordered("interval()", *c.interval(), -2.0, 2.0)


def call_surface_compare_paired(*, y_true: Any, pred_a: Any, pred_b: Any, metric: Any, **kwargs: Any) -> list[str]:
    import confusionlab as cl

    return _paired_checks(cl.compare_paired(y_true, pred_a, pred_b, metric, **kwargs))


def call_surface_compare_paired_cells(*, cells: Any, metric: Any, **kwargs: Any) -> list[str]:
    import confusionlab as cl

    return _paired_checks(cl.compare_paired_cells(cells, metric, **kwargs))


def call_surface_rank_models(*, y_true: Any, predictions: Any, metric: Any, **kwargs: Any) -> list[str]:
    import numpy as np

    import confusionlab as cl

    r = cl.rank_models(y_true, predictions, metric, **kwargs)
    frame = r.to_frame()
    best = np.asarray(frame["prob_best"], dtype=np.float64)
    ranks = np.asarray(frame["expected_rank"], dtype=np.float64)
    k = len(frame)
    out = [v for name, x in zip(frame.index, best, strict=True) for v in _unit(f"P({name} best)", x)]
    if abs(float(best.sum()) - 1.0) > 1e-6:
        out.append(f"P(best) sums to {best.sum()!r}, not 1")
    if np.any(~((ranks >= 1 - 1e-9) & (ranks <= k + 1e-9))):
        out.append(f"expected ranks {ranks!r} outside [1, {k}]")
    same = [name for name in predictions if list(predictions[name]) == list(next(iter(predictions.values())))]
    if len(same) == 2 == len(predictions):  # two identical classifiers: exchangeable
        pa, pb = (float(frame.loc[name, "prob_best"]) for name in same)
        if abs(pa - pb) > 1e-9:
            out.append(f"identical classifiers with P(best) {pa!r} and {pb!r}")
    return out


def call_surface_plan_test_size(*, metric: Any, **kwargs: Any) -> list[str]:
    import confusionlab as cl

    plan = cl.plan_test_size(metric, **kwargs)
    max_size = kwargs.get("max_size", 10**6)
    out = [] if type(plan.N) is int and 1 <= plan.N <= max_size else [f"N = {plan.N!r} not an int in [1, max_size]"]
    if plan.half_width is not None and not float(plan.half_width) <= float(kwargs["half_width"]) + 1e-12:
        out.append(f"the plan's half_width {plan.half_width!r} exceeds the requested {kwargs['half_width']!r}")
    return out


def call_surface_plan_comparison_size(**kwargs: Any) -> list[str]:
    import confusionlab as cl

    plan = cl.plan_comparison_size(**kwargs)
    max_size = kwargs.get("max_size", 10**6)
    out = [] if type(plan.N) is int and 1 <= plan.N <= max_size else [f"N = {plan.N!r} not an int in [1, max_size]"]
    if not float(plan.half_width) <= float(kwargs["half_width"]) + 1e-12:
        out.append(f"the plan's half_width {plan.half_width!r} exceeds the requested {kwargs['half_width']!r}")
    return out


def call_surface_plan_group_size(**kwargs: Any) -> list[str]:
    from confusionlab import bias

    plan = bias.plan_group_size(**kwargs)
    max_size = kwargs.get("max_size", 100_000)
    out = [] if type(plan.N) is int and 1 <= plan.N <= max_size else [f"N = {plan.N!r} not an int in [1, max_size]"]
    if not float(plan.half_width) <= float(kwargs["half_width"]) + 1e-12:
        out.append(f"the plan's half_width {plan.half_width!r} exceeds the requested {kwargs['half_width']!r}")
    return out


def call_surface_calibration(*, y_true: Any, y_prob: Any, confidence: Any = 0.95, **kwargs: Any) -> list[str]:
    import numpy as np

    import confusionlab as cl

    c = cl.calibration(y_true, y_prob, **kwargs)
    out = _unit("ece", c.ece) + _unit("brier", c.brier) + _unit("p_value", c.p_value())
    out += _ordered("interval", *c.interval(confidence), 0.0, 1.0)
    band = c.band(confidence)
    lower, upper = np.asarray(band.lower, dtype=float), np.asarray(band.upper, dtype=float)
    if np.any(lower > upper + 1e-12) or np.any(lower < 0) or np.any(upper > 1):
        out.append("the consistency band is not inside [0, 1] with lower <= upper")
    return out


def call_surface_choose_threshold(*, y_true: Any, y_score: Any, confidence: Any = 0.95, **kwargs: Any) -> list[str]:
    import numpy as np

    import confusionlab as cl

    c = cl.choose_threshold(y_true, y_score, confidence=confidence, **kwargs)
    lo, hi = c.interval(confidence)
    out = _ordered("interval()", lo, hi) + _ordered("interval(pointwise)", *c.interval(confidence, kind="pointwise"))
    if not lo - 1e-12 <= c.value <= hi + 1e-12:
        out.append(f"value {c.value!r} outside its after-selection interval ({lo!r}, {hi!r})")
    if c.threshold not in c.candidates or not c.is_plausible(c.threshold):
        out.append(f"threshold {c.threshold!r} is not a plausible candidate")
    out += [v for name, x in (c.prob_constraint or {}).items() for v in _unit(f"prob_constraint[{name}]", x)]
    if not np.isfinite(c.value):
        out.append(f"value {c.value!r} is not finite")
    return out


def _arrays_check(name: str, arrays: dict[Any, Any], lo: float, hi: float) -> list[str]:
    """Every array of ``arrays`` finite and inside [lo, hi] (up to rounding)."""
    import numpy as np

    out = []
    for key, a in arrays.items():
        a = np.asarray(a, dtype=float)
        if not np.all(np.isfinite(a)) or np.any(a < lo - 1e-9) or np.any(a > hi + 1e-9):
            out.append(f"{name}[{key!r}] not finite in [{lo}, {hi}]: {a[:5]!r}")
    return out


def call_surface_decision_curve(*, y_true: Any, y_score: Any, confidence: Any = 0.95, **kwargs: Any) -> list[str]:
    import numpy as np

    import confusionlab as cl

    dc = cl.decision_curve(y_true, y_score, confidence=confidence, **kwargs)
    out = _arrays_check("prob_useful", dc.prob_useful, 0.0, 1.0)
    out += _arrays_check("prob_better_than_all", dc.prob_better_than_all, 0.0, 1.0)
    out += _arrays_check("net_benefit", dc.net_benefit, -math.inf, 1.0)
    out += _arrays_check("evpi", dc.evpi, 0.0, math.inf)
    for model, best in dc.prob_best.items():
        total = sum(np.asarray(v, dtype=float) for v in best.values())
        if np.any(np.abs(total - 1.0) > 1e-6):
            out.append(f"prob_best[{model!r}] adds up to {total[:5]!r}, not 1")
    band = dc.band(confidence)
    for name, nb in dc.net_benefit.items():
        lower, upper = np.asarray(band.lower[name]), np.asarray(band.upper[name])
        if np.any(lower > nb + 1e-9) or np.any(nb > upper + 1e-9):
            out.append(f"band of {name!r} does not hold the observed curve")
    for name, (lo, hi) in dc.interval_arrays(confidence).items():
        if np.any(~np.isfinite(lo)) or np.any(~np.isfinite(hi)) or np.any(lo > hi + 1e-12):
            out.append(f"pointwise interval of {name!r} not finite and ordered")
    frame = dc.to_frame()
    if list(frame.columns)[-1] != "target" or len(frame) != dc.thresholds.size * (len(dc.models) + 2):
        out.append(f"to_frame: columns {list(frame.columns)[-3:]}, {len(frame)} rows")
    return out


def call_surface_cost_curve(*, y_true: Any, y_score: Any, confidence: Any = 0.95, **kwargs: Any) -> list[str]:
    import numpy as np

    import confusionlab as cl

    c = cl.cost_curve(y_true, y_score, **kwargs)
    band = c.band(confidence)
    cost, lower, upper = (np.asarray(a, dtype=float) for a in (c.cost, band.lower, band.upper))
    out = _arrays_check("cost", {"envelope": cost}, 0.0, 0.5)
    if np.any(lower > cost + 1e-12) or np.any(cost > upper + 1e-12) or np.any(lower < -1e-12):
        out.append("the band does not hold the cost curve")
    out += _ordered("interval()", *c.interval(confidence), 0.0, 0.5)
    lo, hi = c.interval(confidence)
    if not lo - 1e-12 <= c.value <= hi + 1e-12:
        out.append(f"area {c.value!r} outside its range ({lo!r}, {hi!r})")
    if list(c.to_frame().columns)[-1] != "target":
        out.append("to_frame has no target column last")
    return out


def call_surface_report(*, results: Any, **kwargs: Any) -> list[str]:
    """``cl.report(*results, **kwargs)``; ``"@name"`` results are :func:`_input`'s, a ``path`` starting
    with ``"@tmp"`` lies in a fresh temporary directory."""
    import html
    import re
    import tempfile
    from pathlib import Path

    import confusionlab as cl

    path = kwargs.get("path")
    if isinstance(path, str) and path.startswith("@tmp"):
        kwargs["path"] = tempfile.mkdtemp(prefix="cl-report-") + path.removeprefix("@tmp")
    items = [_input(r) for r in results] if isinstance(results, (list, tuple)) else [results]
    page = cl.report(*items, **kwargs)
    out = [] if isinstance(page, str) and page.startswith("<!DOCTYPE html>") else ["not an HTML page"]
    sections = page.count("class='confusionlab-report-section'")
    if sections != len(items):
        out.append(f"{sections} sections for {len(items)} results")
    title = kwargs.get("title")
    if isinstance(title, str) and html.escape(title) not in page:
        out.append("the title is not on the page as written")
    if re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page):
        out.append("the page loads something")
    if kwargs.get("path") is not None and Path(kwargs["path"]).read_text(encoding="utf-8") != page:
        out.append("the file is not the page")
    return out


def call_surface_poisson_binomial(*, p: Any) -> list[str]:
    import numpy as np

    from confusionlab.calibration import poisson_binomial_pmf

    pmf = np.asarray(poisson_binomial_pmf(p).pmf, dtype=np.float64)
    if pmf.shape != (np.size(p) + 1,) or np.any(~(pmf >= 0)) or abs(float(pmf.sum()) - 1.0) > 1e-9:
        return [f"pmf of shape {pmf.shape} with sum {pmf.sum()!r} or negative entries"]
    return []


def call_surface_compare_auc(*, y_true: Any, score_a: Any, score_b: Any, confidence: Any = 0.95) -> list[str]:
    import confusionlab as cl

    c = cl.compare_auc(y_true, score_a, score_b)
    aucs = c.aucs.items() if isinstance(c.aucs, dict) else enumerate(c.aucs)
    out = [v for i, x in aucs for v in _unit(f"aucs[{i}]", x)]
    out += _unit("p_value", c.p_value) + _unit("prob_greater", c.prob_greater)
    if not -1.0 <= float(c.value) <= 1.0:
        out.append(f"difference of AUCs {c.value!r} outside [-1, 1]")
    return out + _ordered("interval", *c.interval(confidence), -1.0, 1.0)


def call_surface_pr_curve(*, y_true: Any, y_score: Any, confidence: Any = 0.95, method: Any = "logit") -> list[str]:
    import numpy as np

    import confusionlab as cl

    curve = cl.precision_recall_curve(y_true, y_score)
    prec, rec = np.asarray(curve.precision, dtype=float), np.asarray(curve.recall, dtype=float)
    out = _unit("average precision", curve.value)
    if np.any(~((prec >= 0) & (prec <= 1))) or np.any(~((rec >= 0) & (rec <= 1))):
        out.append("precision or recall outside [0, 1]")
    out += _ordered("interval", *curve.interval(confidence, method=method, n_resamples=200, random_state=0), 0, 1)
    band = curve.band(confidence)
    lower, upper = np.asarray(band.lower, dtype=float), np.asarray(band.upper, dtype=float)
    if np.any(lower > upper + 1e-12) or np.any(lower < 0) or np.any(upper > 1):
        out.append("the band is not inside [0, 1] with lower <= upper")
    return out


def call_surface_stability(*, measure: str, args: tuple, **kwargs: Any) -> list[str]:
    import numpy as np

    from confusionlab import stability

    r = getattr(stability, measure)(*args, **kwargs)
    value = float(r.value)
    if not r.defined:
        ok = math.isnan(value) and r.reason
        return [] if ok else [f"{measure}: undefined with value {value!r}, reason {r.reason!r}"]
    if not (math.isfinite(value) and value <= 1.0 + 1e-9):
        return [f"{measure} = {value!r}: not finite and <= 1"]
    if measure in ("phi", "psi"):
        per = np.asarray(r.per_object, dtype=float)
        if np.any(per[~np.isnan(per)] > 1.0 + 1e-9):
            return [f"{measure}: per-object values above 1: {per!r}"]
        lo, hi = r.interval()
        if not (lo <= hi or (math.isnan(lo) and math.isnan(hi))):
            return [f"{measure}: interval ({lo!r}, {hi!r}) unordered"]
    return []


def call_surface_stability_scale_free(*, measure: str, args: tuple, factor: float, **kwargs: Any) -> list[str]:
    """The metric-scale measures are scale-free: ``args`` multiplied by ``factor`` must give the
    value of ``args`` (an independent expected value), or be refused."""
    import numpy as np

    from confusionlab import stability

    f = getattr(stability, measure)
    expected = float(f(*args, **kwargs).value)
    scaled = tuple(np.asarray(a, dtype=float) * factor if not isinstance(a, str) else a for a in args)
    got = float(f(*scaled, **kwargs).value)
    return [] if abs(got - expected) <= 1e-9 else [f"{measure} x {factor:g} = {got!r}, unscaled {expected!r}"]


def call_surface_grouped_gaps(*, y_true: Any, score_a: Any, score_b: Any, groups: Any) -> list[str]:
    """Grouped curves' and grouped AUC comparisons' gap intervals inside the gaps' ranges."""
    import confusionlab as cl

    out = []
    for (g, h), (lo, hi) in cl.roc_curve(y_true, score_a, groups=groups).gap_intervals().items():
        out += _ordered(f"roc_curve gap ({g}, {h})", lo, hi, -1.0, 1.0)
    for (g, h), (lo, hi) in cl.compare_auc(y_true, score_a, score_b, groups=groups).gap_intervals().items():
        out += _ordered(f"compare_auc gap ({g}, {h})", lo, hi, -2.0, 2.0)
    return out


# ---- issue 21: the widgets, kernel side (test_hostile_widgets.py)
_INPUTS: dict[str, Any] = {}


def call_surface_items(*, function: str, args: tuple, **kwargs: Any) -> list[str]:
    """``evaluate_items``, ``compare_items`` or ``pass_at_k``, its answers checked: a finite value
    inside the scores' range, a non-negative error, ordered intervals, p-values in [0, 1]."""
    import numpy as np
    import pandas as pd

    import confusionlab as cl

    r = getattr(cl, function)(*args, **kwargs)
    out: list[str] = []
    span = 2.0 if function == "compare_items" else 1.0
    if not (math.isfinite(r.value) and abs(r.value) <= span * 1e15):
        out.append(f"value {r.value!r}")
    if not (r.std_error >= 0 or math.isnan(r.std_error)):
        out.append(f"std_error {r.std_error!r}")
    for level in (0.5, 0.95):
        lo, hi = r.interval(level)
        if not (lo <= hi or (math.isnan(lo) and math.isnan(hi))):
            out.append(f"interval({level}) = ({lo!r}, {hi!r}) unordered")
    if function == "compare_items":
        for alternative in ("two-sided", "greater", "less"):
            out += _unit(f"p_value({alternative})", r.p_value(alternative, n_draws=2000))
    if function == "pass_at_k":
        out += _unit("pass@k", r.value) + _unit("Bayesian pass@k", r.bayesian_value)
        if np.any(~np.isfinite(r.per_item["bayes_mean"].to_numpy())):
            out.append("a Bayesian pass@k is not finite")
    if not isinstance(r.to_frame(), pd.DataFrame) or not r.summary():
        out.append("to_frame() or summary() failed")
    return out


def call_surface_read_log(*, reader: str, path: str) -> list[str]:
    """A log reader on a hostile file: a frame with item, epoch and score, or a refusal."""
    import confusionlab as cl

    frame = getattr(cl, reader)(path)
    missing = {"item", "epoch", "score"} - set(frame.columns)
    return [f"columns {sorted(missing)} missing"] if missing else []


_INPUT_NAMES = ("@audit", "@report", "@report_pre", "@calibration", "@evaluation", "@evaluation_refits",
                "@evaluation_classes", "@comparison", "@roc", "@pr", "@plan", "@choice",
                "@decision_curve", "@cost_curve")  # fmt: skip


def _input(name: Any) -> Any:
    """The result a widget shows, made once per child: ``"@audit"``, ``"@report"``, … (other values as given)."""
    if not (isinstance(name, str) and name in _INPUT_NAMES):
        return name
    if name not in _INPUTS:
        import numpy as np
        import pandas as pd

        import confusionlab as cl
        from confusionlab import bias

        rng = np.random.default_rng(0)
        y = rng.integers(0, 2, 60)
        scores = np.round(rng.normal(y, 1.0), 1)
        df = pd.DataFrame({"y": [1, 0] * 30, "p": [1, 0, 0] * 20, "sex": ["F", "M", "M"] * 20, "age": list("ab") * 30})
        counts = bias.CountTable.from_confusion(a=(27, 36, 8, 139), d=(4, 6, 1, 86))
        q = rng.uniform(size=200)
        makers = {
            "@audit": lambda: bias.audit(df, label="y", positive_values=[1], predicted="p", facets=["sex", "age"],
                                         metrics=["DPPL", "DI"], margin=0.1, n_draws=1000),
            "@report": lambda: bias.report_from_counts(counts, n_draws=1000),
            "@report_pre": lambda: bias.report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"],
                                               stage="pre", n_draws=1000),
            "@calibration": lambda: cl.calibration(rng.uniform(size=200) < q, q, bins=5, n_resamples=100,
                                                   random_state=0),
            "@evaluation": lambda: cl.evaluate(y, rng.integers(0, 2, 60), groups=rng.choice(list("ab"), 60)),
            "@evaluation_refits": lambda: cl.evaluate(y, refits=rng.integers(0, 2, (4, 60)), groups=[0, 1, 2] * 20,
                                                      metrics=["f1", "accuracy"]),
            "@evaluation_classes": lambda: cl.evaluate(rng.integers(0, 3, 60), rng.integers(0, 3, 60)),
            "@comparison": lambda: cl.compare_paired_cells([[10, 3, 1, 6], [2, 4, 1, 13]], "accuracy"),
            "@roc": lambda: cl.roc_curve(y, scores),
            "@pr": lambda: cl.precision_recall_curve(y, scores),
            "@choice": lambda: cl.choose_threshold(y, scores, cost=(1, 3)),
            "@decision_curve": lambda: cl.decision_curve(rng.uniform(size=200) < q,
                                                         {"<b>m</b>": q, "$x^$": q.round(1)}),
            "@cost_curve": lambda: cl.cost_curve(y, scores),
            "@plan": lambda: cl.plan_test_size("recall", prevalence=0.5, tpr=0.8, tnr=0.8, half_width=0.1,
                                               max_size=2000),
        }  # fmt: skip
        _INPUTS[name] = makers[name]()
    return _INPUTS[name]


def _make_widget(make: str, args: tuple, kwargs: dict[str, Any]) -> Any:
    import confusionlab as cl

    args = tuple(_input(a) for a in args)
    kwargs = {k: _input(v) for k, v in kwargs.items()}
    if make == "Explorer":
        kwargs.setdefault("scheduler", lambda callback: callback())
    if make == "PlannerView.from_plan":
        from confusionlab.widgets.planner_view import PlannerView

        return PlannerView.from_plan(*args, **kwargs)
    return getattr(cl, make)(*args, **kwargs)


def _same_value(a: Any, b: Any) -> bool:
    import types

    import numpy as np

    if a is b:
        return True
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (type(a) is type(b) and a.shape == b.shape and a.dtype == b.dtype
                and bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))  # fmt: skip
    if isinstance(a, list | tuple):
        return type(a) is type(b) and len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return type(b) is dict and a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)
    if isinstance(a, types.SimpleNamespace):
        return isinstance(b, types.SimpleNamespace) and _same_value(vars(a), vars(b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _widget_state(widget: Any) -> dict[str, Any]:
    """Every trait of ``widget`` and of the widgets it holds (children, linked views, layout), the
    plain attributes of the drawn state (``_EXTRA_STATE``) and the public results drawn: what a
    refused change must leave as it was. (The Explorer's status line says what was refused.)"""
    import ipywidgets

    state: dict[str, Any] = {}
    seen: set[int] = set()

    def held(value: Any, path: str) -> list[tuple[str, Any]]:
        """The widgets in ``value`` with their paths (``children[1]``, ``sliders['tp']``)."""
        if isinstance(value, ipywidgets.Widget):
            return [(path, value)]
        if isinstance(value, list | tuple):
            return [w for i, x in enumerate(value) for w in held(x, f"{path}[{i}]")]
        if isinstance(value, dict):
            return [w for k, x in value.items() for w in held(x, f"{path}[{k!r}]")]
        return []

    def visit(w: Any, path: str) -> None:
        if id(w) in seen or "confusionlab-explorer-status" in getattr(w, "_dom_classes", ()):
            return
        seen.add(id(w))
        inner: list[tuple[str, Any]] = []
        for name in w.trait_names():
            if name in ("comm", "log", "keys"):
                continue
            value = getattr(w, name)
            state[f"{path}.{name}"] = value.copy() if isinstance(value, list | dict) else value
            inner += held(value, f"{path}.{name}")
        for name in getattr(w, "_EXTRA_STATE", ()):
            value = getattr(w, name, None)
            state[f"{path}.{name}"] = value.copy() if isinstance(value, list | dict) else value
        for name, value in vars(w).items():
            if not name.startswith("_trait"):
                inner += held(value, f"{path}.{name}")
        for key in ("recommended", "flagged"):
            if hasattr(w, key):
                state[f"{path}.{key}"] = getattr(w, key)
        for sub_path, sub in inner:
            visit(sub, sub_path)

    visit(widget, type(widget).__name__)
    if hasattr(widget, "distributions"):
        state["distributions()"] = widget.distributions()
    return state


def _widget_checks(widget: Any) -> list[str]:
    """Invariants of a widget's computed state (buffers sized as their traits say, indices in range)."""
    import numpy as np

    import confusionlab as cl
    from confusionlab.widgets._common import buffer_array

    out: list[str] = []
    name = type(widget).__name__
    if isinstance(widget, cl.AuditView):
        cells = len(widget._groups) * len(widget._metrics)
        if len(widget._verdicts) != cells or not -1 <= widget.selected < cells:
            out.append(f"AuditView: {len(widget._verdicts)} verdicts for {cells} cells, selected={widget.selected}")
    if isinstance(widget, cl.RocView | cl.PrecisionRecallView):
        cm = widget.confusion_matrix()
        if not 0 <= widget.index < widget.points:
            out.append(f"{name}: index {widget.index} of {widget.points} points")
        if widget.slice is not None and (widget.slice.tp, widget.slice.tn) != (cm.tp, cm.tn):
            out.append(f"{name}: the linked slice shows ({widget.slice.tp}, {widget.slice.tn}), the point is {cm}")
    if isinstance(widget, cl.MetricPMF | cl.EvaluationView):
        probs = buffer_array(widget, "_probabilities")
        if widget._offsets[-1] != probs.size or buffer_array(widget, "_values").size != probs.size:
            out.append(f"{name}: offsets end at {widget._offsets[-1]}, {probs.size} probabilities")
        for k in range(len(widget._offsets) - 1):
            mass = float(probs[widget._offsets[k] : widget._offsets[k + 1]].astype(np.float64).sum())
            if not (np.all(probs >= 0) and mass <= 1 + 1e-4):
                out.append(f"{name}: panel {k} holds mass {mass!r}")
    if isinstance(widget, cl.RocSlice):
        tp, tn, values = widget.lattice()
        if not (0 <= widget.tp <= widget.p and 0 <= widget.tn <= widget.n) or values.shape != (tp.size, tn.size):
            out.append(f"RocSlice: ({widget.p}, {widget.n}, {widget.tp}, {widget.tn}), lattice {values.shape}")
    if isinstance(widget, cl.Explorer):
        s, views = widget.state, (widget.slice, widget.pmf)
        if any((v.p, v.n, v.tp, v.tn) != (s["p"], s["N"] - s["p"], s["tp"], s["tn"]) for v in views):
            out.append(f"Explorer: state {s}, views {[(v.p, v.n, v.tp, v.tn) for v in views]}")
        if {widget.generation, widget.slice.generation, widget.pmf.generation} != {widget.generation}:
            out.append("Explorer: the views show different generations")
    if isinstance(widget, cl.PairedView):  # about `bins` cells per side: the square cut from the full joint
        side = buffer_array(widget, "_edges").size - 1
        if buffer_array(widget, "_joint").size != side**2 or not 1 <= side <= 256:
            out.append(f"PairedView: {len(widget._joint) // 4} joint cells for {side + 1} edges")
    if isinstance(widget, cl.CalibrationView):
        lower, upper = buffer_array(widget, "_lower"), buffer_array(widget, "_upper")
        if np.any(lower > upper) or widget._summary["confidence"] != widget.confidence:
            out.append("CalibrationView: band unordered or its confidence is not the view's")
    if isinstance(widget, cl.DecisionView):
        s, choice = widget._summary, widget.choice
        lower, upper = buffer_array(widget, "_lower"), buffer_array(widget, "_upper")
        cm = choice.confusion_matrix
        if s["cost"] != widget.cost or s["confidence"] != widget.confidence or s["index"] != choice.index:
            out.append(f"DecisionView: summary {s['cost']}, {s['confidence']} for cost {widget.cost}")
        if np.any(lower > upper) or buffer_array(widget, "_values").size != choice.candidates.size:
            out.append("DecisionView: band unordered or sized unlike the candidates")
        if widget.slice is not None and (widget.slice.tp, widget.slice.tn) != (cm.tp, cm.tn):
            out.append(f"DecisionView: the linked slice shows ({widget.slice.tp}, {widget.slice.tn}), chosen {cm}")
    if isinstance(widget, cl.DecisionCurveView):
        curve, k = widget.curve, widget.curve.thresholds.size
        strategies = len(curve.models) + 2
        sizes = [
            buffer_array(widget, b).size for b in ("_net_benefit", "_lower", "_upper", "_band_lower", "_band_upper")
        ]
        if sizes != [strategies * k] * 5 or buffer_array(widget, "_prob_useful").size != len(curve.models) * k:
            out.append(f"DecisionCurveView: buffers of {sizes} values for {strategies} strategies × {k} thresholds")
        if widget._summary["confidence"] != widget.confidence or not 0 <= widget.index < k:
            out.append(f"DecisionCurveView: summary at {widget._summary['confidence']}, cursor column {widget.index}")
        if np.any(buffer_array(widget, "_band_lower") > buffer_array(widget, "_band_upper")):
            out.append("DecisionCurveView: band unordered")
    if isinstance(widget, cl.CostCurveView):
        k, hull = widget.curve.probability_cost.size, buffer_array(widget, "_hull_fpr").size
        best = buffer_array(widget, "_best")
        if best.size != k or np.any(best < 0) or np.any(best >= hull) or not 0 <= widget.index < k:
            out.append(f"CostCurveView: {best.size} best points for {k} probability costs, hull {hull}")
        if np.any(buffer_array(widget, "_lower") > buffer_array(widget, "_upper")):
            out.append("CostCurveView: band unordered")
    if isinstance(widget, cl.PlannerView):
        plan = widget.plan()
        if not 1 <= plan["N"] <= widget.max_size:
            out.append(f"PlannerView: N = {plan['N']} outside [1, max_size={widget.max_size}]")
    if isinstance(widget, cl.StabilityView):
        r = widget.recommended
        if r is not None and not (math.isfinite(r) and r > 0):
            out.append(f"StabilityView: recommended = {r!r}")
    if isinstance(widget, cl.BiasView) and not set(widget.flagged) <= set(widget.report):
        out.append(f"BiasView: flagged {widget.flagged} not among the report's metrics")
    return out


def _error_reply(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, MemoryError):
        return {"kind": "memory", "message": f"MemoryError: {exc}"}
    return {"kind": "error", "mro": [c.__name__ for c in type(exc).__mro__], "message": str(exc)}


def call_widget(*, make: str, args: tuple = (), kwargs: dict | None = None, steps: list = ()) -> dict[str, Any]:
    """Build ``make(*args, **kwargs)`` (``"@name"`` values are the inputs of :func:`_input`), then run
    each step ``(op, name, value)`` — ``op`` "set" (``widget.name = value``), "update"
    (``widget.update(**value)``) or "call" (``widget.name(*value)``) — whatever the previous
    steps did. A refused step must leave :func:`_widget_state` as it was; every state reached
    must keep :func:`_widget_checks`. Returns the violations and one reply per step."""
    import warnings

    widget = _make_widget(make, tuple(args), dict(kwargs or {}))
    violations = _widget_checks(widget)
    replies = []
    for op, name, value in steps:
        before = _widget_state(widget)
        *owners, attr = name.split(".")  # "slice.tp": a trait of the linked slice
        target = widget
        for owner in owners:
            target = getattr(target, owner)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if op == "set":
                    setattr(target, attr, _input(value))
                elif op == "update":
                    target.update(**value)
                elif isinstance(value, dict):
                    getattr(target, attr)(**{k: _input(v) for k, v in value.items()})
                else:
                    getattr(target, attr)(*(_input(v) for v in value))
        except Exception as exc:
            after = _widget_state(widget)
            lost = sorted(k for k in before.keys() | after.keys() if not _same_value(before.get(k), after.get(k)))
            if lost:
                violations.append(f"{op} {name}={value!r} was refused ({type(exc).__name__}: {exc}) but changed {lost}")
            replies.append(_error_reply(exc))
            continue
        replies.append({"kind": "ok", "violations": _widget_checks(widget)})
    return {"violations": violations, "steps": replies}


# ---- issue 21: the bias functions and results (test_hostile_bias.py)
def _bias_frame(kind: str) -> Any:
    """The rows a bias call reads: ``"rows"`` (200 rows, label y, prediction p, facets sex and age,
    group g, feature x) or one of its hostile variants."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 200
    df = pd.DataFrame({"y": rng.integers(0, 2, n), "p": rng.integers(0, 2, n), "sex": rng.choice(["F", "M"], n),
                       "age": rng.choice(["a", "b", "c"], n), "g": rng.choice(["u", "v"], n), "x": rng.normal(size=n),
                       "score": rng.uniform(size=n)})  # fmt: skip
    if kind == "missing":
        df.loc[3, "y"] = None
    elif kind == "one_facet":
        df["sex"] = "F"
    elif kind == "empty":
        df = df.iloc[:0]
    elif kind == "mixed":
        df["sex"] = df["sex"].astype(object)
        df.loc[:9, "sex"] = 1
    elif kind == "not_a_frame":
        return df.to_numpy()
    return df


def _bias_metric_checks(name: str, m: Any) -> list[str]:
    value = m.value
    if value is None:
        return [] if m.error else [f"{name}: no value and no error"]
    if not isinstance(value, float) or math.isnan(value):
        return [f"{name} = {value!r}: not a float"]
    lo, hi = m.interval(0.9)
    if not ((lo <= hi) or (math.isnan(lo) and math.isnan(hi))):
        return [f"{name}: interval ({lo!r}, {hi!r}) unordered"]
    return []


def _report_checks(r: Any) -> list[str]:
    out = [v for name, m in r.items() for v in _bias_metric_checks(name, m)]
    r.to_frame(0.9)
    r.summary()
    return out


def call_bias_report(*, function: str, frame: str = "rows", **kwargs: Any) -> list[str]:
    from confusionlab import bias

    r = getattr(bias, function)(_bias_frame(frame), **kwargs)
    if function == "report_each_value":
        return [v for each in r.values() for v in _report_checks(each)]
    return _report_checks(r)


def call_bias_counts(*, a: Any, d: Any, **kwargs: Any) -> list[str]:
    from confusionlab import bias

    return _report_checks(bias.report_from_counts(bias.CountTable.from_confusion(a=a, d=d), **kwargs))


def _audit_checks(a: Any) -> list[str]:
    from confusionlab.bias.results import VERDICTS

    df = a.to_frame()
    out = []
    if not set(df["verdict"]) <= set(VERDICTS):
        out.append(f"verdicts {sorted(set(df['verdict']))}")
    defined = df["lower"].notna()
    if bool((df.loc[defined, "lower"] > df.loc[defined, "upper"]).any()):
        out.append("an unordered interval")
    if df[["facet", "group", "metric"]].duplicated().any():
        out.append("two rows share (facet, group, metric)")
    return out


def call_bias_audit(*, frame: str = "rows", **kwargs: Any) -> list[str]:
    from confusionlab import bias

    kwargs.setdefault("n_draws", 1000)
    a = bias.audit(_bias_frame(frame), **kwargs)
    a.verdict_table()
    return _audit_checks(a)


_RESULTS: dict[str, Any] = {}


def _bias_result(name: str) -> Any:
    if name not in _RESULTS:
        from confusionlab import bias

        df = _bias_frame("rows")
        if name == "plan":
            _RESULTS[name] = bias.plan_group_size("DPPL", size_a=500, rate_a=0.3, rate_d=0.3, half_width=0.1)
        elif name == "audit":
            _RESULTS[name] = bias.audit(df, label="y", positive_values=[1], predicted="p", facets=["sex", "age"],
                                        metrics=["DPPL", "DI", "KS"], margin=0.1, n_draws=1000)  # fmt: skip
        else:
            _RESULTS[name] = bias.report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"],
                                         predicted="p", group="g", n_draws=1000)  # fmt: skip
    return _RESULTS[name]


def call_bias_method(*, result: str, method: str, args: dict[str, Any]) -> list[str]:
    """``method(**args)`` of a cached audit (``result="audit"``), report (``"report"``), one of the
    report's metrics (``"report:DPPL"``) or group-size plan (``"plan"``), with its answer checked."""
    import numpy as np
    import pandas as pd

    name, _, metric = result.partition(":")
    target = _bias_result(name)
    if metric:
        target = target[metric]
    answer = getattr(target, method)(**args)
    out: list[str] = []
    if method == "interval":
        pairs = answer.values() if isinstance(answer, dict) else [answer]
        for lo, hi in pairs:
            if not (lo <= hi or (math.isnan(lo) and math.isnan(hi))):
                out.append(f"interval ({lo!r}, {hi!r}) unordered")
    elif method == "mc_error":
        values = np.asarray(answer, dtype=float)
        if np.any(values[~np.isnan(values)] < 0):
            out.append(f"negative Monte Carlo errors {answer!r}")
    elif method == "verdict" and answer not in ("bias", "no material bias", "insufficient evidence"):
        out.append(f"verdict {answer!r}")
    elif method in ("to_frame", "verdict_table", "fragile") and not isinstance(answer, pd.DataFrame):
        out.append(f"{method} returned {type(answer).__name__}")
    elif method in ("to_html", "summary", "compared_with") and not (isinstance(answer, str) and answer):
        out.append(f"{method} returned {answer!r:.80}")
    if name == "audit":
        out += _audit_checks(target)
    return out


CALLS = {name.removeprefix("call_"): f for name, f in globals().items() if name.startswith("call_")}


def _run(request: dict[str, Any]) -> dict[str, Any]:
    import tracemalloc

    trace = request.get("trace", False)
    if trace:  # numpy reports its buffers to tracemalloc: the peak is what the call allocated
        tracemalloc.start()
    try:
        result = CALLS[request["call"]](**request["kwargs"])
        reply = {"kind": "ok", **result} if isinstance(result, dict) else {"kind": "ok", "violations": result}
    except MemoryError as exc:
        reply = {"kind": "memory", "message": f"MemoryError: {exc}"}
    except Exception as exc:
        reply = _error_reply(exc)
    if trace:
        reply["peak_bytes"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return reply


def _send(stream: Any, obj: Any) -> None:
    data = pickle.dumps(obj)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def main() -> None:
    out, inp = sys.stdout.buffer, sys.stdin.buffer
    sys.stdout = sys.stderr  # nothing the library prints may corrupt the protocol
    import warnings

    warnings.simplefilter("ignore")
    # warm-up: import and run every code path once, so lazy imports count in the baseline
    _run({"call": "metric_distribution", "kwargs": {"counts": (3, 1, 1, 3), "metric": "mcc"}})
    _run({"call": "compare", "kwargs": {"a": ((3, 1, 1, 3), "mcc"), "b": ((2, 2, 1, 3), "mcc")}})
    _run({"call": "contour", "kwargs": {"metric": "mcc", "level": 0.5, "p": 4, "n": 4}})
    _DISTRIBUTIONS.clear()
    baseline = _vmsize()
    limit = baseline + HEADROOM
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
    _send(out, {"baseline": baseline, "limit": limit})
    while True:
        header = inp.read(8)
        if len(header) < 8:
            return
        (size,) = struct.unpack("<Q", header)
        request = pickle.loads(inp.read(size))
        usage = resource.getrusage(resource.RUSAGE_SELF)
        resource.setrlimit(resource.RLIMIT_CPU, (int(usage.ru_utime + usage.ru_stime) + CPU_SECONDS, cpu_hard))
        _send(out, _run(request))


# ----------------------------------------------------------------------------- the parent's side
class Worker:
    """One child process, restarted after it dies (CPU cap, crash)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.info: dict[str, int] = {}

    def _start(self) -> None:
        env = dict(os.environ, CONFUSIONLAB_MEMORY_LIMIT="512M", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.info = self._recv()

    def _recv(self) -> Any:
        assert self.proc is not None and self.proc.stdout is not None
        header = self.proc.stdout.read(8)
        if len(header) < 8:
            raise EOFError
        (size,) = struct.unpack("<Q", header)
        return pickle.loads(self.proc.stdout.read(size))

    def call(self, name: str, *, trace: bool = False, **kwargs: Any) -> dict[str, Any]:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        data = pickle.dumps({"call": name, "kwargs": kwargs, "trace": trace})
        try:
            self.proc.stdin.write(struct.pack("<Q", len(data)) + data)
            self.proc.stdin.flush()
            return self._recv()
        except (EOFError, BrokenPipeError):
            code = self.proc.wait()
            self.proc = None
            why = "CPU-time cap (SIGXCPU): a runaway computation" if code == -24 else f"exit code {code}"
            return {"kind": "crash", "message": f"the child process died: {why}"}

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait()


if __name__ == "__main__":
    main()
