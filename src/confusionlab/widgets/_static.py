"""Linked states that travel with a static page.

In Jupyter, moving the slider of a :class:`~confusionlab.RocView` or a
:class:`~confusionlab.DecisionView` asks the kernel, which moves the linked views. A page
written by :mod:`confusionlab.export` has no kernel. When the views are built for export (the
kernel that :func:`confusionlab.export.to_html` runs has :data:`STATIC_ENV` set to ``"1"``),
such a view precomputes, at the end of the cell, the synced state of every linked model (and of
itself where it changes) at each position of its slider, and ships it in its ``_static`` trait;
the page's renderer applies the state of the position the slider reaches.

Bounded: the size is estimated from the states at a few positions; past
:data:`MAX_STATIC_BYTES` (or :data:`MAX_POSITIONS` positions) an evenly spread subset is
precomputed and the page says that the slider snaps to it; when not even two positions fit, the
page turns the slider off and says why. A change of the view or of a linked model after the
states were computed recomputes them (at the end of the cell), so they are never stale.

``_static`` (a dict, JSON with buffers) holds ``links`` (``"IPY_MODEL_<id>"`` of each model the
states are for), ``positions`` (slider values, ascending), ``states`` (per position, per link,
the traits to set: only those that differ somewhere from the exported state) or None when
nothing was precomputed, ``total`` (positions the slider has in Jupyter) and ``note`` (what the
page says of the thinning, or None).
"""

from __future__ import annotations

import json
import math
import os
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._views import STATIC_ENV

__all__ = [
    "MAX_POSITIONS",
    "MAX_STATIC_BYTES",
    "exporting",
    "failed",
    "plan",
    "precompute",
    "schedule",
    "spread",
    "state_size",
]

#: Largest estimated size, in bytes before base64, of the states one view precomputes.
MAX_STATIC_BYTES = 4_000_000
#: Most slider positions one view precomputes.
MAX_POSITIONS = 2_000
#: Positions sampled to estimate the size of one position's states.
SAMPLES = 8


def exporting() -> bool:
    """Whether views are built for a static page (:data:`STATIC_ENV` is ``"1"``)."""
    return os.environ.get(STATIC_ENV) == "1"


def state_size(states: Sequence[dict[str, Any]]) -> int:
    """Bytes the states take in a page: the buffers' bytes and the JSON of the other values.

    >>> state_size([{"tp": 3, "_pmf_tp": b"abcd"}])
    5
    """
    size = 0
    for state in states:
        for value in state.values():
            size += len(value) if isinstance(value, bytes) else len(json.dumps(value, default=str))
    return size


def spread(count: int, most: int, keep: int) -> np.ndarray:
    """At most ``most`` indexes of ``range(count)``, evenly spread with both ends, and ``keep``.

    >>> spread(5, 10, 2).tolist(), spread(101, 5, 37).tolist()
    ([0, 1, 2, 3, 4], [0, 25, 37, 50, 75, 100])
    """
    if count <= most:
        return np.arange(count)
    picked = np.round(np.linspace(0, count - 1, max(1, most))).astype(np.int64)
    return np.unique(np.concatenate([picked, [keep]]))


def plan(count: int, current: int, per_position: int) -> np.ndarray:
    """Which of ``count`` positions to precompute when one takes about ``per_position`` bytes:
    all of them when they fit :data:`MAX_STATIC_BYTES` and :data:`MAX_POSITIONS`, else an even
    spread that does, always with ``current`` (only ``current`` when not two fit).

    >>> plan(10, 3, 1000).size, plan(10_000, 3, 1000).size, plan(10, 3, 10**9).tolist()
    (10, 2001, [3])
    """
    most = min(MAX_POSITIONS, MAX_STATIC_BYTES // max(1, per_position))
    if most < 2:
        return np.array([current])
    return spread(count, most, current)


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def precompute(
    links: Sequence[Any],
    positions: Sequence[Any],
    current: int,
    states_at: Callable[[Any], list[dict[str, Any]]] | None,
    *,
    total: int,
    what: str,
) -> dict[str, Any]:
    """The ``_static`` value: the states of ``links`` at the planned subset of ``positions``.

    Parameters
    ----------
    links : sequence of widgets
        The models the states are for (a view may be among them).
    positions : sequence
        The candidate slider positions, ascending; ``positions[current]`` is the exported one.
    current : int
        Index of the exported position (always precomputed).
    states_at : callable
        ``states_at(position) -> list of dict``: per link, the synced traits at that position.
    total : int
        Positions the slider has in Jupyter (said in the note when fewer are precomputed).
    what : str
        What a position is, in the note (``"thresholds"``, ``"values of p_t"``).
    """
    refs = [f"IPY_MODEL_{link.model_id}" for link in links]
    if not links or not positions:
        return {"links": refs, "positions": [], "states": None, "total": total, "note": None}
    cache: dict[int, list[dict[str, Any]]] = {}

    def at(k: int) -> list[dict[str, Any]]:
        if k not in cache:
            cache[k] = states_at(positions[k])
        return cache[k]

    per_position = max(state_size(at(int(k))) for k in spread(len(positions), SAMPLES, current))
    chosen = plan(len(positions), current, per_position)
    states = [at(int(k)) for k in chosen]
    # Only the traits that differ somewhere from the exported state travel (the others are the page's own).
    for j, link in enumerate(links):
        keys = {key for position in states for key in position[j]}
        fixed = {key for key in keys if all(_same(position[j].get(key), getattr(link, key)) for position in states)}
        for position in states:
            for key in fixed & set(position[j]):
                del position[j][key]
    picked = [positions[int(k)] for k in chosen]
    estimate = per_position * len(positions)
    note = None
    if len(chosen) < 2:
        note = (
            f"The linked state of each of the {total:,} {what} (about {_mb(per_position)} each) is too large to "
            "save with this page: the slider is off here. Open the notebook in Jupyter to move it."
        )
        picked, states = [], None
    elif len(chosen) < total:
        note = (
            f"In this page the slider snaps to the {len(chosen):,} of {total:,} {what} whose linked state "
            f"was saved with it"
            + (f" (all would take about {_mb(estimate)})" if len(chosen) < len(positions) else "")
            + "; in Jupyter the kernel computes any of them."
        )
    return {"links": refs, "positions": picked, "states": states, "total": total, "note": note}


def _mb(size: float) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 1e5 else f"{math.ceil(size / 1e3)} kB"


# --------------------------------------------------------------------- when to compute
_waiting: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
_hooked: list[Any] = []


def _flush(*_: Any) -> None:
    for key in list(_waiting):
        view = _waiting.pop(key, None)
        if view is not None:
            view._precompute_static()


def schedule(view: Any) -> None:
    """Precompute ``view``'s static states at the end of the running cell (at once outside IPython).

    ``view._precompute_static()`` runs once per cell however often the view changed in it. Nothing
    happens unless :func:`exporting`, nor before the view's constructor has set ``_static_ready``.
    """
    if not exporting() or not getattr(view, "_static_ready", False):
        return
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        shell = None
    else:
        shell = get_ipython()
    if shell is None:
        view._precompute_static()
        return
    if shell not in _hooked:
        shell.events.register("post_run_cell", _flush)
        _hooked.append(shell)
    _waiting[id(view)] = view


def failed(links: Sequence[Any], total: int, error: Exception) -> dict[str, Any]:
    """The ``_static`` value when precomputing failed: no states, and a note that says why."""
    return {
        "links": [f"IPY_MODEL_{link.model_id}" for link in links],
        "positions": [],
        "states": None,
        "total": total,
        "note": f"The linked states could not be saved with this page ({type(error).__name__}: {error}): "
        "the slider is off here. Open the notebook in Jupyter to move it.",
    }
