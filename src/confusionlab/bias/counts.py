"""The one group-by count that every count-based bias metric is computed from.

A bias report needs, per subgroup ``g``, facet ``f`` (``a`` = 0, ``d`` = 1),
label value ``l`` and binarised prediction ``p``, the number of rows. That
(G × 2 × L × P) table is computed where the data lives — pandas, polars,
pyarrow, DuckDB or Dask through narwhals — in a single group-by, so a lazy
engine never brings rows into Python; only the small table comes back.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["CountTable", "FacetSelection", "LabelSelection", "count_table"]

_NULL = "_cl_null"


@dataclass(frozen=True)
class FacetSelection:
    """Which rows form the sensitive facet *d* (the rest form facet *a*).

    Parameters
    ----------
    columns : tuple of str
        One column, or several for an intersectional facet.
    values : tuple or None
        Sensitive values. For several columns, each value is a tuple with one
        entry per column, and a row is in *d* when its combination is listed.
    threshold : float or None
        For a single numeric column: *d* is ``column > threshold``.
    """

    columns: tuple[str, ...]
    values: tuple[Any, ...] | None = None
    threshold: float | None = None

    def describe(self) -> str:
        """Clarify's ``value_or_threshold`` text (without the upper bound)."""
        if self.threshold is not None:
            return f"> {self.threshold!r}"
        return ",".join(str(v) if not isinstance(v, tuple) else "&".join(map(str, v)) for v in self.values or ())


@dataclass(frozen=True)
class LabelSelection:
    """Which label (and prediction) values count as positive."""

    positive_values: tuple[Any, ...] | None = None
    threshold: float | None = None

    def is_positive(self, values: Sequence[Any]) -> np.ndarray:
        """Boolean array: which of ``values`` are positive."""
        if self.threshold is not None:
            return np.asarray([bool(v) for v in values], dtype=bool)
        pos = set(self.positive_values or ())
        return np.asarray([v in pos for v in values], dtype=bool)


@dataclass(frozen=True)
class CountTable:
    """Counts of rows by (group, facet, label value, binarised prediction).

    Attributes
    ----------
    counts : ndarray of int64, shape (G, 2, L, P)
        Axis 1 is the facet (0 = *a*, 1 = *d*). ``P`` is 2 (negative, positive
        prediction) when predictions were given, else 1.
    label_values : tuple
        The L distinct label values (``False``/``True`` for a thresholded label).
    label_positive : ndarray of bool, shape (L,)
        Which label values are positive.
    groups : tuple or None
        The G subgroup values, or None when no group column was given (G = 1).
    has_predictions : bool
    """

    counts: np.ndarray
    label_values: tuple[Any, ...]
    label_positive: np.ndarray
    groups: tuple[Any, ...] | None
    has_predictions: bool

    @property
    def n(self) -> int:
        """Total number of rows."""
        return int(self.counts.sum())

    @property
    def facet_sizes(self) -> np.ndarray:
        """``[n_a, n_d]``."""
        return self.counts.sum(axis=(0, 2, 3))

    def label_distribution(self, binary: bool = True) -> np.ndarray:
        """Counts per facet and label, shape (2, L) or (2, 2) ``[neg, pos]`` if ``binary``."""
        lab = self.counts.sum(axis=(0, 3))
        return _collapse_labels(lab, self.label_positive) if binary else lab

    def confusion(self) -> np.ndarray:
        """Per-facet confusion counts, shape (2, 4) ordered ``(TP, FP, FN, TN)``."""
        if not self.has_predictions:
            raise ValueError("predicted was not given: no confusion matrix")
        lp = _collapse_labels(self.counts.sum(axis=0).transpose(0, 2, 1), self.label_positive)
        # lp: (facet, pred, [neg, pos])
        return np.stack([lp[:, 1, 1], lp[:, 1, 0], lp[:, 0, 1], lp[:, 0, 0]], axis=-1)

    def group_outcomes(self, predicted: bool = False) -> np.ndarray:
        """Per group and facet, counts of ``[negative, positive]`` labels (or predictions).

        Shape (G, 2, 2).
        """
        if predicted:
            if not self.has_predictions:
                raise ValueError("predicted was not given")
            return self.counts.sum(axis=2)
        return _collapse_labels(self.counts.sum(axis=3), self.label_positive)

    @classmethod
    def from_confusion(cls, a: Sequence[int], d: Sequence[int]) -> CountTable:
        """Build a table from per-facet confusion counts ``(TP, FP, FN, TN)``.

        Examples
        --------
        >>> t = CountTable.from_confusion(a=(2718, 84, 3678, 13900), d=(433, 10, 679, 8660))
        >>> t.facet_sizes.tolist()
        [20380, 9782]
        """
        c = np.zeros((1, 2, 2, 2), dtype=np.int64)
        for f, (tp, fp, fn, tn) in enumerate((a, d)):
            for v, name in zip((tp, fp, fn, tn), ("TP", "FP", "FN", "TN"), strict=True):
                if int(v) != v or v < 0:
                    raise ValueError(f"confusion count {name}={v!r} must be a non-negative integer")
            c[0, f, 1, 1], c[0, f, 0, 1], c[0, f, 1, 0], c[0, f, 0, 0] = tp, fp, fn, tn
        return cls(c, (False, True), np.array([False, True]), None, True)


def _collapse_labels(x: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """Sum the last axis into ``[negative, positive]``."""
    return np.stack([x[..., ~positive].sum(axis=-1), x[..., positive].sum(axis=-1)], axis=-1)


# ----------------------------------------------------------------------------- validation
def _as_tuple(name: str, values: Any) -> tuple[Any, ...] | None:
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        if isinstance(values, np.ndarray):
            return tuple(values.tolist())
        raise TypeError(f"{name} must be a list of values, got {values!r}")
    if len(values) == 0:
        raise ValueError(f"{name} must not be empty, got {values!r}")
    return tuple(values)


def facet_selection(
    facet: str | Sequence[str], facet_values: Any = None, facet_threshold: float | None = None
) -> FacetSelection:
    """Validate the facet arguments of :func:`confusionlab.bias.report`."""
    if isinstance(facet, str):
        cols: tuple = (facet,)
    elif isinstance(facet, Sequence):
        cols = tuple(facet)
    else:
        cols = ()
    if not cols or not all(isinstance(c, str) for c in cols):
        raise TypeError(f"facet must be a column name or a list of column names, got {facet!r}")
    values = _as_tuple("facet_values", facet_values)
    if (values is None) == (facet_threshold is None):
        raise ValueError(
            "give exactly one of facet_values and facet_threshold, got "
            f"facet_values={facet_values!r}, facet_threshold={facet_threshold!r}"
        )
    if facet_threshold is not None:
        if len(cols) != 1:
            raise ValueError(f"facet_threshold needs a single facet column, got facet={facet!r}")
        if (
            not isinstance(facet_threshold, (int, float))
            or isinstance(facet_threshold, bool)
            or math.isnan(facet_threshold)
        ):
            raise TypeError(f"facet_threshold must be a number, got {facet_threshold!r}")
        thr = facet_threshold if isinstance(facet_threshold, int) else float(facet_threshold)
        return FacetSelection(cols, None, thr)
    if len(cols) > 1:
        bad = [v for v in values if not isinstance(v, tuple) or len(v) != len(cols)]
        if bad:
            raise ValueError(
                f"with {len(cols)} facet columns each facet value must be a tuple of {len(cols)} values, got {bad[0]!r}"
            )
    return FacetSelection(cols, values, None)


def label_selection(positive_values: Any = None, label_threshold: float | None = None) -> LabelSelection:
    """Validate the label arguments of :func:`confusionlab.bias.report`."""
    values = _as_tuple("positive_values", positive_values)
    if (values is None) == (label_threshold is None):
        raise ValueError(
            "give exactly one of positive_values and label_threshold, got "
            f"positive_values={positive_values!r}, label_threshold={label_threshold!r}"
        )
    if label_threshold is not None and (
        not isinstance(label_threshold, (int, float))
        or isinstance(label_threshold, bool)
        or math.isnan(label_threshold)
    ):
        raise TypeError(f"label_threshold must be a number, got {label_threshold!r}")
    return LabelSelection(values, None if label_threshold is None else float(label_threshold))


# ----------------------------------------------------------------------------- the group-by
def to_narwhals(data: Any) -> Any:
    """Wrap a pandas/polars/pyarrow/DuckDB/Dask frame in narwhals (eager or lazy)."""
    import narwhals as nw

    if isinstance(data, (nw.DataFrame, nw.LazyFrame)):
        return data
    try:
        with warnings.catch_warnings():
            # narwhals >= 2.2x announces that Dask support moves to a separate package
            warnings.filterwarnings("ignore", message=".*narwhals-dask.*", category=FutureWarning)
            return nw.from_native(data)
    except TypeError as exc:
        raise TypeError(
            "data must be a pandas or polars DataFrame, a pyarrow Table, a DuckDB relation or a "
            f"Dask DataFrame, got {type(data).__name__}"
        ) from exc


def column_names(frame: Any) -> list[str]:
    """Column names of a narwhals frame without collecting a lazy one."""
    return list(frame.collect_schema().names())


def check_columns(frame: Any, **named: str | Sequence[str] | None) -> None:
    """Raise ValueError naming the argument whose column is missing."""
    cols = set(column_names(frame))
    for arg, value in named.items():
        if value is None:
            continue
        for c in (value,) if isinstance(value, str) else value:
            if c not in cols:
                raise ValueError(f"{arg}: column {c!r} is not in data (columns: {sorted(cols)})")


def _missing(nw: Any, frame_schema: Any, col: str) -> Any:
    expr = nw.col(col).is_null()
    if frame_schema[col].is_float():
        expr = expr | nw.col(col).is_nan()
    return expr


def facet_expr(nw: Any, sel: FacetSelection) -> Any:
    """narwhals boolean expression: the row is in facet *d*."""
    if sel.threshold is not None:
        return nw.col(sel.columns[0]) > sel.threshold
    if len(sel.columns) == 1:
        return nw.col(sel.columns[0]).is_in(list(sel.values))
    terms = [
        nw.all_horizontal(*[nw.col(c) == v for c, v in zip(sel.columns, combo, strict=True)], ignore_nulls=False)
        for combo in sel.values
    ]
    return nw.any_horizontal(*terms, ignore_nulls=False)


def count_table(
    data: Any,
    *,
    label: str,
    labels: LabelSelection,
    facet: FacetSelection,
    predicted: str | None = None,
    group: str | None = None,
) -> CountTable:
    """Compute the (group × facet × label × prediction) count table in one group-by.

    Parameters
    ----------
    data : DataFrame-like
        pandas/polars DataFrame, pyarrow Table, DuckDB relation or Dask DataFrame.
    label, predicted, group : str
        Column names. ``predicted`` and ``group`` are optional.
    labels : LabelSelection
        Positive label values (or a threshold); predictions are binarised the same way.
    facet : FacetSelection

    Returns
    -------
    CountTable

    Raises
    ------
    ValueError
        A column is missing; the label, prediction, facet or group column has
        missing values (null/NaN); predictions take values that are not label
        values.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"y": ["+", "-", "+", "-"], "s": ["F", "F", "M", "M"]})
    >>> t = count_table(df, label="y", labels=LabelSelection(("+",)),
    ...                 facet=FacetSelection(("s",), ("F",)))
    >>> t.label_distribution().tolist()    # [[neg, pos] of a, [neg, pos] of d]
    [[1, 1], [1, 1]]
    """
    import narwhals as nw

    frame = to_narwhals(data)
    check_columns(frame, label=label, facet=facet.columns, predicted=predicted, group=group)
    schema = frame.collect_schema()
    checked = [label, *facet.columns] + [c for c in (predicted, group) if c is not None]
    numeric = [("facet", facet.columns[0], facet.threshold)]
    numeric += [("label", label, labels.threshold), ("predicted", predicted, labels.threshold)]
    for arg, col, thr in numeric:
        if thr is not None and col is not None and not schema[col].is_numeric():
            raise TypeError(
                f"{arg}: column {col!r} is {schema[col]}, not numeric; a threshold "
                f"({thr!r}) needs numbers (use facet_values/positive_values instead)"
            )
    for arg, col in (("predicted", predicted),):
        if (
            col is not None
            and labels.positive_values is not None
            and schema[col].is_float()
            and not schema[label].is_float()
        ):
            raise TypeError(
                f"{arg}: column {col!r} holds floats (scores?) while label {label!r} does not; "
                "pass binary predictions with the label's values, or use label_threshold"
            )

    kw = dict(label=label, labels=labels, facet=facet, predicted=predicted, group=group, checked=checked)
    if frame.implementation.is_pandas():
        cols = _pandas_keys(nw.to_native(frame), **kw)
        return _assemble(
            cols, label=label, labels=labels, facet=facet, predicted=predicted, group=group, frame=frame, schema=schema
        )
    if frame.implementation.is_dask():
        cols = _dask_keys(nw.to_native(frame), **kw)
        return _assemble(
            cols, label=label, labels=labels, facet=facet, predicted=predicted, group=group, frame=frame, schema=schema
        )
    missing = nw.any_horizontal(*[_missing(nw, schema, c) for c in checked], ignore_nulls=False)
    keys = {"_f": facet_expr(nw, facet)}
    if labels.threshold is not None:
        keys["_l"] = nw.col(label) > labels.threshold
    else:
        keys["_l"] = nw.col(label)
    if predicted is not None:
        if labels.threshold is not None:
            keys["_p"] = nw.col(predicted) > labels.threshold
        else:
            keys["_p"] = nw.col(predicted)
    if group is not None:
        keys["_g"] = nw.col(group)
    keys[_NULL] = missing
    names = list(keys)
    work = frame
    if isinstance(frame, nw.DataFrame) and frame.implementation.is_polars():
        work = frame.lazy()  # one optimised query instead of eager step-by-step expressions
    agg = work.select(**{k: v for k, v in keys.items()}).group_by(*names).agg(nw.len().alias("_n"))
    if isinstance(agg, nw.LazyFrame):
        agg = agg.collect()
    cols = {k: agg[k].to_list() for k in [*names, "_n"]}
    return _assemble(
        cols, label=label, labels=labels, facet=facet, predicted=predicted, group=group, frame=frame, schema=schema
    )


def _codes(s: Any) -> tuple[np.ndarray, list[Any]]:
    """Integer codes and the values they stand for (hash-free for small integer ranges)."""
    import pandas as pd

    a = s.to_numpy()
    if a.dtype.kind == "b":
        return a, [False, True]
    if a.dtype.kind in "iu" and a.size:
        lo, hi = int(a.min()), int(a.max())
        if hi - lo <= 1 << 16:
            codes = a if lo == 0 else a.astype(np.int32) - lo
            return codes, list(range(lo, hi + 1))
    codes, uniques = pd.factorize(s, use_na_sentinel=False)
    return codes, list(uniques)


def _isin(s: Any, values: Sequence[Any]) -> np.ndarray:
    a = s.to_numpy()
    if (
        a.dtype.kind in "biuf"
        and len(values) <= 8
        and all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in values)
    ):
        out = np.zeros(a.shape, dtype=bool)
        for v in values:
            out |= a == v
        return out
    return s.isin(list(values)).to_numpy()


def _dask_keys(ddf: Any, **kw: Any) -> dict:
    """Per-partition count tables on the workers (numpy bincount), summed here.

    A tree of small tables instead of a shuffling group-by: each partition
    returns at most a few dozen rows, and nothing else leaves the workers.
    """
    import pandas as pd

    names = ["_f", "_l"] + (["_p"] if kw["predicted"] else []) + (["_g"] if kw["group"] else [])
    names += [_NULL, "_n"]
    meta = pd.DataFrame({c: pd.Series(dtype=object if c != "_n" else np.int64) for c in names})

    def partial(pdf: Any) -> Any:
        cols = _pandas_keys(pdf, **kw)
        return pd.DataFrame({c: pd.Series(cols[c], dtype=meta[c].dtype) for c in names})

    parts = ddf[list(dict.fromkeys(kw["checked"]))].map_partitions(partial, meta=meta).compute()
    return {c: parts[c].tolist() for c in parts.columns}


def _pandas_keys(df: Any, *, label, labels, facet, predicted, group, checked) -> dict:
    """The same group-by as the narwhals path, for pandas: numpy codes and one bincount."""
    n = len(df)
    null = np.zeros(n, dtype=bool)
    for c in checked:
        if df[c].dtype.kind not in "biu":
            null |= df[c].isna().to_numpy()
    if facet.threshold is not None:
        f = (df[facet.columns[0]] > facet.threshold).to_numpy()
    elif len(facet.columns) == 1:
        f = _isin(df[facet.columns[0]], facet.values)
    else:
        f = np.zeros(n, dtype=bool)
        for combo in facet.values:
            term = np.ones(n, dtype=bool)
            for c, v in zip(facet.columns, combo, strict=True):
                term &= (df[c] == v).to_numpy()
            f |= term
    parts: list[tuple[str, np.ndarray, list[Any]]] = [("_f", f, [False, True])]

    def binarised_or_raw(c: str) -> tuple[np.ndarray, list[Any]]:
        if labels.threshold is not None:
            return (df[c] > labels.threshold).to_numpy(), [False, True]
        return _codes(df[c])

    parts.append(("_l", *binarised_or_raw(label)))
    if predicted is not None:
        parts.append(("_p", *binarised_or_raw(predicted)))
    if group is not None:
        parts.append(("_g", *_codes(df[group])))
    if null.any():
        parts.append((_NULL, null, [False, True]))
    sizes = [len(u) for _, _, u in parts]
    total = int(np.prod(sizes, dtype=np.float64))
    flat = np.zeros(n, dtype=np.int32 if total < 2**31 else np.int64)
    for (_, codes, _), k in zip(parts, sizes, strict=True):
        flat *= k
        flat += codes
    if total <= max(4 * n, 1 << 20):
        counts = np.bincount(flat, minlength=total)
        cells = np.flatnonzero(counts)
        counts = counts[cells]
    else:
        cells, counts = np.unique(flat, return_counts=True)
    idx = np.unravel_index(cells, sizes)
    out = {name: [u[i] for i in ix.tolist()] for (name, _, u), ix in zip(parts, idx, strict=True)}
    out["_n"] = counts.tolist()
    out.setdefault(_NULL, [False] * len(out["_n"]))
    return out


def _assemble(cols: dict, *, label, labels, facet, predicted, group, frame, schema) -> CountTable:
    n = np.asarray(cols["_n"], dtype=np.int64)
    null = np.asarray([bool(x) for x in cols[_NULL]])
    if null.any():
        _raise_missing(frame, schema, label=label, facet=facet.columns, predicted=predicted, group=group)
    lab_keys = cols["_l"]
    label_values = tuple(sorted(set(lab_keys), key=_sort_key))
    label_positive = labels.is_positive(label_values)
    if (
        labels.threshold is None
        and not label_positive.any()
        and (predicted is None or not set(cols["_p"]) & set(labels.positive_values))
    ):
        raise ValueError(
            f"positive_values {list(labels.positive_values)!r} match no value of label column "
            f"{label!r} (values: {list(label_values)[:10]!r}); check spelling and type"
        )
    l_idx = {v: i for i, v in enumerate(label_values)}
    li = np.asarray([l_idx[v] for v in lab_keys], dtype=np.intp)
    fi = np.asarray([bool(x) for x in cols["_f"]], dtype=np.intp)
    if predicted is not None:
        pv = cols["_p"]
        if labels.threshold is None:
            known = set(label_values) | set(labels.positive_values)
            unknown = sorted({v for v in pv if v not in known}, key=_sort_key)
            # a value absent from the labels is fine while there are only two values at all
            # (e.g. every label positive, predictions all negative)
            if unknown and len(known | set(unknown)) > 2:
                raise ValueError(
                    f"predicted: column {predicted!r} has values {unknown[:5]!r} that are neither "
                    f"label values {list(label_values)[:10]!r} nor positive_values; predictions "
                    "must be binary decisions with the label's values"
                )
            pos = set(labels.positive_values)
            pi = np.asarray([v in pos for v in pv], dtype=np.intp)
        else:
            pi = np.asarray([bool(v) for v in pv], dtype=np.intp)
        n_pred = 2
    else:
        pi, n_pred = np.zeros(len(n), dtype=np.intp), 1
    if group is not None:
        groups = tuple(sorted(set(cols["_g"]), key=_sort_key))
        g_idx = {v: i for i, v in enumerate(groups)}
        gi = np.asarray([g_idx[v] for v in cols["_g"]], dtype=np.intp)
    else:
        groups, gi = None, np.zeros(len(n), dtype=np.intp)
    counts = np.zeros((len(groups or (0,)), 2, len(label_values), n_pred), dtype=np.int64)
    np.add.at(counts, (gi, fi, li, pi), n)
    return CountTable(counts, label_values, label_positive, groups, predicted is not None)


def _sort_key(v: Any) -> tuple[str, Any]:
    return (type(v).__name__, v)


def _raise_missing(frame, schema, **named) -> None:
    import narwhals as nw

    for arg, value in named.items():
        if value is None:
            continue
        for c in (value,) if isinstance(value, str) else value:
            res = frame.select(_missing(nw, schema, c).sum().alias("m"))
            if isinstance(res, nw.LazyFrame):
                res = res.collect()
            m = int(res["m"].to_list()[0])
            if m:
                raise ValueError(f"{arg}: column {c!r} has {m} missing values (null/NaN); drop or fill them first")
    raise ValueError("data has missing values in the label, facet, predicted or group columns")
