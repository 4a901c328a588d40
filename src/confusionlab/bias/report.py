"""Bias reports: all 21 of Clarify's metrics, each with its uncertainty.

:func:`report` computes the one group-by count table (:mod:`.counts`) where the
data lives, evaluates every count-based metric on it, FT on the rows of the
numeric features, and returns a :class:`BiasReport`, a read-only mapping from
abbreviation to :class:`BiasMetric`. A metric that cannot be computed (an empty
facet, no shared label value, …) has ``value=None`` and its ``error`` text,
exactly where smclarify's report has a null; the rest of the report is intact.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np

from .._validation import check_probability
from ..distribution import MetricDistribution
from ..models import resolve_prior
from . import label_metrics as lm
from . import prediction_metrics as pm
from ._arith import divide
from .counts import (
    CountTable,
    FacetSelection,
    check_columns,
    count_table,
    facet_expr,
    facet_selection,
    label_selection,
    to_narwhals,
)
from .uncertainty import (
    DEFAULT_SAMPLES,
    dirichlet_multinomial_draws,
    exact_binary_facets,
    exact_facet_sizes,
    prob_sign_real,
    sampled_distribution,
)

__all__ = [
    "DESCRIPTIONS",
    "POSTTRAINING",
    "PRETRAINING",
    "BiasMetric",
    "BiasReport",
    "posttraining",
    "pretraining",
    "report",
    "report_each_value",
    "report_from_counts",
]

PRETRAINING = ("CDDL", "CI", "DPL", "JS", "KL", "KS", "LP", "TVD")
POSTTRAINING = ("AD", "CDDPL", "DAR", "DCA", "DCR", "DI", "DPPL", "DRR", "FT", "GE", "RD", "SD", "TE")

#: smclarify 0.5's descriptions (the first line of its docstrings, spelling included).
DESCRIPTIONS = {
    "CI": "Class Imbalance (CI)",
    "DPL": "Difference in Positive Proportions in Labels (DPL)",
    "KL": "Kullback-Liebler Divergence (KL)",
    "JS": "Jensen-Shannon Divergence (JS)",
    "LP": "L-p Norm (LP)",
    "TVD": "Total Variation Distance (TVD)",
    "KS": "Kolmogorov-Smirnov Distance (KS)",
    "CDDL": "Conditional Demographic Disparity in Labels (CDDL)",
    "DPPL": "Difference in Positive Proportions in Predicted Labels (DPPL)",
    "DI": "Disparate Impact (DI)",
    "DCA": "Difference in Conditional Acceptance (DCA)",
    "DCR": "Difference in Conditional Rejection (DCR)",
    "RD": "Recall Difference (RD)",
    "DAR": "Difference in Acceptance Rates (DAR)",
    "DRR": "Difference in Rejection Rates (DRR)",
    "SD": "Specificity Difference (SD)",
    "AD": "Accuracy Difference (AD)",
    "TE": "Treatment Equality (TE)",
    "CDDPL": "Conditional Demographic Disparity in Predicted Labels (CDDPL)",
    "FT": "Flip Test (FT)",
    "GE": "Generalized Entropy (GE)",
}

_KL_FAMILY = {
    "KL": lm.kullback_leibler,
    "JS": lm.jensen_shannon,
    "LP": lm.lp_norm,
    "TVD": lm.total_variation_distance,
    "KS": lm.kolmogorov_smirnov,
}
_CONFUSION = {
    "DCA": pm.difference_in_conditional_acceptance,
    "DCR": pm.difference_in_conditional_rejection,
    "RD": pm.recall_difference,
    "DAR": pm.difference_in_acceptance_rates,
    "DRR": pm.difference_in_rejection_rates,
    "SD": pm.specificity_difference,
    "AD": pm.accuracy_difference,
    "TE": pm.treatment_equality,
    "DPPL": pm.difference_in_positive_predictions,
    "DI": pm.disparate_impact,
}


@dataclass
class BiasMetric:
    """One bias metric: its value, description and posterior predictive uncertainty.

    Attributes
    ----------
    name : str
        Clarify's abbreviation (``"DPPL"``).
    description : str
    value : float or None
        None when the metric could not be computed; then ``error`` says why.
    error : str or None
    no_bias : float
        The value meaning "no bias" (1 for DI, 0 otherwise).

    Examples
    --------
    >>> t = CountTable.from_confusion(a=(2718, 84, 3678, 13900), d=(433, 10, 679, 8660))
    >>> m = report_from_counts(t, n_samples=2000)["DPPL"]
    >>> m.description, round(m.value, 4)
    ('Difference in Positive Proportions in Predicted Labels (DPPL)', 0.0922)
    >>> lo, hi = m.interval(0.95); bool(0.08 < lo < m.value < hi < 0.11)
    True
    >>> m.prob_sign_real, m.contains_no_bias()
    (1.0, False)
    """

    name: str
    description: str
    value: float | None
    error: str | None = None
    no_bias: float = 0.0
    _posterior: Callable[[], MetricDistribution | None] | None = field(default=None, repr=False)

    @cached_property
    def distribution(self) -> MetricDistribution | None:
        """Posterior predictive distribution (None for FT and failed metrics).

        A :class:`confusionlab.distribution.MetricDistribution` (``pmf``, ``cdf``,
        ``ppf``, ``interval``, ``to_scipy``…); its ``strategy`` says whether it is
        exact or Monte Carlo (see :mod:`confusionlab.bias.uncertainty`).
        """
        if self._posterior is None or self.value is None:
            return None
        return self._posterior()

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Central posterior predictive interval; (nan, nan) when there is none."""
        d = self.distribution
        if d is None:
            check_probability(confidence, "confidence")
            return (math.nan, math.nan)
        return d.interval(confidence)

    @property
    def prob_sign_real(self) -> float:
        """Probability that the metric lies on the observed side of the no-bias value."""
        d = self.distribution
        return math.nan if d is None else prob_sign_real(d, self.value, self.no_bias)

    def contains_no_bias(self, confidence: float = 0.95) -> bool:
        """True when the interval includes the no-bias value (the sign is not established)."""
        lo, hi = self.interval(confidence)
        return bool(lo <= self.no_bias <= hi)


class BiasReport(Mapping[str, BiasMetric]):
    """Read-only mapping abbreviation → :class:`BiasMetric`, sorted by name.

    Attributes
    ----------
    counts : CountTable
        The group-by count table every count-based metric came from.
    value_or_threshold : str
        The facet description Clarify writes (``"Female"``, ``"(40.0, 90.0]"``).

    Examples
    --------
    >>> t = CountTable.from_confusion(a=(30, 5, 10, 55), d=(0, 0, 0, 0))
    >>> r = report_from_counts(t, stage="post", value_or_threshold="Female")
    >>> r["DPPL"].value is None, r["DPPL"].error
    (True, 'facet d is empty: no row matches the sensitive facet values or threshold')
    >>> first = r.to_clarify_json()[0]["metrics"][0]
    >>> first["name"], first["value"], first["error"].startswith("facet d is empty")
    ('AD', None, True)
    """

    def __init__(self, metrics: dict[str, BiasMetric], counts: CountTable, value_or_threshold: str) -> None:
        self._metrics = dict(sorted(metrics.items()))
        self.counts = counts
        self.value_or_threshold = value_or_threshold

    def __getitem__(self, key: str) -> BiasMetric:
        try:
            return self._metrics[key]
        except KeyError:
            raise KeyError(f"{key!r} is not in this report; it has {list(self._metrics)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._metrics)

    def __len__(self) -> int:
        return len(self._metrics)

    def __repr__(self) -> str:
        body = ", ".join(f"{k}={m.value if m.value is not None else 'error'}" for k, m in self._metrics.items())
        return f"BiasReport({self.value_or_threshold!r}: {body})"

    def to_frame(self, confidence: float = 0.95) -> Any:
        """A pandas DataFrame: one row per metric with value, interval and sign probability."""
        import pandas as pd

        rows = []
        for m in self._metrics.values():
            lo, hi = m.interval(confidence) if m.value is not None else (math.nan, math.nan)
            rows.append(
                {
                    "metric": m.name,
                    "description": m.description,
                    "value": math.nan if m.value is None else m.value,
                    "lower": lo,
                    "upper": hi,
                    "no_bias": m.no_bias,
                    "prob_sign_real": m.prob_sign_real,
                    "error": m.error,
                }
            )
        return pd.DataFrame(rows).set_index("metric")

    def to_clarify_json(self) -> list[dict[str, Any]]:
        """The report in smclarify's ``bias_report`` shape.

        One facet entry ``{"value_or_threshold": ..., "metrics": [...]}``;
        metrics sorted by name, each ``{"name", "description", "value"}`` plus
        ``"error"`` when it failed (value None); ±inf written ``"Infinity"`` /
        ``"-Infinity"``.
        """
        out = []
        for m in self._metrics.values():
            entry: dict[str, Any] = {"name": m.name, "description": m.description}
            if m.value is None:
                entry["value"] = None
                entry["error"] = m.error
            elif math.isinf(m.value):
                entry["value"] = "Infinity" if m.value > 0 else "-Infinity"
            else:
                entry["value"] = m.value
            out.append(entry)
        return [{"value_or_threshold": self.value_or_threshold, "metrics": out}]


# ----------------------------------------------------------------------------- evaluation
def _scalar(x: np.ndarray) -> float:
    return float(np.asarray(x).reshape(()))


def _facet_error(sizes: np.ndarray, what: str = "") -> str | None:
    what = what or "the sensitive facet values or threshold"
    if sizes[1] == 0:
        return f"facet d is empty: no row matches {what}"
    if sizes[0] == 0:
        return f"facet a is empty: every row matches {what}"
    return None


def _di_from_outcomes(o: np.ndarray) -> np.ndarray:
    o = np.asarray(o, dtype=np.float64)
    n = o.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = o[..., 1] / n
    ok = (n[..., 0] > 0) & (n[..., 1] > 0)
    return np.where(ok, divide(q[..., 1], q[..., 0]), np.nan)


class _Evaluator:
    """Computes metrics and lazily their posteriors from one CountTable."""

    def __init__(
        self, t: CountTable, *, kl_labels: str, prior: str | float, n_samples: int, seed: int, facet_text: str = ""
    ) -> None:
        self.t, self.kl_labels, self.prior = t, kl_labels, prior
        self.facet_text = facet_text
        self.n_samples, self.seed = n_samples, seed
        self.sizes = t.facet_sizes
        self._cm_draws: np.ndarray | None = None

    def _mc(self, cells: np.ndarray) -> np.ndarray:
        return dirichlet_multinomial_draws(cells, n_samples=self.n_samples, seed=self.seed, prior=self.prior)

    def _exact2(self, name: str, fn: Callable, outcomes: np.ndarray) -> Callable[[], MetricDistribution | None]:
        return lambda: exact_binary_facets(
            fn, outcomes, prior=self.prior, metric=name, n_samples=self.n_samples, seed=self.seed
        )

    def _sampled(
        self, name: str, fn: Callable, draws: Callable[[], np.ndarray]
    ) -> Callable[[], MetricDistribution | None]:
        return lambda: sampled_distribution(fn(draws()), metric=name, seed=self.seed)

    def metric(
        self,
        name: str,
        value_fn: Callable[[], float],
        error: str | None,
        posterior: Callable[[], MetricDistribution | None] | None,
        why_nan: str = "",
    ) -> BiasMetric:
        no_bias = 1.0 if name == "DI" else 0.0
        if error is None:
            try:
                v = value_fn()
            except ValueError as exc:
                v, error = None, str(exc)
            else:
                if math.isnan(v):
                    v, error = None, why_nan or f"{name} is undefined for these counts"
        else:
            v = None
        return BiasMetric(name, DESCRIPTIONS[name], v, error, no_bias, posterior)

    def pre(self, group_given: bool) -> dict[str, BiasMetric]:
        t, out = self.t, {}
        ferr = _facet_error(self.sizes, self.facet_text)
        out["CI"] = self.metric(
            "CI",
            lambda: _scalar(lm.class_imbalance(self.sizes)),
            ferr,
            lambda: exact_facet_sizes(lm.class_imbalance, self.sizes, prior=self.prior),
        )
        lab2 = t.label_distribution(binary=True)
        out["DPL"] = self.metric(
            "DPL",
            lambda: _scalar(lm.difference_in_proportions(lab2)),
            ferr,
            self._exact2("DPL", lm.difference_in_proportions, lab2),
        )
        dist = lab2 if self.kl_labels == "binary" else t.label_distribution(binary=False)
        for name, fn in _KL_FAMILY.items():
            if dist.shape[-1] == 2:
                post = self._exact2(name, fn, dist)
            else:
                post = self._sampled(name, fn, lambda dist=dist: self._mc(dist))
            out[name] = self.metric(
                name, lambda fn=fn: _scalar(fn(dist)), ferr, post, "no label value occurs in both facets"
            )
        out["CDDL"] = self._cdd("CDDL", t.group_outcomes(predicted=False) if group_given else None)
        return out

    def _cdd(self, name: str, g: np.ndarray | None) -> BiasMetric:
        what = "labels" if name == "CDDL" else "predicted labels"
        if g is None:
            return self.metric(
                name, lambda: math.nan, f"group was not given: {name} needs a subgroup column (group=...)", None
            )
        tot = g.sum(axis=(0, 1))
        err = None
        if tot[1] == 0:
            err = f"no positive {what} in the data: {name} is undefined"
        elif tot[0] == 0:
            err = f"no negative {what} in the data: {name} is undefined"
        cells = g.reshape(g.shape[0], 4)

        def draws() -> np.ndarray:
            return self._mc(cells).reshape(self.n_samples, *g.shape)

        return self.metric(
            name,
            lambda: _scalar(lm.conditional_demographic_disparity(g)),
            err,
            self._sampled(name, lm.conditional_demographic_disparity, draws),
        )

    def cm_draws(self) -> np.ndarray:
        if self._cm_draws is None:
            self._cm_draws = self._mc(self.t.confusion())
        return self._cm_draws

    def post(self, group_given: bool) -> dict[str, BiasMetric]:
        t, out = self.t, {}
        cm = t.confusion()
        ferr = _facet_error(self.sizes, self.facet_text)
        pred2 = np.stack([cm[:, 2] + cm[:, 3], cm[:, 0] + cm[:, 1]], axis=-1)
        for name, fn in _CONFUSION.items():
            if name == "DPPL":
                post = self._exact2(name, lm.difference_in_proportions, pred2)
            elif name == "DI":
                post = self._exact2(name, _di_from_outcomes, pred2)
            else:
                post = self._sampled(name, fn, self.cm_draws)
            out[name] = self.metric(name, lambda fn=fn: _scalar(fn(cm)), ferr, post)
        total = cm.sum(axis=0)
        out["GE"] = self.metric(
            "GE",
            lambda: _scalar(pm.generalized_entropy(total)),
            None,
            self._sampled("GE", pm.generalized_entropy, lambda: self._mc(total)),
            "GE is undefined: every row is a false negative (mean benefit 0) or there are no rows",
        )
        out["CDDPL"] = self._cdd("CDDPL", t.group_outcomes(predicted=True) if group_given else None)
        return out


def _threshold_label(frame: Any, sel: FacetSelection) -> str:
    import narwhals as nw

    res = frame.select(nw.col(sel.columns[0]).max().alias("m"))
    if isinstance(res, nw.LazyFrame):
        res = res.collect()
    mx = res["m"].to_list()[0]
    if isinstance(sel.threshold, int) and isinstance(mx, int):  # pandas' integer interval
        return f"({sel.threshold}, {mx}]"
    return f"({float(sel.threshold)}, {float(mx)}]"


def _flip_test(frame: Any, sel: FacetSelection, features: Sequence[str], predicted: str, labels: Any) -> float:
    import narwhals as nw

    schema = frame.collect_schema()
    bad = [c for c in features if not schema[c].is_numeric()]
    if bad:
        raise ValueError(f"FT needs numeric features; non-numeric: {bad}")
    if labels.threshold is not None:
        pred = nw.col(predicted) > labels.threshold
    else:
        pred = nw.col(predicted).is_in(list(labels.positive_values))
    rows = frame.select(
        *[nw.col(c).cast(nw.Float64) for c in features], facet_expr(nw, sel).alias("_f"), pred.alias("_p")
    )
    if isinstance(rows, nw.LazyFrame):
        rows = rows.collect()
    x = np.column_stack([rows[c].to_numpy() for c in features]) if features else np.empty((len(rows), 0))
    f = rows["_f"].to_numpy().astype(bool)
    p = rows["_p"].to_numpy().astype(bool)
    err = _facet_error(np.array([int((~f).sum()), int(f.sum())]), _facet_text(sel))
    if err:
        raise ValueError(err)
    return pm.flip_test(x[~f], p[~f], x[f], p[f])


def _facet_text(sel: FacetSelection) -> str:
    cols = sel.columns[0] if len(sel.columns) == 1 else list(sel.columns)
    if sel.threshold is not None:
        return f"{cols!r} > {sel.threshold!r}"
    return f"{cols!r} in {list(sel.values)!r} (values are compared with their types)"


def _check_kl_labels(kl_labels: str) -> None:
    if kl_labels not in ("binary", "values"):
        raise ValueError(f"kl_labels must be 'binary' or 'values', got {kl_labels!r}")


def _check_samples(n_samples: int, seed: int, prior: str | float = "uniform") -> None:
    resolve_prior(prior)
    if not isinstance(n_samples, (int, np.integer)) or n_samples < 100:
        raise ValueError(f"n_samples must be an integer >= 100, got {n_samples!r}")
    if not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed must be an integer, got {seed!r}")


def report(
    data: Any,
    *,
    label: str,
    facet: str | Sequence[str],
    positive_values: Sequence[Any] | None = None,
    label_threshold: float | None = None,
    facet_values: Sequence[Any] | None = None,
    facet_threshold: float | None = None,
    predicted: str | None = None,
    group: str | None = None,
    features: Sequence[str] | None = None,
    stage: Literal["all", "pre", "post"] = "all",
    kl_labels: Literal["binary", "values"] = "binary",
    prior: str | float = "uniform",
    n_samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> BiasReport:
    r"""Clarify's bias metrics, with posterior predictive uncertainty.

    Parameters
    ----------
    data : DataFrame-like
        pandas or polars DataFrame, pyarrow Table, DuckDB relation, Dask
        DataFrame (anything narwhals wraps). Counting happens in that engine.
    label : str
        Label column.
    facet : str or list of str
        Facet column; several columns make an intersectional facet.
    positive_values : list, optional
        Label values that count as positive (exactly one of this and
        ``label_threshold``). Predictions are binarised the same way.
    label_threshold : float, optional
        Positive label = ``label > label_threshold`` (numeric labels).
    facet_values : list, optional
        Sensitive values: facet d = rows with these values, a = the rest. With
        several facet columns, a list of tuples (one entry per column).
    facet_threshold : float, optional
        Facet d = ``facet > facet_threshold`` (one numeric facet column).
    predicted : str, optional
        Predicted-label column (binary decisions with the label's values);
        post-training metrics are computed when given.
    group : str, optional
        Subgroup column for CDDL and CDDPL (they fail without it, as in Clarify).
    features : list of str, optional
        Numeric feature columns for FT (FT fails without them).
    stage : {"all", "pre", "post"}
        Which metrics to compute.
    kl_labels : {"binary", "values"}
        KL, JS, LP, TVD and KS on the binarised label (smclarify's
        ``bias_report``) or on every label value (its metric functions).
    prior : "uniform", "jeffreys" or float
        Beta/Dirichlet prior α for the uncertainty.
    n_samples, seed : int
        Monte Carlo draws and seed where the uncertainty is not exact.

    Returns
    -------
    BiasReport

    Raises
    ------
    ValueError
        Missing columns, missing values in the label/facet/predicted/group
        columns, predictions that are not label values, contradictory arguments.
    TypeError
        Arguments of the wrong type, or a data object narwhals cannot wrap.

    Notes
    -----
    Values, signs and edge cases follow smclarify 0.5 (SPEC B2–B4). Everything
    but FT is computed from one (group × facet × label × prediction) count
    table; FT reads the feature columns. Uncertainties are computed on first
    use of ``interval``/``distribution`` (see :mod:`.uncertainty`).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0, 1, 1, 0, 0, 1, 0], "p": [1, 0, 1, 0, 0, 0, 1, 0],
    ...                    "sex": list("MMMMFFFF")})
    >>> r = report(df, label="y", positive_values=[1], facet="sex", facet_values=["F"],
    ...            predicted="p")
    >>> r["CI"].value, r["DPL"].value, r["DPPL"].value
    (0.0, 0.5, 0.25)
    >>> lo, hi = r["DPPL"].interval(0.95); bool(lo < 0 < hi)
    True
    """
    if stage not in ("all", "pre", "post"):
        raise ValueError(f"stage must be 'all', 'pre' or 'post', got {stage!r}")
    _check_kl_labels(kl_labels)
    _check_samples(n_samples, seed, prior)
    if not isinstance(label, str):
        raise TypeError(f"label must be a column name, got {label!r}")
    for arg, v in (("predicted", predicted), ("group", group)):
        if v is not None and not isinstance(v, str):
            raise TypeError(f"{arg} must be a column name, got {v!r}")
    if features is not None and (isinstance(features, str) or not all(isinstance(c, str) for c in features)):
        raise TypeError(f"features must be a list of column names, got {features!r}")
    if stage == "post" and predicted is None:
        raise ValueError("stage='post' needs predicted=<column of predicted labels>")
    fsel = facet_selection(facet, facet_values, facet_threshold)
    lsel = label_selection(positive_values, label_threshold)
    frame = to_narwhals(data)
    check_columns(frame, features=features)
    table = count_table(frame, label=label, labels=lsel, facet=fsel, predicted=predicted, group=group)
    vot = _threshold_label(frame, fsel) if fsel.threshold is not None else fsel.describe()
    ev = _Evaluator(
        table, kl_labels=kl_labels, prior=prior, n_samples=n_samples, seed=seed, facet_text=_facet_text(fsel)
    )
    metrics: dict[str, BiasMetric] = {}
    if stage in ("all", "pre"):
        metrics.update(ev.pre(group is not None))
    if stage in ("all", "post") and predicted is not None:
        metrics.update(ev.post(group is not None))
        if features is None:
            metrics["FT"] = ev.metric(
                "FT",
                lambda: math.nan,
                "features were not given: FT needs numeric feature columns (features=[...])",
                None,
            )
        else:
            metrics["FT"] = ev.metric(
                "FT", lambda: _flip_test(frame, fsel, list(features), predicted, lsel), None, None
            )
    return BiasReport(metrics, table, vot)


def pretraining(data: Any, **kwargs: Any) -> BiasReport:
    """The pre-training half of :func:`report` (CI, DPL, KL, JS, LP, TVD, KS, CDDL).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["+", "-", "+", "-", "-"], "s": list("aabbb")})
    >>> list(pretraining(df, label="y", positive_values=["+"], facet="s", facet_values=["b"]))
    ['CDDL', 'CI', 'DPL', 'JS', 'KL', 'KS', 'LP', 'TVD']
    """
    kwargs.pop("predicted", None)
    kwargs.pop("features", None)
    return report(data, stage="pre", **kwargs)


def posttraining(data: Any, **kwargs: Any) -> BiasReport:
    """The post-training half of :func:`report` (needs ``predicted=``).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0, 1, 0], "p": [1, 0, 0, 0], "s": list("aabb")})
    >>> r = posttraining(df, label="y", positive_values=[1], facet="s", facet_values=["b"],
    ...                  predicted="p")
    >>> r["DPPL"].value, r["FT"].error is not None
    (0.5, True)
    """
    return report(data, stage="post", **kwargs)


def report_each_value(data: Any, *, facet: str, **kwargs: Any) -> dict[Any, BiasReport]:
    """One report per value of a categorical facet, that value against the rest.

    What smclarify's ``bias_report`` does when no facet values are given.
    Keyword arguments are those of :func:`report` (without ``facet_values``
    and ``facet_threshold``). Each report is one group-by on the engine.

    Returns
    -------
    dict
        Facet value → :class:`BiasReport`, values in sorted order.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0, 1, 0, 1, 1], "race": list("aabbcc")})
    >>> rs = report_each_value(df, label="y", positive_values=[1], facet="race", stage="pre")
    >>> {k: round(r["DPL"].value, 3) for k, r in rs.items()}
    {'a': 0.25, 'b': 0.25, 'c': -0.5}
    """
    import narwhals as nw

    for arg in ("facet_values", "facet_threshold"):
        if kwargs.get(arg) is not None:
            raise ValueError(f"report_each_value takes no {arg}, got {kwargs[arg]!r}")
    if not isinstance(facet, str):
        raise TypeError(f"facet must be one column name, got {facet!r}")
    frame = to_narwhals(data)
    check_columns(frame, facet=facet)
    values = frame.select(nw.col(facet).unique())
    if isinstance(values, nw.LazyFrame):
        values = values.collect()
    found = values[facet].to_list()
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in found):
        raise ValueError(f"facet: column {facet!r} has missing values (null/NaN)")
    return {
        v: report(data, facet=facet, facet_values=[v], **kwargs)
        for v in sorted(found, key=lambda v: (type(v).__name__, v))
    }


def report_from_counts(
    counts: CountTable,
    *,
    stage: Literal["all", "pre", "post"] = "all",
    kl_labels: Literal["binary", "values"] = "binary",
    prior: str | float = "uniform",
    n_samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    value_or_threshold: str = "d",
) -> BiasReport:
    """A report from a ready count table (e.g. published confusion matrices); no FT.

    Examples
    --------
    >>> t = CountTable.from_confusion(a=(2718, 84, 3678, 13900), d=(433, 10, 679, 8660))
    >>> r = report_from_counts(t)
    >>> round(r["DPPL"].value, 4), round(r["TE"].value, 4)
    (0.0922, 24.1143)
    """
    if not isinstance(counts, CountTable):
        raise TypeError(f"counts must be a CountTable, got {type(counts).__name__}")
    if stage not in ("all", "pre", "post"):
        raise ValueError(f"stage must be 'all', 'pre' or 'post', got {stage!r}")
    _check_kl_labels(kl_labels)
    _check_samples(n_samples, seed, prior)
    ev = _Evaluator(counts, kl_labels=kl_labels, prior=prior, n_samples=n_samples, seed=seed)
    group_given = counts.groups is not None
    metrics: dict[str, BiasMetric] = {}
    if stage in ("all", "pre"):
        metrics.update(ev.pre(group_given))
    if stage in ("all", "post") and counts.has_predictions:
        metrics.update(ev.post(group_given))
    return BiasReport(metrics, counts, value_or_threshold)
