"""Judging the groups: their intervals at the audit's level and their verdicts, on a few threads.

Within a group, metrics built on the same counts share their posterior (DPL and the KL family one
beta-binomial lattice, or one set of draws, of the label counts; DPPL and DI one of the prediction
counts; DCA … TE one set of Dirichlet-multinomial draws of the confusion counts:
:meth:`~confusionlab.bias.evaluator.Evaluator.share_posteriors`); each metric's distribution is
still exactly the report's. Groups are independent (each its own draws from the same seed) and are
judged on up to :data:`_WORKERS` threads (numpy's random generators and array loops release the
GIL); the result does not depend on their number and keeps the audit's order.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from ..._validation import check_progress
from ...distribution.two_beta import beta_pair_distributions
from ..results import BiasMetric
from ._evaluate import Evaluated
from ._verdicts import _reach, row_verdict

__all__ = ["Judged", "judge_groups"]

#: Threads judging groups at once (the intervals of a group are numpy work that releases the GIL).
_WORKERS = min(4, os.cpu_count() or 1)

#: Groups whose true values are computed together and then judged (see :func:`judge_groups`).
_JUDGE_BLOCK = 500

RowKey = tuple[str, str, str]


class _Group(NamedTuple):
    size: dict[str, Any]
    rows: list[dict[str, Any]]
    notes: list[str]
    errors: dict[RowKey, float]
    kept: dict[RowKey, BiasMetric]


@dataclass
class Judged:
    """The judged groups in audit order: their rows, sizes and notes, the metrics kept and their MC errors."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    sizes: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    kept: dict[RowKey, BiasMetric] = field(default_factory=dict)
    mc_errors: dict[RowKey, float] = field(default_factory=dict)

    def add(self, group: _Group) -> None:
        self.sizes.append(group.size)
        self.rows.extend(group.rows)
        self.notes.extend(group.notes)
        self.mc_errors.update(group.errors)
        self.kept.update(group.kept)


def _true_values_together(evaluated: list[Evaluated], names: list[str], progress: Any) -> None:
    """Every row's true value that is a function of two facets' Beta rates, computed together.

    DPL, DPPL, DI, RD, DAR, SD, DRR, AD (and TVD, KS, LP on a binary label) of the groups
    ``evaluated`` (the audit passes one block of groups at a time) are one
    :func:`~confusionlab.distribution.two_beta.beta_pair_distributions` call per kind (numpy
    operations shared by all rows; ``progress`` is its bar, the audit's own bar counts the groups),
    instead of one quadrature per row; each metric gets exactly the distribution its own posterior
    would give, and the groups' judging skips them.
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


def _judge_group(
    item: Evaluated, names: list[str], opts: dict[str, Any], level: float, margins: dict[str, float]
) -> _Group:
    """The group's size, its rows (one per metric), notes, Monte Carlo errors and the metrics kept."""
    facet_name, label_text, d, a, t, ev, found = item
    ev.share_posteriors(found, names)
    counts = t.counts
    size = {
        "facet": facet_name,
        "group": label_text,
        "n": int(counts[0, 1].sum()),
        "n_compared": int(counts[0, 0].sum()),
    }
    reach = _reach(a, d, t, opts, names, f"{facet_name} = {label_text}")
    rows, notes, fixed, errors, kept = [], [], [], {}, {}
    for name in names:
        bm = found[name]
        lo, hi, verdict, withdrawn = row_verdict(name, bm, level, margins[name], reach[name])
        if bm.value is None:
            notes.append(f"{facet_name} = {label_text}, {name}: {bm.error}")
        else:
            errors[(facet_name, label_text, name)] = bm.mc_error(level)
            if withdrawn:
                fixed.append(name)
            bm.__dict__.pop("distribution", None)  # kept to judge at another confidence, without its lattice
            kept[(facet_name, label_text, name)] = bm
        rows.append(
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
        notes.append(
            f"{facet_name} = {label_text}: a group of {size['n']:,} rows gives {', '.join(fixed)} the same verdict "
            "whatever its labels and predictions (insufficient evidence)"
        )
    return _Group(size, rows, notes, errors, kept)


def _blocks(evaluated: list[Evaluated], names: list[str], opts: dict[str, Any]) -> Iterator[list[Evaluated]]:
    """The groups in blocks of :data:`_JUDGE_BLOCK`, each block's true values computed together first.

    Judging drops each distribution once its interval is read, so the distributions held at
    once are one block's whatever the number of groups.
    """
    for start in range(0, len(evaluated), _JUDGE_BLOCK):
        block = evaluated[start : start + _JUDGE_BLOCK]
        if opts["target"] == "true_value":
            _true_values_together(block, names, False)
        yield block


def judge_groups(
    evaluated: list[Evaluated],
    names: list[str],
    opts: dict[str, Any],
    level: float,
    margins: dict[str, float],
    progress: bool | None,
) -> Judged:
    """Every group judged at per-row ``level``, on up to :data:`_WORKERS` threads, with a progress bar."""
    from tqdm.auto import tqdm

    def judge(item: Evaluated) -> _Group:
        return _judge_group(item, names, opts, level, margins)

    show = check_progress(progress)
    workers = min(_WORKERS, len(evaluated))
    judged = Judged()
    with tqdm(
        total=len(evaluated), desc="audit groups", unit=" groups", delay=0.5, disable=not show, leave=False
    ) as bar:
        for block in _blocks(evaluated, names, opts):
            if workers > 1:
                with ThreadPoolExecutor(max_workers=workers) as pool:
                    for out in pool.map(judge, block):
                        judged.add(out)
                        bar.update(1)
            else:
                for item in block:
                    judged.add(judge(item))
                    bar.update(1)
    return judged
