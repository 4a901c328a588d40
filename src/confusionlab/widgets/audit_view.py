"""`AuditView`: a fairness audit as a grid of verdicts, each cell's interval against its band.

Rows are the audited groups (facet value, or combination of two), columns the
metrics; the title names the question (the true disparity, or a new sample's) and
whom each facet's groups are compared with, and each cell says whom its value
favours; each cell is coloured by its verdict ("bias", "no material bias",
"insufficient evidence"). Hovering or clicking a cell shows its simultaneous
interval and value against the band ``no_bias ± margin`` that decides the
verdict. Every number comes from :func:`confusionlab.bias.audit`; the
browser only lays out and draws (canvas), so the view renders in the static
HTML export as well.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import traitlets

from .._deps import require
from .._validation import InvalidParameterError, check_instance, check_int
from .._views import register_view
from ..bias.auditing import Audit
from ..bias.results import PLAIN_NAMES, QUESTIONS
from ._common import Buffer, BundledWidget, Integer, InvalidTraitError

pd = require("pandas", "bias", "AuditView")

__all__ = ["VERDICT_CODES", "AuditView"]

#: Verdict → the code sent to the browser (one byte per cell).
VERDICT_CODES = {"bias": 0, "no material bias": 1, "insufficient evidence": 2}


class AuditView(BundledWidget, bundle="audit"):
    """Groups × metrics of an :class:`~confusionlab.bias.auditing.Audit`, coloured by verdict.

    Parameters
    ----------
    audit : Audit
        The result of :func:`confusionlab.bias.auditing.audit`.
    cell : int
        Side of a grid cell in CSS pixels (12 to 80, default 28).
    selected : int
        Index of the selected cell (row-major over groups × metrics), -1 for none;
        set by a click in the browser, or from Python.

    Notes
    -----
    Change the audit with :meth:`show`; several traits at once with
    :meth:`update`. A refused change leaves every trait and buffer as it was.

    Browser state: root class ``confusionlab-audit`` with ``data-groups``,
    ``data-metrics``, ``data-cells`` (cells drawn), ``data-bias``,
    ``data-fair``, ``data-insufficient`` (cells per verdict), ``data-selected``
    and ``data-generation``.

    Examples
    --------
    >>> import pandas as pd
    >>> from confusionlab.bias.auditing import audit
    >>> df = pd.DataFrame({"y": [1, 0] * 60, "p": [1, 0] * 60, "sex": ["F", "M", "M"] * 40})
    >>> a = audit(df, label="y", positive_values=[1], predicted="p", facets="sex",
    ...           metrics=["DPPL", "DI"], margin=0.1)
    >>> view = AuditView(a)
    >>> view._groups, view._metrics
    (['sex: F', 'sex: M'], ['DPPL', 'DI'])
    """

    cell = Integer(28, min=12, max=80, help="grid cell side in CSS pixels").tag(sync=True)
    selected = Integer(-1, min=-1, help="selected cell (row-major), -1 for none").tag(sync=True)
    generation = Integer(0, help="state counter set by a controller").tag(sync=True)

    _groups = traitlets.List(traitlets.Unicode()).tag(sync=True)  # "facet: group" per row
    _sizes = Buffer("<f8").tag(sync=True)  # rows in each group, then rows it is compared with
    _metrics = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _no_bias = traitlets.List(traitlets.Float()).tag(sync=True)  # per metric
    _margin = traitlets.List(traitlets.Float()).tag(sync=True)  # per metric
    _verdicts = Buffer("<u1").tag(sync=True)  # VERDICT_CODES, 255 = no row; groups × metrics
    _values = Buffer("<f8").tag(sync=True)
    _lower = Buffer("<f8").tag(sync=True)
    _upper = Buffer("<f8").tag(sync=True)
    _summary = traitlets.Dict().tag(sync=True)  # confidence, level, rows, notes, question, compared, favoured, names

    _EXTRA_STATE = ("_audit", "_keys")

    def __init__(self, audit: Audit, **kwargs: Any) -> None:
        self._audit = _check_audit(audit)
        super().__init__(**kwargs)

    def show(self, audit: Audit) -> None:
        """Show another audit (validated first; a refused one changes nothing)."""
        checked = _check_audit(audit)
        with self.transaction():
            self._audit = checked
            self._request(self._ALL_PARTS)

    @traitlets.validate("selected")
    def _check_selected(self, proposal: traitlets.Bunch) -> int:
        n = _cells(self._audit)  # the audit's, not the grid drawn: the constructor checks before drawing
        if proposal.value >= n:
            raise InvalidTraitError(f"selected must be -1 or a cell index below {n}, got selected={proposal.value}.")
        return proposal.value

    def cell_row(self, index: int) -> pd.Series:
        """The audit row shown in cell ``index`` (row-major over groups × metrics).

        ``index`` is an integer in ``[0, cells)`` (numpy integers too); booleans, negative
        indices (−1 is "no cell" in :attr:`selected`, never the last) and indices past the
        grid are refused with :class:`~confusionlab.InvalidParameterError`.
        """
        cells = len(self._groups) * len(self._metrics)
        index = check_int(index, "index", minimum=0, maximum=cells - 1)
        g, m = divmod(index, len(self._metrics))
        facet, group = self._keys[g]
        df = self._audit.to_frame()
        hit = df[(df.facet == facet) & (df.group == group) & (df.metric == self._metrics[m])]
        if hit.empty:
            raise IndexError(f"cell {index} holds no audit row")
        return hit.iloc[0]

    def _refresh(self, parts: set[str]) -> None:
        a = self._audit
        df = a.to_frame()
        keys = list(dict.fromkeys(zip(df["facet"], df["group"], strict=True)))
        metrics = list(dict.fromkeys(df["metric"]))
        g_index = {k: i for i, k in enumerate(keys)}
        m_index = {m: j for j, m in enumerate(metrics)}
        shape = (len(keys), len(metrics))
        verdicts = np.full(shape, 255, dtype=np.uint8)
        values, lower, upper = (np.full(shape, np.nan) for _ in range(3))
        favoured = [[""] * shape[1] for _ in range(shape[0])]
        side = a.favoured().tolist()
        for r, row in enumerate(df.itertuples()):
            i, j = g_index[(row.facet, row.group)], m_index[row.metric]
            favoured[i][j] = {"group": "favours the group", "compared": "favours those it is compared with"}.get(
                side[r], ""
            )
            verdicts[i, j] = VERDICT_CODES[row.verdict]
            values[i, j], lower[i, j], upper[i, j] = row.value, row.lower, row.upper
        sizes = a.sizes.set_index(["facet", "group"])
        n = np.array([[sizes.loc[k, "n"], sizes.loc[k, "n_compared"]] for k in keys], dtype=np.float64)
        summary = {
            "confidence": float(a.confidence),
            "level": float(a.level),
            "rows": len(df),
            "notes": [str(x) for x in a.notes[:50]],
            "target": a.target,
            "question": QUESTIONS[a.target],
            "compared": [f"{f}: against {a.compared_with(f)}" for f in dict.fromkeys(df["facet"])],
            "favoured": [text for row in favoured for text in row],
            "names": {m: PLAIN_NAMES.get(m, m) for m in metrics},
        }
        # Everything computed: the state changes in one message.
        self._keys = keys
        self.selected = -1 if self.selected >= verdicts.size else self.selected
        self._groups = [f"{f}: {g}" for f, g in keys]
        self._metrics = metrics
        self._no_bias = [float(a.no_bias[m]) for m in metrics]
        self._margin = [float(a.margin[m]) for m in metrics]
        self._sizes = n.reshape(-1)
        self._verdicts = verdicts.reshape(-1)
        self._values = values.reshape(-1)
        self._lower = lower.reshape(-1)
        self._upper = upper.reshape(-1)
        self._summary = summary


def _cells(audit: Audit) -> int:
    """Cells of the grid of ``audit``: its (facet, group) rows × its metrics."""
    df = audit.to_frame()
    return len(dict.fromkeys(zip(df["facet"], df["group"], strict=True))) * df["metric"].nunique()


def _check_audit(audit: Any) -> Audit:
    check_instance(audit, "audit", Audit, "the result of confusionlab.bias.audit")
    if len(audit) == 0:
        raise InvalidParameterError("audit has no rows to show")
    if any(not math.isfinite(v) for v in audit.margin.values()):
        raise InvalidParameterError(f"audit margins must be finite, got {audit.margin!r}")
    return audit


register_view(Audit, AuditView)
