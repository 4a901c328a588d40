"""Fairness audits that hold up: every group, every metric, one defensible verdict each.

:func:`audit` answers, for every value of every facet column (and, with
``intersections=True``, every combination of two facet columns), and for every
count-based bias metric: is there bias beyond a stated margin, no material
bias, or too little evidence to say?

How it is computed
------------------
1. **One group-by** over all facet columns, the label and the prediction, in the
   engine that holds the data, through the counting call every report uses
   (:func:`._request.count_cells`: pandas, numpy codes and one ``bincount``; Dask,
   that on every partition; polars, pyarrow, DuckDB, one narwhals group-by;
   Spark, one ``groupBy(...).count()``). Only that small table of facet
   combinations comes back; every group below is a sum of its rows.
2. Each audit row compares facet *d* (the group) with facet *a* (the rest of
   the data, Clarify's one-vs-rest, or a chosen ``reference`` group, fairlearn's
   habit) through the same :class:`~.counts.CountTable` and
   :class:`~.evaluator.Evaluator` as :func:`~.report.report`, so a row's value
   and interval are the report's for that facet value.
3. **Simultaneous intervals** (Bonferroni): with m rows, each row's interval is
   the central interval at level ``1 − (1 − confidence)/m``; all m intervals
   then cover their metrics together with probability at least ``confidence``.
4. The **verdict** of each row is :func:`~.results.verdict_of` of that interval
   against ``no_bias ± margin`` (:meth:`~.results.BiasMetric.verdict`), kept only
   when a group of that size could have shown either verdict (``_reach``): else
   "insufficient evidence".

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
import warnings
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._deprecation import renamed_arguments
from .._result import Result, new_figure, page_path
from .._tables import Cells, check_columns, to_narwhals
from .._validation import (
    DEFAULT_TOLERANCE,
    InvalidParameterError,
    check_confidence,
    check_flag,
    check_instance,
    check_margin,
    check_memory,
    check_names,
    check_progress,
)
from ..palette import MISSING, THEME, VERDICT_COLOURS
from ._checks import check_column_names
from ._request import BiasRequest, facet_key
from .counts import CountTable, _assemble, counted_cells
from .evaluator import Evaluator
from .figures import SHORT_VERDICTS
from .report import _options
from .results import DESCRIPTIONS, POSTTRAINING, PRETRAINING, QUESTIONS, VERDICTS, BiasMetric, favoured, verdict_of
from .selection import FacetSelection, label_selection
from .uncertainty import DEFAULT_N_DRAWS, beta_pair_distributions, interval_mc_error

__all__ = ["AUDIT_METRICS", "COLUMNS", "DEFAULT_METRICS", "FRAME_METHODS", "Audit", "audit"]

#: Metrics an audit can judge: every count-based comparison of two facets (GE is not a
#: comparison, CDDL/CDDPL need a subgroup column and FT the features).
AUDIT_METRICS = tuple(m for m in (*PRETRAINING, *POSTTRAINING) if m not in ("CDDL", "CDDPL", "FT", "GE"))
_PRE = tuple(m for m in AUDIT_METRICS if m in PRETRAINING)

#: What an audit judges without ``metrics=``: how the groups are *treated*, not how large they are
#: (CI measures a group's share of the data, so every group but the one near half would be "bias";
#: the KL family on a binary label restates DPL). With predictions: the positive-prediction rate
#: (DPPL, demographic parity), recall (RD, equal opportunity), specificity (SD, the false-positive
#: side of equalised odds) and accuracy (AD); labels only: the positive-label rate (DPL).
DEFAULT_METRICS = {"post": ("DPPL", "RD", "SD", "AD"), "pre": ("DPL",)}

#: Columns of an :class:`Audit`, in order.
COLUMNS = ("facet", "group", "metric", "value", "lower", "upper", "verdict", "target")

#: Threads judging groups at once (the intervals of a group are numpy work that releases the GIL).
_WORKERS = min(4, os.cpu_count() or 1)

#: Most combinations of facet values an audit accepts (the count table is dense in them);
#: more are refused as soon as the counts come back.
MAX_COMBINATIONS = 1_000_000


class Audit(Result):
    """The result of :func:`audit`: one row per (facet, group, metric), each with its verdict.

    A result of the library's protocol that holds a table: :meth:`to_frame` gives
    the plain DataFrame with columns ``facet, group, metric, value, lower, upper,
    verdict, target`` (see :data:`COLUMNS`), ``lower``/``upper`` being the simultaneous
    interval of each row and ``target`` the question it answers. The common uses of a DataFrame work on the audit itself
    and act on that table: ``len``, iteration over the column names, ``in``,
    ``audit["verdict"]`` (a Series), ``audit[["group", "verdict"]]`` (a DataFrame),
    ``audit[mask]`` (an Audit of those rows, with the same attributes), the columns
    as attributes (``audit.verdict``; but ``audit.value`` is the protocol's mapping,
    the column is ``audit["value"]``, and ``audit.target`` the audit's question, the
    column ``audit["target"]``), ``.columns``, ``.index``, ``.shape``,
    ``.loc``, ``.iloc`` and read-only methods such as ``groupby``, ``itertuples``,
    ``query``, ``merge``, ``set_index``, ``head`` (:data:`FRAME_METHODS`), which
    return plain pandas objects. ``pandas.DataFrame(audit)`` does not: use
    ``audit.to_frame()``.

    Attributes
    ----------
    confidence : float
        Joint coverage of all the intervals.
    level : float
        Level of each row's interval, ``1 − (1 − confidence)/m`` for m rows
        (``confidence`` itself with ``simultaneous=False``).
    margin : dict
        Metric → half-width of the no-material-bias band.
    no_bias : dict
        Metric → its no-bias value (1 for DI, 0 for the others).
    sizes : DataFrame
        Per (facet, group): ``n`` rows in the group and ``n_compared`` rows it
        is compared with (the rest, or the reference group).
    notes : list of str
        Skipped combinations and rows that could not be compared, in words.
    simultaneous : bool
        Whether the intervals are Bonferroni-simultaneous.
    target : str
        The question the intervals answer: ``"true_value"`` (the true disparity in
        the population) or ``"next_test_set"`` (a new sample of the same sizes).
    reference : dict
        Facet column → the reference group its other values are compared with
        (facets not in it: each group against the rest of the data).
    n_draws : int
        Monte Carlo draws per group behind the intervals that are not exact.
    value : dict
        ``(facet, group, metric)`` → the row's value (NaN where the metric is
        undefined); :meth:`interval` is keyed the same way.

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
    >>> a.value[("sex", "F", "DPPL")]
    0.0
    >>> len(a), list(a.verdict)
    (2, ['no material bias', 'no material bias'])
    """

    title = "Fairness audit"

    def __init__(
        self,
        frame: pd.DataFrame,
        *,
        confidence: float,
        level: float,
        margin: dict[str, float],
        no_bias: dict[str, float],
        sizes: pd.DataFrame,
        notes: list[str],
        simultaneous: bool = True,
        n_verdicts: int | None = None,
        metrics: Mapping[tuple[str, str, str], BiasMetric] | None = None,
        target: str = "true_value",
        reference: Mapping[str, Any] | None = None,
        mc_errors: Mapping[tuple[str, str, str], float] | None = None,
        n_draws: int = DEFAULT_N_DRAWS,
    ) -> None:
        self._frame = frame
        self.target = target
        self.reference = dict(reference or {})
        self.n_draws = n_draws
        self._mc_errors = dict(mc_errors or {})
        self.confidence = confidence
        self.level = level
        self.margin = margin
        self.no_bias = no_bias
        self.sizes = sizes
        self.notes = notes
        self.simultaneous = simultaneous
        self._n_verdicts = len(frame) if n_verdicts is None else n_verdicts  # m of the Bonferroni correction
        self._bias_metrics = dict(metrics or {})  # row key → its metric, to judge at another confidence

    def _with_rows(self, frame: pd.DataFrame) -> Audit:
        """An audit of some of these rows (same attributes, same Bonferroni m)."""
        return Audit(
            frame,
            confidence=self.confidence,
            level=self.level,
            margin=self.margin,
            no_bias=self.no_bias,
            sizes=self.sizes,
            notes=self.notes,
            simultaneous=self.simultaneous,
            n_verdicts=self._n_verdicts,
            metrics=self._bias_metrics,
            target=self.target,
            reference=self.reference,
            mc_errors=self._mc_errors,
            n_draws=self.n_draws,
        )

    # -- the audit's own questions ------------------------------------------------------------
    def verdict_table(self) -> pd.DataFrame:
        """Verdicts as a grid: rows (facet, group) in audit order, columns metrics."""
        df = self._frame
        order = list(dict.fromkeys(zip(df["facet"], df["group"], strict=True)))
        grid = df.pivot(index=["facet", "group"], columns="metric", values="verdict")
        grid = grid.reindex(pd.MultiIndex.from_tuples(order, names=["facet", "group"]))
        return grid[list(dict.fromkeys(df["metric"]))]

    def mc_error(self) -> pd.Series:
        """Per row (facet, group, metric): how far its interval ends may move with another ``random_state``.

        0 for exact intervals; for Monte Carlo ones, the distribution-free error of
        :func:`~confusionlab.bias.uncertainty.interval_mc_error` at the audit's level.
        """
        df = self._frame
        keys = list(zip(df.facet, df.group, df.metric, strict=True))
        index = pd.MultiIndex.from_tuples(keys, names=["facet", "group", "metric"])
        return pd.Series([self._mc_errors.get(k, math.nan) for k in keys], index=index, name="mc_error")

    def fragile(self) -> pd.DataFrame:
        """Rows whose verdict could change with another ``random_state``: an interval end within its
        Monte Carlo error of an edge of the band."""
        df = self._frame
        err = self.mc_error().to_numpy()
        lo_band = np.array([self.no_bias[m] - self.margin[m] for m in df.metric])
        hi_band = np.array([self.no_bias[m] + self.margin[m] for m in df.metric])
        ends = np.stack([df.lower.to_numpy(), df.upper.to_numpy()])
        near = np.zeros(len(df), dtype=bool)
        for edge in (lo_band, hi_band):
            near |= (np.abs(ends - edge) <= err).any(axis=0)
        return df[near & (err > 0)].copy()

    def compared_with(self, facet: str) -> str:
        """Whom the groups of ``facet`` (one of the audit's facets) are compared with, in words."""
        check_instance(facet, "facet", str, "a facet of the audit")
        facets = list(dict.fromkeys(self._frame["facet"]))
        if facet not in facets:
            raise InvalidParameterError(f"facet {facet!r} is not a facet of this audit (its facets: {facets!r})")
        parts = facet.split(" & ")
        refs = [self.reference.get(p) for p in parts]
        if all(r is not None for r in refs) and refs:
            return "the reference group " + " & ".join(str(r) for r in refs)
        return "the rest of the data (everyone not in the group)"

    def favoured(self) -> pd.Series:
        """Per row: who the value favours — ``"group"``, ``"compared"`` (the rest or the reference) — or ``""``.

        The positive label is read as the favourable outcome; unsigned metrics and
        values at no bias favour no one (:func:`~confusionlab.bias.results.favoured`).
        """
        df = self._frame
        side = [favoured(m, v, self.no_bias[m]) for m, v in zip(df.metric, df.value, strict=True)]
        text = ["group" if s == "d" else "compared" if s == "a" else "" for s in side]
        return pd.Series(text, index=df.index, name="favoured")

    def counts(self) -> dict[str, int]:
        """How many rows got each verdict."""
        s = pd.Series(np.asarray(self._frame["verdict"]))
        return {v: int((s == v).sum()) for v in VERDICTS}

    # -- the result protocol ------------------------------------------------------------------
    @property
    def value(self) -> dict[tuple[str, str, str], float]:
        """``(facet, group, metric)`` → the row's value (NaN where the metric is undefined)."""
        df = self._frame
        return {(f, g, m): float(v) for f, g, m, v in zip(df.facet, df.group, df.metric, df.value, strict=True)}

    def _level(self, confidence: float) -> float:
        return 1.0 - (1.0 - confidence) / max(self._n_verdicts, 1) if self.simultaneous else confidence

    def interval(self, confidence: float = 0.95) -> dict[tuple[str, str, str], tuple[float, float]]:
        """``(facet, group, metric)`` → the row's interval, the intervals holding together at ``confidence``.

        At the audit's own confidence these are its ``lower``/``upper`` columns; at
        another one each row's posterior is computed again and its central interval
        taken at the Bonferroni level for that joint coverage (``confidence`` itself
        for an audit with ``simultaneous=False``). Rows without a value give
        ``(nan, nan)``.
        """
        confidence = check_confidence(confidence)
        df = self._frame
        keys = list(zip(df.facet, df.group, df.metric, strict=True))
        if confidence == self.confidence:
            return {k: (float(lo), float(hi)) for k, lo, hi in zip(keys, df.lower, df.upper, strict=True)}
        return {k: v[0] for k, v in self._recomputed(confidence).items()}

    def _recomputed(self, confidence: float) -> dict[tuple[str, str, str], tuple[tuple[float, float], float]]:
        """Row → (its interval at the Bonferroni level for joint coverage ``confidence``, that end's MC error)."""
        df = self._frame
        keys = list(zip(df.facet, df.group, df.metric, strict=True))
        level = self._level(confidence)
        out = {}
        for k in keys:
            metric = self._bias_metrics.get(k)
            dist = metric._posterior() if metric is not None and metric._posterior is not None else None
            if dist is None:  # not cached: memory stays flat
                out[k] = ((math.nan, math.nan), math.nan)
            else:
                out[k] = (dist.interval(level), interval_mc_error(dist, level))
        return out

    def _judged_at(self, confidence: float) -> Audit:
        """This audit with every interval and verdict decided at joint coverage ``confidence``."""
        if confidence == self.confidence:
            return self
        again = self._recomputed(confidence)
        df = self._frame.copy()
        keys = list(zip(df.facet, df.group, df.metric, strict=True))
        ends = [again[k][0] for k in keys]
        df["lower"] = [lo for lo, _ in ends]
        df["upper"] = [hi for _, hi in ends]
        df["verdict"] = [
            "insufficient evidence" if math.isnan(lo) else verdict_of(lo, hi, self.no_bias[m], self.margin[m])
            for (lo, hi), m in zip(ends, df.metric, strict=True)
        ]
        judged = self._with_rows(df)
        judged.confidence, judged.level = confidence, self._level(confidence)
        judged._mc_errors = {k: again[k][1] for k in keys if k in self._mc_errors}
        return judged

    def to_frame(self) -> pd.DataFrame:
        """The audit's rows as a plain pandas DataFrame (a copy): the columns of :data:`COLUMNS`."""
        return self._frame.copy()

    def summary(self, confidence: float = 0.95) -> str:
        """How many rows got each verdict, with intervals holding together at ``confidence``."""
        confidence = check_confidence(confidence)
        judged = self._judged_at(confidence)
        counts = judged.counts()
        each = "each interval" if self.simultaneous else "each interval, not corrected for the others,"
        worst = np.nanmax(judged.mc_error().to_numpy()) if judged._mc_errors else 0.0
        mc = (
            f" Monte Carlo intervals ({self.n_draws:,} draws) have ends within ±{worst:.2g} of their exact "
            "values; "
            f"{len(judged.fragile())} verdicts lie that close to a band edge."
            if worst > 0
            else ""
        )
        return (
            f"The question: {QUESTIONS[self.target]}. "
            f"{len(self)} verdicts ({each} at level {judged.level:.6g}, joint coverage {confidence:g}): "
            + ", ".join(f"{n} {v}" for v, n in counts.items())
            + "."
            + mc
        )

    def plot(self, ax: Any = None) -> Any:
        """The verdict grid: groups × metrics, each cell coloured by its verdict. Returns the Figure."""
        from .figures import draw_verdict_grid

        grid = self.verdict_table()
        fig, ax = new_figure(ax, figsize=(1.2 * len(grid.columns) + 4.5, 0.32 * len(grid) + 1.4))
        draw_verdict_grid(ax, grid, title=f"Verdicts, intervals at joint coverage {self.confidence:g}")
        return fig

    def to_html(self, path: str | Path | None = None, *, confidence: float = 0.95, **old: Any) -> str:
        """The auditor's report: a self-contained HTML page (no script, no network).

        It states the question, the rule and the Bonferroni level, shows the
        verdict grid (groups × metrics, coloured), each row's value and
        simultaneous interval against its band, the group sizes and the notes.

        Parameters
        ----------
        path : str or Path, optional
            Where to write the page (UTF-8). Without it the page is only returned.
        confidence : float, default 0.95
            Joint coverage of the intervals on the page. At the audit's own
            confidence (the usual case) the page shows the audit as it is; at
            another one every interval and verdict is decided again at that
            coverage (the posteriors are computed again).

        Returns
        -------
        str
            The HTML text.
        """
        title = self.title
        if "title" in old:
            warnings.warn(
                "Audit.to_html(title=...) is deprecated: the page's heading is Audit.title; the keyword will "
                "stop working in the next release",
                FutureWarning,
                stacklevel=2,
            )
            title = str(old.pop("title"))
        if old:
            raise InvalidParameterError(f"Audit.to_html() got unexpected keyword arguments {sorted(old)}")
        path = page_path(path)
        page = _html_page(self._judged_at(check_confidence(confidence)), title)
        if path is not None:
            path.write_text(page, encoding="utf-8")
        return page

    # -- the DataFrame uses kept, by delegation to the rows -----------------------------------
    def __len__(self) -> int:
        return len(self._frame)

    def __iter__(self) -> Iterator[str]:
        return iter(self._frame)

    def __contains__(self, column: object) -> bool:
        return column in self._frame

    def __getitem__(self, key: Any) -> Any:
        """A column (Series), a list of columns (DataFrame), or rows by a boolean mask or slice (Audit)."""
        if isinstance(key, str) or (isinstance(key, list) and all(isinstance(k, str) for k in key)):
            return self._frame[key]
        rows = self._frame[key]
        return self._with_rows(rows) if list(rows.columns) == list(COLUMNS) else rows

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        frame = self.__dict__.get("_frame")
        if frame is not None and (name in COLUMNS or name in FRAME_METHODS):
            return getattr(frame, name)
        raise AttributeError(
            f"'Audit' object has no attribute {name!r} (it is not a DataFrame: audit.to_frame().{name} is)"
        )

    def __repr__(self) -> str:
        return repr(self._frame)


#: DataFrame attributes and read-only methods an :class:`Audit` answers from its rows (plain pandas results).
FRAME_METHODS = frozenset(
    {
        "apply", "columns", "copy", "describe", "drop", "dropna", "dtypes", "empty", "equals", "filter",
        "groupby", "head", "iloc", "index", "isna", "iterrows", "itertuples", "loc", "merge", "notna",
        "nunique", "pivot", "pivot_table", "query", "reset_index", "round", "set_index", "shape",
        "sort_values", "tail", "to_csv", "to_dict", "to_string", "value_counts",
    }
)  # fmt: skip


def _check_metrics(metrics: Any, predicted: str | None) -> list[str]:
    if metrics is None:
        return list(DEFAULT_METRICS["post" if predicted is not None else "pre"])
    names = check_names(metrics, "metrics", AUDIT_METRICS, "metric names such as ['DPPL', 'DI']")
    post = [m for m in names if m not in PRETRAINING]
    if post and predicted is None:
        raise InvalidParameterError(
            f"metrics {post!r} compare predictions: give predicted=<column of predicted labels>"
        )
    return names


def _check_margins(margin: Any, metrics: list[str]) -> dict[str, float]:
    """One margin per metric (:func:`~confusionlab._validation.check_margin`: finite, ≥ 0)."""
    if isinstance(margin, Mapping):
        missing = [m for m in metrics if m not in margin]
        if missing:
            raise InvalidParameterError(
                f"margin: no margin for {missing!r} (give one per audited metric, or one number)"
            )
        return {m: check_margin(margin[m], f"margin[{m!r}]") for m in metrics}
    value = check_margin(margin)
    return dict.fromkeys(metrics, value)


# ----------------------------------------------------------------------------- the audit
def _sort_key(v: Any) -> tuple[str, Any]:
    return (type(v).__name__, v)


def _texts(values: Sequence[Any]) -> list[str]:
    """The group labels of a column's values: ``str`` of each, ``repr`` where two values print alike.

    A column holding both ``1`` and ``"1"`` has two groups; their labels must differ.

    >>> _texts([1, "1", "a"])
    ['1', "'1'", 'a']
    """
    shown = [str(v) for v in values]
    seen: dict[str, int] = {}
    for t in shown:
        seen[t] = seen.get(t, 0) + 1
    out = [repr(v) if seen[t] > 1 else t for v, t in zip(values, shown, strict=True)]
    if len(set(out)) < len(out):  # values whose repr agree too (e.g. two objects): number them
        out = [f"{t} #{k}" for k, t in enumerate(out)]
    return out


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
#: row of the result; measured: about 10 kB), plus one block of :data:`_JUDGE_BLOCK` groups' true-value
#: distributions (about 1,400 atoms each) at a time.
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


def _empty_note(present: np.ndarray, first: list[str], second: list[str], n_empty: int, shown: int = 20) -> str:
    """``"no rows for A & x, B & y"``: the combinations that never occur (the first ``shown`` of them)."""
    width = len(second)
    have = set(present.tolist())
    names = []
    for code in range(len(first) * width):
        if code not in have:
            names.append(f"{first[code // width]} & {second[code % width]}")
            if len(names) == shown:
                break
    more = f" and {n_empty - shown:,} more" if n_empty > shown else ""
    return f"no rows for {', '.join(names)}{more}"


@renamed_arguments(n_samples="n_draws")
def audit(
    data: Any,
    *,
    label: str,
    positive_values: Sequence[Any] | None = None,
    label_threshold: float | None = None,
    facets: str | Sequence[str],
    predicted: str | None = None,
    dropna: bool = False,
    intersections: bool = False,
    metrics: Sequence[str] | None = None,
    margin: float | Mapping[str, float],
    confidence: float = 0.95,
    reference: Mapping[str, Any] | None = None,
    simultaneous: bool = True,
    prior: str | float = "uniform",
    n_draws: int | None = None,
    random_state: Any = 0,
    tolerance: float = DEFAULT_TOLERANCE,
    target: str = "true_value",
    progress: bool | None = None,
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
    label_threshold : float, optional
        Positive label = ``label > label_threshold`` (numeric labels).
    facets : str or list of str
        Facet columns. Every value of each is audited against the rest.
    predicted : str, optional
        Predicted-label column; needed for the post-training metrics.
    dropna : bool, default False
        As in :func:`confusionlab.bias.report`: rows with a missing label,
        facet or prediction are refused unless ``dropna=True`` leaves them out.
    intersections : bool, default False
        Also audit every combination of two facet columns (facet
        ``"sex & race"``, group ``"Female & Black"``). Combinations that never
        occur are skipped and listed in ``notes``.
    metrics : list of str, optional
        Metrics to judge (any of :data:`AUDIT_METRICS`). Default
        :data:`DEFAULT_METRICS`: how the groups are treated — with ``predicted``,
        DPPL, RD, SD and AD; without, DPL. CI is left out by default: it measures
        a group's share of the data, so nearly every group is "bias" on it.
    margin : float or dict
        Half-width of the band of immaterial values around each metric's
        no-bias value (1 for DI, 0 otherwise); finite and ≥ 0 (0 asks whether
        a metric is exactly its no-bias value). One number for every metric or
        a dict metric → margin.
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
    prior, random_state, tolerance
        As in :func:`confusionlab.bias.report`.
    n_draws : int, optional
        Monte Carlo draws per group where an interval is not exact (``n_samples``
        is its old name, still accepted with a FutureWarning). Default: about 100
        draws beyond each interval end at the Bonferroni level (20,000 to
        100,000, at most 4,000,000 over all groups), so the ends move little with
        ``random_state``; :meth:`Audit.mc_error` and the page state how little.
    target : {"true_value", "next_test_set"}, default "true_value"
        The question. ``"true_value"``: is the true disparity in the population
        beyond the margin? Each interval is the posterior of the metric's true
        value (each facet's true rates, Beta/Dirichlet of its counts + prior).
        ``"next_test_set"``: would a new sample of the same group sizes show it?
        (the posterior predictive interval of earlier releases, about √2 wider).
    progress : bool or None, default None
        A progress bar over the groups (tqdm's; None: only in an interactive session).

    Returns
    -------
    Audit
        One row per (group, metric) with columns ``facet, group, metric, value,
        lower, upper, verdict, target`` (group as text; :meth:`Audit.to_frame` gives
        them as a DataFrame); ``value`` and the interval are NaN where the
        metric is undefined.

    Raises
    ------
    InvalidParameterError
        Arguments of the wrong type or value (a ValueError and a TypeError): a
        facet (or label, predicted) column missing; ``margin`` negative or not
        finite; a metric that cannot be audited; a reference value that does
        not occur; more than :data:`MAX_AUDIT_ROWS` rows of work (groups × metrics, a row of
        a metric outside :data:`FAST_ROWS` or for the next test set counting
        :data:`SLOW_ROW_WEIGHT`), refused before any interval is computed.
    TooLargeError
        The audit's memory estimate is above :func:`confusionlab.set_memory_limit`'s limit.
    ValueError
        Missing values without ``dropna=True``; data without rows.

    See Also
    --------
    report : one facet, every metric, with each metric's own interval.
    plan_group_size : how many rows a group needs before an audit can call it fair.

    Notes
    -----
    With m rows judged (rows whose metric has a value; an undefined metric makes
    no claim), row i's interval :math:`I_i` is the report's central
    interval at level :math:`1 - (1 - c)/m`; by Bonferroni's inequality
    :math:`P(\text{every } I_i \ni \theta_i) \ge 1 - \sum_i (1-c)/m = c`, so the
    verdicts hold jointly. The verdict is "bias" when :math:`I_i` lies
    entirely outside :math:`[v_0 - \text{margin}, v_0 + \text{margin}]`, "no
    material bias" when entirely inside, "insufficient evidence" otherwise —
    a small group (wide interval) is never called fair.

    A verdict must be one the counts could have contradicted: the metric is also
    evaluated on the tables a group of the same size could hold against the same
    rest (its rows all in one cell, for each cell, and in the rest's proportions),
    and when those values all fall on one side of the band the verdict is
    "insufficient evidence" (with a note). A group of one row has a KS near 0.5
    and a smoothed JS below 0.1 whichever its row, so it gets no verdict on
    either; CI, which judges the group's size itself, keeps its verdict.

    Where a metric's uncertainty is a Monte Carlo sample (``n_draws`` draws,
    see :mod:`.uncertainty`), an interval end at a tail level below about
    ``1/n_draws`` is an extreme draw: raise ``n_draws`` for very many rows.

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
    opts = _options(
        prior=prior,
        n_draws=DEFAULT_N_DRAWS if n_draws is None else n_draws,
        random_state=random_state,
        tolerance=tolerance,
        target=target,
        progress=progress,
    )
    opts.pop("stage")
    columns = check_column_names(facets, "facets")
    metric_names = _check_metrics(metrics, predicted)
    margins = _check_margins(margin, metric_names)
    confidence = check_confidence(confidence)
    intersections = check_flag(intersections, "intersections")
    simultaneous = check_flag(simultaneous, "simultaneous")
    dropna = check_flag(dropna, "dropna")
    check_instance(label, "label", str, "a column name")
    if predicted is not None:
        check_instance(predicted, "predicted", str, "a column name")
    if reference is not None:
        check_instance(reference, "reference", Mapping, "a dict facet column → reference value")
    reference = dict(reference or {})
    unknown = [c for c in reference if c not in columns]
    if unknown:
        raise InvalidParameterError(f"reference names {unknown!r}, which are not among facets {columns!r}")
    lsel = label_selection(positive_values, label_threshold)
    if label in columns or (predicted is not None and predicted in columns):
        raise InvalidParameterError(f"facets {columns!r} must not include the label or predicted column")

    frame = to_narwhals(data)
    check_columns(frame, label=label, facets=columns, predicted=predicted)
    schema = frame.collect_schema()
    for arg, col in (("label", label), ("predicted", predicted)):
        if lsel.threshold is not None and col is not None and not schema[col].is_numeric():
            raise InvalidParameterError(
                f"{arg}: column {col!r} is {schema[col]}, not numeric; label_threshold needs numbers"
            )
    # One group-by over every facet column, in the engine, through the report's counting call.
    request = BiasRequest(label, lsel, None, predicted, dropna=dropna, facets=tuple(columns))
    cells = counted_cells(frame, request)

    # Combinations of facet values → a dense (G, L, P) table through the report's own assembly.
    combos = list(zip(*(cells.keys[facet_key(i)] for i in range(len(columns))), strict=True))
    combo_ids = {c: i for i, c in enumerate(dict.fromkeys(combos))}
    if len(combo_ids) > MAX_COMBINATIONS:
        raise InvalidParameterError(
            f"facets {columns!r} take {len(combo_ids):,} combinations of values, more than MAX_COMBINATIONS = "
            f"{MAX_COMBINATIONS:,}: bin or group the facets' values, or audit fewer facets at once"
        )
    as_cells = Cells(
        {"_f": [False] * len(combos), "_l": cells.keys["_l"], "_g": [combo_ids[c] for c in combos]}
        | ({"_p": cells.keys["_p"]} if predicted is not None else {}),
        cells.n,
    )
    assembly = BiasRequest(label, lsel, FacetSelection(tuple(columns), ()), predicted, "_combo")
    float_pred = predicted is not None and schema[predicted].is_float() and not schema[label].is_float()
    table = _assemble(as_cells, assembly, float_predictions=float_pred)
    by_combo = table.counts[:, 0]  # (G, L, P); groups are the combo ids in order
    combo_of = list(combo_ids)
    values_of = [sorted({c[i] for c in combo_of}, key=_sort_key) for i in range(len(columns))]
    for col, ref in reference.items():
        i = columns.index(col)
        if ref not in values_of[i]:
            raise InvalidParameterError(
                f"reference: value {ref!r} does not occur in facet column {col!r} (values: {values_of[i][:20]!r})"
            )

    # Audit groups: (facet name, group label, counts of the group, counts it is compared with).
    # Every group is a sum of rows of the count table, found through one code per combination
    # and column (linear in the number of combinations, whatever the number of groups).
    groups: list[tuple[str, str, np.ndarray, np.ndarray]] = []
    notes: list[str] = []
    total = by_combo.sum(axis=0)
    codes, texts = [], []
    for i in range(len(columns)):
        index = {v: k for k, v in enumerate(values_of[i])}
        codes.append(np.fromiter((index[c[i]] for c in combo_of), dtype=np.int64, count=len(combo_of)))
        texts.append(_texts(values_of[i]))

    def sums(code: np.ndarray, size: int) -> np.ndarray:
        out = np.zeros((size, *by_combo.shape[1:]), dtype=by_combo.dtype)
        np.add.at(out, code, by_combo)
        return out

    for i, col in enumerate(columns):
        by_value = sums(codes[i], len(values_of[i]))
        ref_k = values_of[i].index(reference[col]) if col in reference else None
        for k in range(len(values_of[i])):
            if k == ref_k:
                continue
            d = by_value[k]
            groups.append((col, texts[i][k], d, total - d if ref_k is None else by_value[ref_k]))
    if intersections:
        for i, j in itertools.combinations(range(len(columns)), 2):
            name = f"{columns[i]} & {columns[j]}"
            width = len(values_of[j])
            present, inverse = np.unique(codes[i] * width + codes[j], return_inverse=True)
            by_pair = sums(inverse.reshape(-1), present.size)
            ref_code = None
            if columns[i] in reference and columns[j] in reference:
                ref_code = values_of[i].index(reference[columns[i]]) * width + values_of[j].index(reference[columns[j]])
            ref_at = np.flatnonzero(present == ref_code)
            ref_counts = by_pair[ref_at[0]] if ref_at.size else np.zeros_like(total)
            for k, code in enumerate(present.tolist()):
                if code == ref_code:
                    continue
                d = by_pair[k]
                text = f"{texts[i][code // width]} & {texts[j][code % width]}"
                groups.append((name, text, d, total - d if ref_code is None else ref_counts))
            n_empty = len(values_of[i]) * width - present.size
            if n_empty:
                notes.append(f"{name}: {_empty_note(present, texts[i], texts[j], n_empty)} (skipped)")

    _check_size(columns, values_of, len(groups), metric_names, opts["target"])

    # Phase 1 (cheap): every row's value, so the Bonferroni m counts the rows actually judged (a row
    # whose metric is undefined has no interval and is no claim).
    evaluated = []
    for facet_name, label_text, d, a in groups:
        counts = np.stack([a, d])[None]
        t = CountTable(counts, table.label_values, table.label_positive, None, predicted is not None)
        ev, found = _evaluated(t, opts, metric_names, f"{facet_name} = {label_text}")
        evaluated.append((facet_name, label_text, d, a, t, ev, found))
    m = sum(found[name].value is not None for *_, found in evaluated for name in metric_names)
    level = 1.0 - (1.0 - confidence) / max(m, 1) if simultaneous else confidence
    if n_draws is None:
        opts["n_draws"] = _audit_draws(level, len(groups))
        for *_, ev, _found in evaluated:
            ev.n_draws = opts["n_draws"]

    def judge(item: tuple) -> tuple[dict[str, Any], list[dict[str, Any]], list[str], dict[tuple, float]]:
        """The group's size, its rows (one per metric), notes and Monte Carlo errors; metrics kept in ``kept``."""
        facet_name, label_text, d, a, t, ev, found = item
        ev.share_posteriors(found, metric_names)
        counts = t.counts
        size = {
            "facet": facet_name,
            "group": label_text,
            "n": int(counts[0, 1].sum()),
            "n_compared": int(counts[0, 0].sum()),
        }
        reach = _reach(a, d, t, opts, metric_names, f"{facet_name} = {label_text}")
        out_rows, out_notes, fixed, errors = [], [], [], {}
        for name in metric_names:
            bm = found[name]
            if bm.value is None:
                lo = hi = math.nan
                verdict = "insufficient evidence"
                out_notes.append(f"{facet_name} = {label_text}, {name}: {bm.error}")
            else:
                lo, hi = bm.interval(level)
                errors[(facet_name, label_text, name)] = bm.mc_error(level)
                verdict = verdict_of(lo, hi, bm.no_bias, margins[name])
                decided = verdict != "insufficient evidence" and name not in _SIZE_ONLY
                if decided and not _either_way(reach[name], bm.no_bias, margins[name]):
                    verdict = "insufficient evidence"
                    fixed.append(name)
                bm.__dict__.pop("distribution", None)  # kept to judge at another confidence, without its lattice
                kept[(facet_name, label_text, name)] = bm
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
        if fixed:
            out_notes.append(
                f"{facet_name} = {label_text}: a group of {size['n']:,} rows gives {', '.join(fixed)} the same verdict "
                "whatever its labels and predictions (insufficient evidence)"
            )
        return size, out_rows, out_notes, errors

    rows: list[dict[str, Any]] = []
    sizes: list[dict[str, Any]] = []
    kept: dict[tuple[str, str, str], BiasMetric] = {}
    mc_errors: dict[tuple[str, str, str], float] = {}
    # Groups are independent (each its own draws from the same seed), so they are judged on a few
    # threads (numpy's random generators and array loops release the GIL); results keep the audit order.
    from tqdm.auto import tqdm

    show = check_progress(progress)
    workers = min(_WORKERS, len(evaluated))
    judged = []
    with tqdm(
        total=len(evaluated), desc="audit groups", unit=" groups", delay=0.5, disable=not show, leave=False
    ) as bar:
        # in blocks of groups: the block's true values together (one quadrature pass), then its judging,
        # which drops each distribution once its interval is read, so the distributions held at once
        # are one block's whatever the number of groups
        for start in range(0, len(evaluated), _JUDGE_BLOCK):
            block = evaluated[start : start + _JUDGE_BLOCK]
            if opts["target"] == "true_value":
                _true_values_together(block, metric_names, False)
            if workers > 1:
                with ThreadPoolExecutor(max_workers=workers) as pool:
                    for out in pool.map(judge, block):
                        judged.append(out)
                        bar.update(1)
            else:
                for item in block:
                    judged.append(judge(item))
                    bar.update(1)
    for size, group_rows, group_notes, errors in judged:
        sizes.append(size)
        rows.extend(group_rows)
        notes.extend(group_notes)
        mc_errors.update(errors)
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame["target"] = opts["target"]
    return Audit(
        frame,
        confidence=confidence,
        level=level,
        margin=margins,
        no_bias={mname: (1.0 if mname == "DI" else 0.0) for mname in metric_names},
        sizes=pd.DataFrame(sizes, columns=["facet", "group", "n", "n_compared"]),
        notes=notes,
        simultaneous=simultaneous,
        n_verdicts=m,
        metrics=kept,
        target=opts["target"],
        reference=reference,
        mc_errors=mc_errors,
        n_draws=opts["n_draws"],
    )


#: Groups whose true values are computed together and then judged (see :func:`audit`).
_JUDGE_BLOCK = 500


#: Monte Carlo draws an audit makes per group when ``n_draws`` is not given: about
#: :data:`_DRAWS_BEYOND` draws beyond each end at the Bonferroni level, within these bounds, and
#: at most :data:`_AUDIT_DRAW_BUDGET` draws over all groups (but never fewer than the report's default).
_DRAWS_BEYOND = 100
_MAX_AUDIT_DRAWS = 100_000
_AUDIT_DRAW_BUDGET = 4_000_000


def _true_values_together(evaluated: list[tuple], names: list[str], progress: Any) -> None:
    """Every row's true value that is a function of two facets' Beta rates, computed together.

    DPL, DPPL, DI, RD, DAR, SD, DRR, AD (and TVD, KS, LP on a binary label) of the groups
    ``evaluated`` (the audit passes one block of groups at a time) are one
    :func:`~.uncertainty.beta_pair_distributions` call per kind (numpy operations shared by all
    rows; ``progress`` is its bar, the audit's own bar counts the groups), instead of one quadrature
    per row; each metric gets exactly the distribution its own posterior would give, and the
    groups' judging skips them.
    """
    todo: dict[str, list[tuple[BiasMetric, tuple[float, float, float, float]]]] = {}
    for *_, ev, found in evaluated:
        for name in names:
            bm = found.get(name)
            if bm is None or bm.value is None or bm._posterior_of is None or bm.target != "true_value":
                continue
            pair = ev.pair_params(name)
            if pair is not None:
                todo.setdefault(pair[0], []).append((bm, pair[1]))
    for kind, items in todo.items():
        dists = beta_pair_distributions(
            kind, np.array([p for _, p in items]), [bm.name for bm, _ in items], progress=progress
        )
        for (bm, _), dist in zip(items, dists, strict=True):
            bm.__dict__["distribution"] = dist  # the cached_property's slot


def _audit_draws(level: float, n_groups: int) -> int:
    """Draws per group for an audit at per-row ``level`` over ``n_groups`` groups (see :data:`_DRAWS_BEYOND`).

    >>> _audit_draws(0.95, 10), _audit_draws(1 - 0.05 / 68, 17), _audit_draws(1 - 0.05 / 4000, 1000)
    (20000, 100000, 20000)
    """
    tail = (1.0 - level) / 2.0
    wanted = math.ceil(_DRAWS_BEYOND / tail) if tail > 0 else _MAX_AUDIT_DRAWS
    wanted = min(wanted, _MAX_AUDIT_DRAWS, max(DEFAULT_N_DRAWS, _AUDIT_DRAW_BUDGET // max(n_groups, 1)))
    return max(DEFAULT_N_DRAWS, wanted)


#: Metrics of the group sizes alone (class imbalance): every table of the group's size gives the
#: same value, and the sizes are what they judge, so a small group's CI verdict stands (a group of
#: one row among thousands is under-represented).
_SIZE_ONLY = ("CI",)


def _reach(
    a: np.ndarray, d: np.ndarray, t: CountTable, opts: dict[str, Any], names: list[str], what: str
) -> dict[str, list[float]]:
    """Values each metric takes on tables of the group's size: its own, every row in one cell, proportional to the rest.

    With the comparison's counts ``a`` fixed, a group of ``n`` rows can hold its rows
    in any of the cells; the tables with all ``n`` rows in one cell are the metric's
    most extreme, and the one closest to ``a``'s proportions (largest remainders) is
    its nearest to no bias. A verdict is only evidence when these reach both sides
    of the band (:func:`_either_way`): a group of one row has a KS of about 0.5 and a
    smoothed JS below 0.1 whatever its row is, so neither "bias" nor "no material
    bias" could have come out otherwise.
    """
    n = int(d.sum())
    tables = [d]
    for cell in range(d.size):
        alt = np.zeros_like(d)
        alt.reshape(-1)[cell] = n
        tables.append(alt)
    if a.sum() > 0:
        share = a.reshape(-1) / a.sum() * n
        near = np.floor(share).astype(d.dtype)
        near[np.argsort(near - share, kind="stable")[: n - int(near.sum())]] += 1
        tables.append(near.reshape(d.shape))
    reach: dict[str, list[float]] = {m: [] for m in names}
    for alt in tables:
        probe = CountTable(np.stack([a, alt])[None], t.label_values, t.label_positive, None, t.has_predictions)
        found = _metrics(probe, opts, names, what, share=False)
        for m in names:
            if found[m].value is not None:
                reach[m].append(float(found[m].value))
    return reach


def _either_way(values: list[float], no_bias: float, margin: float) -> bool:
    """Whether ``values`` do not all fall on one side of the band ``no_bias ± margin``: below it, inside
    it, or above it (a band of width 0 is crossed by values on both sides of it).

    >>> _either_way([0.49, 0.51], 0.0, 0.1), _either_way([0.02, 0.5], 0.0, 0.1), _either_way([-0.2, 0.3], 0.0, 0.0)
    (False, True, True)
    """
    sides = {-1 if v < no_bias - margin else 1 if v > no_bias + margin else 0 for v in values}
    return len(sides) > 1


def _evaluated(
    t: CountTable, opts: dict[str, Any], names: list[str], what: str
) -> tuple[Evaluator, dict[str, BiasMetric]]:
    """The evaluator of one comparison and its metrics' values (posteriors not computed yet)."""
    ev = Evaluator(t, **opts, facet_text=what)
    found = dict(ev.pre(False)) if any(n in PRETRAINING for n in names) else {}
    if t.has_predictions and any(n not in PRETRAINING for n in names):
        found.update(ev.post(False))
    return ev, found


def _metrics(
    t: CountTable, opts: dict[str, Any], names: list[str], what: str, *, share: bool = True
) -> dict[str, BiasMetric]:
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
    if share:
        ev.share_posteriors(found, names)
    return found


# ----------------------------------------------------------------------------- the auditor's page
def _fmt(x: float) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.4g}"


def _html_page(a: Audit, title: str) -> str:
    e = html.escape
    df = a._frame
    metrics = list(dict.fromkeys(df["metric"]))
    counts = a.counts()
    grid = a.verdict_table()
    head = "".join(f"<th title='{e(DESCRIPTIONS.get(m, m))}'>{e(m)}</th>" for m in metrics)
    body = []
    sizes = {(r.facet, r.group): (r.n, r.n_compared) for r in a.sizes.itertuples()}
    for (facet, group), verdicts in grid.iterrows():
        n, n_c = sizes.get((facet, group), (0, 0))
        cells = "".join(
            f"<td style='background:{VERDICT_COLOURS.get(v, MISSING)}' title='{e(str(v))}'>"
            f"{e(SHORT_VERDICTS.get(v, '–'))}</td>"
            for v in verdicts
        )
        body.append(f"<tr><th>{e(str(facet))}</th><th>{e(str(group))}</th><td>{n:,}</td><td>{n_c:,}</td>{cells}</tr>")
    detail = []
    side = a.favoured()
    errors = a.mc_error()
    for k, r in enumerate(df.itertuples()):
        band = (a.no_bias[r.metric] - a.margin[r.metric], a.no_bias[r.metric] + a.margin[r.metric])
        who = {"group": f"the group ({r.group})", "compared": "those it is compared with"}.get(side.iloc[k], "—")
        err = errors.iloc[k]
        detail.append(
            f"<tr><td>{e(r.facet)}</td><td>{e(r.group)}</td><td>{e(r.metric)}</td><td>{_fmt(r.value)}</td>"
            f"<td>[{_fmt(r.lower)}, {_fmt(r.upper)}]</td><td>{'exact' if err == 0 else '±' + _fmt(err)}</td>"
            f"<td>[{_fmt(band[0])}, {_fmt(band[1])}]</td><td>{e(who)}</td>"
            f"<td style='background:{VERDICT_COLOURS[r.verdict]}'>{e(r.verdict)}</td></tr>"
        )
    notes = "".join(f"<li>{e(n)}</li>" for n in a.notes) or "<li>none</li>"
    m = a._n_verdicts
    if a.simultaneous:
        levels = (
            f"{m} verdicts judged (rows with a value); each interval is at level 1 − (1 − {a.confidence:g})/{m} = "
            f"{a.level:.6g} (Bonferroni), so all {m} intervals hold together with probability at least "
            f"{a.confidence:g}."
        )
    else:
        levels = (
            f"{m} verdicts; each interval is at level {a.level:g} on its own (not corrected: about "
            f"{m * (1 - a.level):.1f} of them are expected to miss)."
        )
    margins = ", ".join(f"{e(k)} ± {v:g} around {a.no_bias[k]:g}" for k, v in a.margin.items())
    facets = list(dict.fromkeys(df["facet"]))
    compared = "".join(f"<li>{e(str(f))}: each group against {e(a.compared_with(str(f)))}</li>" for f in facets)
    if a.target == "true_value":
        question = (
            "is the <b>true</b> disparity between the group and those it is compared with, in the population "
            "the data were drawn from, larger than the margin the auditor accepts as immaterial? Each metric "
            "is judged on the posterior interval of its true value (each group's true rates given its counts)."
        )
    else:
        question = (
            "would a <b>new sample</b> with the same group sizes show a disparity larger than the margin the "
            "auditor accepts as immaterial? Each metric is judged on its posterior predictive interval (the "
            "value it would take on a new sample of the same group sizes), wider than the true value's."
        )
    worst = float(np.nanmax(errors.to_numpy())) if len(errors) and np.isfinite(errors.to_numpy()).any() else 0.0
    if worst > 0:
        fragile = len(a.fragile())
        mc = (
            f"<p><b>Monte Carlo error.</b> Intervals not computed exactly come from {a.n_draws:,} draws per "
            f"group; their ends may move by up to {worst:.2g} with another <code>random_state</code> (column "
            f"'MC error'). {fragile} verdict{'s' if fragile != 1 else ''} lie{'' if fragile != 1 else 's'} "
            "within that error of a band edge and could change; raise <code>n_draws</code> to settle "
            f"{'them' if fragile != 1 else 'it'}.</p>"
            if fragile
            else f"<p><b>Monte Carlo error.</b> Intervals not computed exactly come from {a.n_draws:,} draws per "
            f"group; their ends may move by up to {worst:.2g} with another <code>random_state</code> (column "
            "'MC error'); no verdict lies that close to a band edge.</p>"
        )
    else:
        mc = "<p><b>Monte Carlo error.</b> None: every interval is exact.</p>"
    legend = "".join(f"<span style='background:{c}'>{e(v)}: {counts[v]}</span>" for v, c in VERDICT_COLOURS.items())
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: {THEME["foreground"]};
       background: {THEME["background"]}; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid {THEME["grid"]}; padding: 3px 8px; text-align: left; }}
td {{ font-variant-numeric: tabular-nums; }}
.legend span {{ display: inline-block; padding: 2px 8px; margin-right: 6px; }}
</style></head><body>
<h1>{e(title)}</h1>
<p><b>The question</b> ({e(a.target)}): for each group and each bias metric, {question}</p>
<p><b>Compared with.</b></p><ul>{compared}</ul>
<p><b>Who is favoured.</b> The positive label is read as the favourable outcome; for each signed metric the
column 'favours' names the side its value favours (a higher positive rate, recall or accuracy; fewer
wrongful rejections). KL, JS, LP, TVD and KS are unsigned.</p>
<p><b>Rule.</b> Interval entirely outside the band no-bias ± margin → <i>bias</i>; entirely inside →
<i>no material bias</i>; otherwise → <i>insufficient evidence</i>. Margins: {margins}.</p>
<p><b>{"Simultaneous intervals" if a.simultaneous else "Intervals"}.</b> {levels}</p>
{mc}
<p class="legend">{legend}</p>
<h2>Verdicts</h2>
<table><tr><th>facet</th><th>group</th><th>n</th><th>compared with</th>{head}</tr>
{"".join(body)}</table>
<h2>Every row</h2>
<table><tr><th>facet</th><th>group</th><th>metric</th><th>value</th><th>simultaneous interval</th>
<th>MC error</th><th>band</th><th>favours</th><th>verdict</th></tr>
{"".join(detail)}</table>
<h2>Notes</h2><ul>{notes}</ul>
</body></html>
"""
