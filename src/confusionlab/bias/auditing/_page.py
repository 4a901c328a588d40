"""The auditor's page: one self-contained HTML page of an audit (no script, no network)."""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING

import numpy as np

from ...palette import MISSING, THEME, VERDICT_COLOURS
from ..figures import SHORT_VERDICTS
from ..results import DESCRIPTIONS

if TYPE_CHECKING:
    from ._result import Audit

__all__ = ["html_page"]


def _fmt(x: float) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.4g}"


def html_page(a: Audit, title: str) -> str:
    """The page of audit ``a`` under heading ``title``: the question, the rule, the verdicts and every row."""
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
