"""The result of an audit: one row per (facet, group, metric), each with its interval and verdict."""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..._deps import require
from ..._result import Result, new_figure, page_path
from ..._validation import InvalidParameterError, check_confidence, check_instance
from ...distribution.posterior import interval_mc_error
from ..results import QUESTIONS, VERDICTS, BiasMetric, favoured, verdict_of
from ..uncertainty import DEFAULT_N_DRAWS
from ._frame import FrameRows
from ._multiplicity import row_level
from ._page import html_page

pd = require("pandas", "bias", "the bias audit")

__all__ = ["Audit"]


class Audit(FrameRows, Result):
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
    >>> from confusionlab.bias import audit
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
        :func:`~confusionlab.distribution.posterior.interval_mc_error` at the audit's level.
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
        return row_level(confidence, self._n_verdicts, self.simultaneous)

    def interval(self, confidence: float = 0.95) -> dict[tuple[str, str, str], tuple[float, float]]:
        """``(facet, group, metric)`` → the row's interval, the intervals holding together at ``confidence``.

        The rows are assumed independent (one draw each): with several rows per patient, passage or
        speaker this interval is too narrow.

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
        from ..figures import draw_verdict_grid

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
        page = html_page(self._judged_at(check_confidence(confidence)), title)
        if path is not None:
            path.write_text(page, encoding="utf-8")
        return page
