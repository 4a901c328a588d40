"""Fairness audits that hold up: every group, every metric, one defensible verdict each.

:func:`audit` answers, for every value of every facet column (and, with
``intersections=True``, every combination of two facet columns), and for every
count-based bias metric: is there bias beyond a stated margin, no material
bias, or too little evidence to say? (SPEC E4.)

How it is computed
------------------
1. **One group-by** over all facet columns, the label and the prediction, in the
   engine that holds the data (pandas: numpy codes and one ``bincount``;
   polars, pyarrow, DuckDB, Dask: one narwhals group-by; Spark: one
   ``groupBy(...).count()``, :mod:`.engines.spark`). Only that small table of
   facet combinations comes back; every group below is a sum of its rows.
2. Each audit row compares facet *d* (the group) with facet *a* (the rest of
   the data, Clarify's one-vs-rest, or a chosen ``reference`` group, fairlearn's
   habit) through the same :class:`~.counts.CountTable` and
   :class:`~.evaluator.Evaluator` as :func:`~.report.report`, so a row's value
   and interval are the report's for that facet value.
3. **Simultaneous intervals** (Bonferroni): with m rows, each row's interval is
   the central interval at level ``1 − (1 − confidence)/m``; all m intervals
   then cover their metrics together with probability at least ``confidence``.
4. The **verdict** of each row is :func:`~.results.verdict_of` of that interval
   against ``no_bias ± margin`` (:meth:`~.results.BiasMetric.verdict`).

The intervals are most of the work (the count is one group-by). Within a group,
metrics built on the same counts share their posterior: DPL and the KL family one
beta-binomial lattice (or one set of draws) of the label counts, DPPL and DI one of
the prediction counts, DCA … TE one set of Dirichlet-multinomial draws of the
confusion counts (:meth:`~.evaluator.Evaluator.share_posteriors`); each metric's
distribution is still exactly the report's. Groups are independent and are judged
on up to :data:`_WORKERS` threads; the result does not depend on their number.

Rows that cannot be compared (an intersection whose rest is empty, a metric
undefined for the counts) are "insufficient evidence" with a note; combinations
of two facet values that never occur are skipped and listed in the notes.
"""

from __future__ import annotations

import html
import itertools
import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._validation import DEFAULT_TOLERANCE, check_confidence
from .counts import CountTable, _assemble
from .engines import Cells, CountRequest, check_columns, to_narwhals
from .engines import spark as spark_engine
from .evaluator import Evaluator
from .report import _options
from .results import DESCRIPTIONS, POSTTRAINING, PRETRAINING, BiasMetric, check_margin, verdict_of
from .selection import FacetSelection, label_selection
from .uncertainty import DEFAULT_SAMPLES

__all__ = ["AUDIT_METRICS", "COLUMNS", "Audit", "audit"]

#: Metrics an audit can judge: every count-based comparison of two facets (GE is not a
#: comparison, CDDL/CDDPL need a subgroup column and FT the features).
AUDIT_METRICS = tuple(m for m in (*PRETRAINING, *POSTTRAINING) if m not in ("CDDL", "CDDPL", "FT", "GE"))
_PRE = tuple(m for m in AUDIT_METRICS if m in PRETRAINING)

#: Columns of an :class:`Audit`, in order.
COLUMNS = ("facet", "group", "metric", "value", "lower", "upper", "verdict")

#: Threads judging groups at once (the intervals of a group are numpy work that releases the GIL).
_WORKERS = min(4, os.cpu_count() or 1)

#: Most combinations of facet values an audit accepts (the count table is dense in them).
MAX_COMBINATIONS = 1_000_000


class Audit(pd.DataFrame):
    """The result of :func:`audit`: a DataFrame with one row per (facet, group, metric).

    Columns ``facet, group, metric, value, lower, upper, verdict`` (see
    :data:`COLUMNS`); ``lower``/``upper`` are the simultaneous interval of
    each row. Further attributes:

    Attributes
    ----------
    confidence : float
        Joint coverage of all the intervals.
    level : float
        Level of each row's interval, ``1 − (1 − confidence)/m`` (``confidence``
        itself with ``simultaneous=False``).
    margin : dict
        Metric → half-width of the no-material-bias band.
    no_bias : dict
        Metric → its no-bias value (1 for DI, 0 for the others).
    sizes : DataFrame
        Per (facet, group): ``n`` rows in the group and ``n_compared`` rows it
        is compared with (the rest, or the reference group).
    notes : list of str
        Skipped combinations and rows that could not be compared, in words.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": [1, 0] * 5000, "p": [1, 0] * 5000, "sex": ["F"] * 5000 + ["M"] * 5000})
    >>> a = audit(df, label="y", positive_values=[1], predicted="p", facets="sex", metrics=["DPPL"],
    ...           margin=0.05)
    >>> a.verdict_table()
    metric                    DPPL
    facet group
    sex   F      no material bias
          M      no material bias
    """

    _metadata = ["confidence", "level", "margin", "no_bias", "sizes", "notes"]  # noqa: RUF012 - pandas protocol

    @property
    def _constructor(self) -> type[pd.DataFrame]:
        return Audit

    def verdict_table(self) -> pd.DataFrame:
        """Verdicts as a grid: rows (facet, group) in audit order, columns metrics."""
        df = pd.DataFrame(self)
        order = list(dict.fromkeys(zip(df["facet"], df["group"], strict=True)))
        grid = df.pivot(index=["facet", "group"], columns="metric", values="verdict")
        grid = grid.reindex(pd.MultiIndex.from_tuples(order, names=["facet", "group"]))
        return grid[list(dict.fromkeys(df["metric"]))]

    def counts(self) -> dict[str, int]:
        """How many rows got each verdict."""
        s = pd.Series(np.asarray(self["verdict"]))
        return {v: int((s == v).sum()) for v in ("bias", "no material bias", "insufficient evidence")}

    def to_html(self, path: str | Path | None = None, *, title: str = "Fairness audit") -> str:  # type: ignore[override]
        """The auditor's report: a self-contained HTML page (no script, no network).

        It states the question, the rule and the Bonferroni level, shows the
        verdict grid (groups × metrics, coloured), each row's value and
        simultaneous interval against its band, the group sizes and the notes.

        Parameters
        ----------
        path : str or Path, optional
            Where to write the page (UTF-8). Without it the page is only returned.
        title : str

        Returns
        -------
        str
            The HTML text.
        """
        page = _html_page(self, title)
        if path is not None:
            Path(path).write_text(page, encoding="utf-8")
        return page


def _check_facets(facets: Any) -> list[str]:
    cols = [facets] if isinstance(facets, str) else facets
    if not isinstance(cols, Sequence) or not cols or not all(isinstance(c, str) for c in cols):
        raise TypeError(f"facets must be a column name or a non-empty list of column names, got {facets!r}")
    if len(set(cols)) != len(cols):
        raise ValueError(f"facets lists a column twice: {facets!r}")
    return list(cols)


def _check_metrics(metrics: Any, predicted: str | None) -> list[str]:
    if metrics is None:
        return list(AUDIT_METRICS if predicted is not None else _PRE)
    if isinstance(metrics, str):
        metrics = [metrics]
    if not isinstance(metrics, Sequence) or not metrics or not all(isinstance(m, str) for m in metrics):
        raise TypeError(f"metrics must be a non-empty list of metric names such as ['DPPL', 'DI'], got {metrics!r}")
    bad = [m for m in metrics if m not in AUDIT_METRICS]
    if bad:
        raise ValueError(f"metrics: {bad!r} cannot be audited; choose from {list(AUDIT_METRICS)}")
    post = [m for m in metrics if m not in PRETRAINING]
    if post and predicted is None:
        raise ValueError(f"metrics {post!r} compare predictions: give predicted=<column of predicted labels>")
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"metrics lists a metric twice: {metrics!r}")
    return list(metrics)


def _check_margins(margin: Any, metrics: list[str]) -> dict[str, float]:
    if isinstance(margin, Mapping):
        missing = [m for m in metrics if m not in margin]
        if missing:
            raise ValueError(f"margin: no margin for {missing!r} (give one per audited metric, or one number)")
        return {m: check_margin(margin[m], f"margin[{m!r}]") for m in metrics}
    value = check_margin(margin)
    return dict.fromkeys(metrics, value)


# ----------------------------------------------------------------------------- the one group-by
def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _count_pandas(df: pd.DataFrame, columns: list[str], checked: list[tuple[str, str]], label: str,
                  predicted: str | None, threshold: float | None) -> Cells:  # fmt: skip
    """pandas' own group-by over the key columns (rows with a missing key value counted, then left out)."""
    missing: dict[str, int] = {}
    drop = np.zeros(len(df), dtype=bool)
    for _, col in checked:
        s = df[col]
        if isinstance(s.dtype, np.dtype) and s.dtype.kind in "biu":
            continue
        m = s.isna().to_numpy(dtype=bool)
        if m.any():
            missing[col] = int(m.sum())
            drop |= m
    dropped = int(drop.sum())
    if dropped:
        df = df.loc[~drop]
    by = {spark_engine.key_name(i): df[c] for i, c in enumerate(columns)}
    for k, col in (("_l", label), ("_p", predicted)):
        if col is not None:
            by[k] = df[col] > threshold if threshold is not None else df[col]
    sizes = df.groupby(list(by.values()), sort=False, observed=True, dropna=False).size()
    index = sizes.index if isinstance(sizes.index, pd.MultiIndex) else pd.MultiIndex.from_arrays([sizes.index])
    keys = {name: [_plain(v) for v in index.get_level_values(i)] for i, name in enumerate(by)}
    return Cells(keys, [int(n) for n in sizes.to_numpy()], missing, dropped)


def _count_narwhals(frame: Any, columns: list[str], checked: list[tuple[str, str]], label: str,
                    predicted: str | None, threshold: float | None) -> Cells:  # fmt: skip
    """One narwhals group-by (polars, pyarrow, DuckDB, Dask…), as :mod:`.engines.narwhals`."""
    import narwhals as nw

    from .engines.narwhals import group_count

    keys: dict[str, Any] = {spark_engine.key_name(i): nw.col(c) for i, c in enumerate(columns)}
    for k, col in (("_l", label), ("_p", predicted)):
        if col is not None:
            keys[k] = nw.col(col) > threshold if threshold is not None else nw.col(col)
    return group_count(frame, keys, checked, convert=_plain)


def _count(frame: Any, native: Any, columns: list[str], checked: list[tuple[str, str]], label: str,
           predicted: str | None, threshold: float | None) -> Cells:  # fmt: skip
    impl = frame.implementation
    if impl.is_pandas():
        return _count_pandas(native, columns, checked, label, predicted, threshold)
    if impl.is_pyspark() or impl.is_pyspark_connect():
        return spark_engine.count_keys(native, columns, checked, label=label, predicted=predicted, threshold=threshold)
    return _count_narwhals(frame, columns, checked, label, predicted, threshold)


# ----------------------------------------------------------------------------- the audit
def _describe(v: Any) -> str:
    return " & ".join(map(str, v)) if isinstance(v, tuple) else str(v)


def _sort_key(v: Any) -> tuple[str, Any]:
    return (type(v).__name__, v)


def audit(
    data: Any,
    *,
    label: str,
    positive_values: Sequence[Any] | None = None,
    facets: str | Sequence[str],
    predicted: str | None = None,
    intersections: bool = False,
    metrics: Sequence[str] | None = None,
    margin: float | Mapping[str, float],
    confidence: float = 0.95,
    reference: Mapping[str, Any] | None = None,
    simultaneous: bool = True,
    label_threshold: float | None = None,
    prior: str | float = "uniform",
    n_samples: int = DEFAULT_SAMPLES,
    random_state: Any = 0,
    tolerance: float = DEFAULT_TOLERANCE,
    dropna: bool = False,
) -> Audit:
    r"""Audit every group of every facet for bias beyond ``margin``, with simultaneous intervals.

    Parameters
    ----------
    data : DataFrame-like
        pandas or polars DataFrame, pyarrow Table, DuckDB relation, Dask or
        PySpark DataFrame. Counting happens in that engine, in one group-by.
    label : str
        Label column.
    positive_values : list, optional
        Label values that count as positive (exactly one of this and
        ``label_threshold``); predictions are binarised the same way.
    facets : str or list of str
        Facet columns. Every value of each is audited against the rest.
    predicted : str, optional
        Predicted-label column; needed for the post-training metrics.
    intersections : bool, default False
        Also audit every combination of two facet columns (facet
        ``"sex & race"``, group ``"Female & Black"``). Combinations that never
        occur are skipped and listed in ``notes``.
    metrics : list of str, optional
        Metrics to judge (:data:`AUDIT_METRICS`); default all of them (the
        pre-training ones only when ``predicted`` is not given).
    margin : float or dict
        Half-width of the band of immaterial values around each metric's
        no-bias value (1 for DI, 0 otherwise); finite and > 0. One number for
        every metric or a dict metric → margin.
    confidence : float, default 0.95
        Joint coverage of all the intervals of the audit.
    reference : dict, optional
        Facet column → reference value: each other value of that facet is
        compared with the reference group instead of the rest (the reference
        group gets no row). An intersection of two facets with references is
        compared with the combination of both references; facets without a
        reference stay one-vs-rest.
    simultaneous : bool, default True
        Bonferroni-simultaneous intervals (the audit's intervals hold together
        with probability ``confidence``). ``False`` gives every row its own
        ``confidence`` interval, which is only useful to show what the
        correction changes: with m rows, about ``m·(1 − confidence)`` of those
        intervals miss.
    label_threshold : float, optional
        Positive label = ``label > label_threshold`` (numeric labels).
    prior, n_samples, random_state, tolerance, dropna
        As in :func:`confusionlab.bias.report`.

    Returns
    -------
    Audit
        A DataFrame with columns ``facet, group, metric, value, lower, upper,
        verdict`` (group as text), one row per (group, metric); ``value`` and
        the interval are NaN where the metric is undefined.

    Raises
    ------
    ValueError
        A facet (or label, predicted) column missing; ``margin`` ≤ 0 or NaN;
        a metric that cannot be audited; a reference value that does not occur;
        missing values without ``dropna=True``; data without rows.
    TypeError
        Arguments of the wrong type.

    Notes
    -----
    With m rows, row i's interval :math:`I_i` is the report's central
    interval at level :math:`1 - (1 - c)/m`; by Bonferroni's inequality
    :math:`P(\text{every } I_i \ni \theta_i) \ge 1 - \sum_i (1-c)/m = c`, so the
    verdicts hold jointly. The verdict is "bias" when :math:`I_i` lies
    entirely outside :math:`[v_0 - \text{margin}, v_0 + \text{margin}]`, "no
    material bias" when entirely inside, "insufficient evidence" otherwise —
    a small group (wide interval) is never called fair.

    Where a metric's uncertainty is a Monte Carlo sample (``n_samples`` draws,
    see :mod:`.uncertainty`), an interval end at a tail level below about
    ``1/n_samples`` is an extreme draw: raise ``n_samples`` for very many rows.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({
    ...     "y":   [1, 0] * 300 + [1, 0, 0] * 100 + [1, 1, 0],
    ...     "p":   [1, 0] * 300 + [0, 0, 0] * 100 + [1, 1, 0],
    ...     "sex": ["M"] * 600 + ["F"] * 303,
    ...     "age": ["young"] * 300 + ["old"] * 600 + ["young"] * 3})
    >>> a = audit(df, label="y", positive_values=[1], predicted="p", facets=["sex", "age"],
    ...           metrics=["DPPL", "RD"], margin=0.1)
    >>> a[["facet", "group", "metric", "verdict"]].head(4)
      facet group metric    verdict
    0   sex     F   DPPL       bias
    1   sex     F     RD       bias
    2   sex     M   DPPL       bias
    3   sex     M     RD       bias
    >>> round(a.level, 4)       # 8 rows: each interval at 1 - 0.05/8
    0.9938
    >>> a.counts()
    {'bias': 8, 'no material bias': 0, 'insufficient evidence': 0}
    """
    opts = _options("all", "binary", prior, n_samples, random_state, tolerance)
    opts.pop("stage")
    columns = _check_facets(facets)
    metric_names = _check_metrics(metrics, predicted)
    margins = _check_margins(margin, metric_names)
    confidence = check_confidence(confidence)
    for arg, flag in (("intersections", intersections), ("simultaneous", simultaneous)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{arg} must be True or False, got {flag!r}")
    if not isinstance(dropna, (bool, np.bool_)):
        raise TypeError(f"dropna must be True or False, got {dropna!r}")
    if not isinstance(label, str):
        raise TypeError(f"label must be a column name, got {label!r}")
    if predicted is not None and not isinstance(predicted, str):
        raise TypeError(f"predicted must be a column name, got {predicted!r}")
    if reference is not None and not isinstance(reference, Mapping):
        raise TypeError(f"reference must be a dict facet column → reference value, got {reference!r}")
    reference = dict(reference or {})
    unknown = [c for c in reference if c not in columns]
    if unknown:
        raise ValueError(f"reference names {unknown!r}, which are not among facets {columns!r}")
    lsel = label_selection(positive_values, label_threshold)
    if label in columns or (predicted is not None and predicted in columns):
        raise ValueError(f"facets {columns!r} must not include the label or predicted column")

    native = data
    frame = to_narwhals(data)
    if not spark_engine.is_spark(data):
        import narwhals as nw

        native = nw.to_native(frame)
    check_columns(frame, label=label, facets=columns, predicted=predicted)
    schema = frame.collect_schema()
    for arg, col in (("label", label), ("predicted", predicted)):
        if lsel.threshold is not None and col is not None and not schema[col].is_numeric():
            raise TypeError(f"{arg}: column {col!r} is {schema[col]}, not numeric; label_threshold needs numbers")
    checked = [("label", label), *(("facets", c) for c in columns)]
    if predicted is not None:
        checked.append(("predicted", predicted))
    cells = _count(frame, native, columns, checked, label, predicted, lsel.threshold)
    if cells.missing and not dropna:
        parts = [
            f"{arg}: column {col!r} has {k} missing value{'s' if k != 1 else ''}"
            for arg, col in checked
            if (k := cells.missing.get(col, 0))
        ]
        raise ValueError(
            "; ".join(parts) + " (None/NaN/<NA>); missing values are never a category: drop or fill them first, "
            "or pass dropna=True to leave those rows out"
        )
    if sum(cells.n) == 0:
        raise ValueError("data has no rows" + (" left after dropna=True" if cells.dropped else ""))

    # Combinations of facet values → a dense (G, L, P) table through the report's own assembly.
    combos = list(zip(*(cells.keys[spark_engine.key_name(i)] for i in range(len(columns))), strict=True))
    combo_ids = {c: i for i, c in enumerate(dict.fromkeys(combos))}
    as_cells = Cells(
        {"_f": [False] * len(combos), "_l": cells.keys["_l"], "_g": [combo_ids[c] for c in combos]}
        | ({"_p": cells.keys["_p"]} if predicted is not None else {}),
        cells.n,
    )
    request = CountRequest(label, lsel, FacetSelection(tuple(columns), ()), predicted, "_combo")
    float_pred = predicted is not None and schema[predicted].is_float() and not schema[label].is_float()
    table = _assemble(as_cells, request, float_predictions=float_pred)
    by_combo = table.counts[:, 0]  # (G, L, P); groups are the combo ids in order
    combo_of = list(combo_ids)
    values_of = [sorted({c[i] for c in combo_of}, key=_sort_key) for i in range(len(columns))]
    for col, ref in reference.items():
        i = columns.index(col)
        if ref not in values_of[i]:
            raise ValueError(
                f"reference: value {ref!r} does not occur in facet column {col!r} (values: {values_of[i][:20]!r})"
            )

    # Audit groups: (facet name, group label, member mask, comparison mask).
    groups: list[tuple[str, str, np.ndarray, np.ndarray]] = []
    notes: list[str] = []

    def member(i: int, v: Any) -> np.ndarray:
        return np.array([c[i] == v for c in combo_of], dtype=bool)

    for i, col in enumerate(columns):
        for v in values_of[i]:
            d = member(i, v)
            if col in reference:
                if v == reference[col]:
                    continue
                a = member(i, reference[col])
            else:
                a = ~d
            groups.append((col, _describe(v), d, a))
    if intersections:
        for i, j in itertools.combinations(range(len(columns)), 2):
            name = f"{columns[i]} & {columns[j]}"
            present = {(c[i], c[j]) for c in combo_of}
            empty = []
            for v, w in itertools.product(values_of[i], values_of[j]):
                if (v, w) not in present:
                    empty.append(_describe((v, w)))
                    continue
                d = member(i, v) & member(j, w)
                if columns[i] in reference and columns[j] in reference:
                    ref = (reference[columns[i]], reference[columns[j]])
                    if (v, w) == ref:
                        continue
                    a = member(i, ref[0]) & member(j, ref[1])
                else:
                    a = ~d
                groups.append((name, _describe((v, w)), d, a))
            if empty:
                notes.append(f"{name}: no rows for {', '.join(empty)} (skipped)")

    m = len(groups) * len(metric_names)
    level = 1.0 - (1.0 - confidence) / max(m, 1) if simultaneous else confidence

    def judge(group: tuple[str, str, np.ndarray, np.ndarray]) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
        facet_name, label_text, d, a = group
        counts = np.stack([by_combo[a].sum(axis=0), by_combo[d].sum(axis=0)])[None]
        t = CountTable(counts, table.label_values, table.label_positive, None, predicted is not None)
        size = {
            "facet": facet_name,
            "group": label_text,
            "n": int(counts[0, 1].sum()),
            "n_compared": int(counts[0, 0].sum()),
        }
        found = _metrics(t, opts, metric_names, f"{facet_name} = {label_text}")
        out_rows, out_notes = [], []
        for name in metric_names:
            bm = found[name]
            if bm.value is None:
                lo = hi = math.nan
                verdict = "insufficient evidence"
                out_notes.append(f"{facet_name} = {label_text}, {name}: {bm.error}")
            else:
                lo, hi = bm.interval(level)
                verdict = verdict_of(lo, hi, bm.no_bias, margins[name])
            out_rows.append(
                {
                    "facet": facet_name,
                    "group": label_text,
                    "metric": name,
                    "value": math.nan if bm.value is None else float(bm.value),
                    "lower": float(lo),
                    "upper": float(hi),
                    "verdict": verdict,
                }
            )
        return size, out_rows, out_notes

    rows: list[dict[str, Any]] = []
    sizes: list[dict[str, Any]] = []
    # Groups are independent (each its own draws from the same seed), so they are judged on a few
    # threads (numpy's random generators and array loops release the GIL); results keep the audit order.
    workers = min(_WORKERS, len(groups))
    if workers > 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            judged = list(pool.map(judge, groups))
    else:
        judged = [judge(g) for g in groups]
    for size, group_rows, group_notes in judged:
        sizes.append(size)
        rows.extend(group_rows)
        notes.extend(group_notes)
    out = Audit(pd.DataFrame(rows, columns=list(COLUMNS)))
    out.confidence = confidence
    out.level = level
    out.margin = margins
    out.no_bias = {mname: (1.0 if mname == "DI" else 0.0) for mname in metric_names}
    out.sizes = pd.DataFrame(sizes, columns=["facet", "group", "n", "n_compared"])
    out.notes = notes
    return out


def _metrics(t: CountTable, opts: dict[str, Any], names: list[str], what: str) -> dict[str, BiasMetric]:
    """The report's metrics for one comparison, their posteriors computed family by family.

    Metrics resting on the same counts (DPL and the KL family on the label
    counts, DPPL and DI on the prediction counts, DCA … TE on the confusion
    counts) share one lattice or one set of draws
    (:meth:`~.evaluator.Evaluator.share_posteriors`), which gives each exactly
    the report's distribution.
    """
    ev = Evaluator(t, **opts, facet_text=what)
    found = dict(ev.pre(False)) if any(n in PRETRAINING for n in names) else {}
    if t.has_predictions and any(n not in PRETRAINING for n in names):
        found.update(ev.post(False))
    ev.share_posteriors(found, names)
    return found


# ----------------------------------------------------------------------------- the auditor's page
_COLOURS = {"bias": "#d6604d", "no material bias": "#4393c3", "insufficient evidence": "#bdbdbd"}


def _fmt(x: float) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.4g}"


def _html_page(a: Audit, title: str) -> str:
    e = html.escape
    df = pd.DataFrame(a)
    metrics = list(dict.fromkeys(df["metric"]))
    counts = a.counts()
    grid = a.verdict_table()
    head = "".join(f"<th title='{e(DESCRIPTIONS.get(m, m))}'>{e(m)}</th>" for m in metrics)
    body = []
    sizes = {(r.facet, r.group): (r.n, r.n_compared) for r in a.sizes.itertuples()}
    for (facet, group), verdicts in grid.iterrows():
        n, n_c = sizes.get((facet, group), (0, 0))
        cells = "".join(
            f"<td style='background:{_COLOURS.get(v, '#fff')}' title='{e(str(v))}'>{e(_short(v))}</td>"
            for v in verdicts
        )
        body.append(f"<tr><th>{e(str(facet))}</th><th>{e(str(group))}</th><td>{n:,}</td><td>{n_c:,}</td>{cells}</tr>")
    detail = []
    for r in df.itertuples():
        band = (a.no_bias[r.metric] - a.margin[r.metric], a.no_bias[r.metric] + a.margin[r.metric])
        detail.append(
            f"<tr><td>{e(r.facet)}</td><td>{e(r.group)}</td><td>{e(r.metric)}</td><td>{_fmt(r.value)}</td>"
            f"<td>[{_fmt(r.lower)}, {_fmt(r.upper)}]</td><td>[{_fmt(band[0])}, {_fmt(band[1])}]</td>"
            f"<td style='background:{_COLOURS[r.verdict]}'>{e(r.verdict)}</td></tr>"
        )
    notes = "".join(f"<li>{e(n)}</li>" for n in a.notes) or "<li>none</li>"
    m = len(df)
    margins = ", ".join(f"{e(k)} ± {v:g} around {a.no_bias[k]:g}" for k, v in a.margin.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #212121; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #e0e0e0; padding: 3px 8px; text-align: left; }}
td {{ font-variant-numeric: tabular-nums; }}
.legend span {{ display: inline-block; padding: 2px 8px; margin-right: 6px; }}
</style></head><body>
<h1>{e(title)}</h1>
<p>The question: for each group and each bias metric, is the difference from the rest (or from the
reference group) larger than the margin the auditor accepts as immaterial? Each metric is judged on its
posterior predictive interval (the value it would take on a new sample of the same group sizes).</p>
<p><b>Rule.</b> Interval entirely outside the band no-bias ± margin → <i>bias</i>; entirely inside →
<i>no material bias</i>; otherwise → <i>insufficient evidence</i>. Margins: {margins}.</p>
<p><b>Simultaneous intervals.</b> {m} verdicts; each interval is at level 1 − (1 − {a.confidence:g})/{m}
= {a.level:.6g} (Bonferroni), so all {m} intervals hold together with probability at least
{a.confidence:g}.</p>
<p class="legend">{"".join(f"<span style='background:{c}'>{e(v)}: {counts[v]}</span>" for v, c in _COLOURS.items())}</p>
<h2>Verdicts</h2>
<table><tr><th>facet</th><th>group</th><th>n</th><th>compared with</th>{head}</tr>
{"".join(body)}</table>
<h2>Every row</h2>
<table><tr><th>facet</th><th>group</th><th>metric</th><th>value</th><th>simultaneous interval</th>
<th>band</th><th>verdict</th></tr>
{"".join(detail)}</table>
<h2>Notes</h2><ul>{notes}</ul>
</body></html>
"""


def _short(v: Any) -> str:
    return {"bias": "bias", "no material bias": "fair", "insufficient evidence": "?"}.get(v, str(v))
