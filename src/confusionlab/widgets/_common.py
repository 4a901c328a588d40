"""Pieces the widgets share: count and metric traits, slice validation, buffer packing.

Every widget validates at the boundary with the same rules and messages, and ships
arrays to the browser as little-endian binary buffers.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import Any

import numpy as np
import traitlets

from ..metrics import METRICS

#: Largest p or n a slice widget accepts (a slice this size is drawn thinned).
MAX_SIDE = 10_000_000


class Count(traitlets.Int):
    """A non-negative integer count; accepts numpy integers, rejects bool and floats."""

    info_text = "a non-negative integer"

    def validate(self, obj: Any, value: Any) -> int:
        if isinstance(value, bool | np.bool_):
            self.error(obj, value)
        try:
            value = operator.index(value)
        except TypeError:
            self.error(obj, value)
        if value < 0:
            raise traitlets.TraitError(
                f"The '{self.name}' trait of {type(obj).__name__} must be a non-negative integer, got {value!r}."
            )
        return super().validate(obj, value)


class MetricName(traitlets.Unicode):
    """A metric of :data:`confusionlab.METRICS`; aliases ("tpr", "ba", "f2") are stored by name."""

    def validate(self, obj: Any, value: Any) -> str:
        try:
            return METRICS[value].name
        except (KeyError, ValueError, TypeError):
            raise traitlets.TraitError(
                f"{self.name} must be one of {list(METRICS)} (or an alias, or 'f<beta>'), got {self.name}={value!r}."
            ) from None


class SliceCounts(traitlets.HasTraits):
    """The traits ``p, n, tp, tn`` of a slice, validated against each other.

    One count at a time must stay consistent with the others (``tp <= p``,
    ``tn <= n``); change several at once with the widget's ``update(...)``.
    """

    p = Count(20, help="number of positives").tag(sync=True)
    n = Count(40, help="number of negatives").tag(sync=True)
    tp = Count(10, help="observed true positives").tag(sync=True)
    tn = Count(20, help="observed true negatives").tag(sync=True)

    @traitlets.validate("p", "n")
    def _check_side(self, proposal: traitlets.Bunch) -> int:
        name, value = proposal.trait.name, proposal.value
        if not 1 <= value <= MAX_SIDE:
            raise traitlets.TraitError(f"{name} must be between 1 and {MAX_SIDE:,}, got {name}={value}.")
        inner = "tp" if name == "p" else "tn"
        if getattr(self, inner) > value:
            raise traitlets.TraitError(
                f"{name}={value} is smaller than {inner}={getattr(self, inner)}; change both "
                f"together with update({name}=..., {inner}=...)."
            )
        return value

    @traitlets.validate("tp", "tn")
    def _check_observed(self, proposal: traitlets.Bunch) -> int:
        name = proposal.trait.name
        side = "p" if name == "tp" else "n"
        if proposal.value > getattr(self, side):
            raise traitlets.TraitError(
                f"{name} must be between 0 and {side}={getattr(self, side)}, got {name}={proposal.value}."
            )
        return proposal.value


class BatchedUpdates:
    """``update(**traits)``: set several traits at once, recompute once, send one message.

    A widget mixes this in before its widget base class, lists in ``_ALL_PARTS`` the
    parts of its state that can be recomputed, asks for parts with :meth:`_request`
    from its observers, and implements ``_refresh(parts)``. While the constructor or
    :meth:`update` sets traits, requests are collected and served once at the end, inside
    ``hold_sync``, so the browser never sees a mix of two states.
    """

    _ALL_PARTS: frozenset[str] = frozenset({"all"})
    _batching = False
    _pending: frozenset[str] = frozenset()

    def __init__(self, **kwargs: Any) -> None:
        self._batching = True  # compute once, below, not once per trait the constructor sets
        try:
            super().__init__(**kwargs)
        finally:
            self._batching = False
            self._pending = frozenset()
        self._refresh(set(self._ALL_PARTS))

    def _request(self, parts: Iterable[str]) -> None:
        """Recompute ``parts`` now, or once at the end of the running batch."""
        if self._batching:
            self._pending = self._pending | frozenset(parts)
        else:
            self._refresh(set(parts))

    def _refresh(self, parts: set[str]) -> None:  # pragma: no cover - implemented by widgets
        raise NotImplementedError

    def update(self, **traits: Any) -> None:
        """Change any set of traits together: validated together, computed once, and
        sent to the browser in one message (so the view never mixes two states).

        Raises
        ------
        TypeError
            For a name that is not a trait of the widget.
        traitlets.TraitError
            When a value is invalid or the counts are inconsistent; nothing changes.
        """
        unknown = sorted(set(traits) - set(self.trait_names()))  # type: ignore[attr-defined]
        if unknown:
            raise TypeError(f"update() got unknown traits {unknown}")
        self._batching = True
        self._pending = frozenset()
        try:
            with self.hold_sync():  # type: ignore[attr-defined]
                # On a TraitError, hold_trait_notifications restores every trait it changed.
                with self.hold_trait_notifications():  # type: ignore[attr-defined]
                    for key, value in traits.items():
                        setattr(self, key, value)
                self._batching = False
                if self._pending:
                    self._refresh(set(self._pending))
        finally:
            self._batching = False
            self._pending = frozenset()


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (numpy integers included, bool excluded)."""
    try:
        operator.index(value)
    except TypeError:
        return False
    return not isinstance(value, bool)


def colour_domain(values: np.ndarray, metric_range: tuple[float, float]) -> list[float]:
    """(lo, mid, hi) of the diverging colour scale.

    lo and hi are the extreme finite values; mid is the middle of the metric's range
    when that range is finite (0 for MCC, 0.5 for accuracy), otherwise the median of
    the finite values; mid is kept inside [lo, hi].
    """
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return [0.0, 0.5, 1.0]
    lo, hi = float(finite.min()), float(finite.max())
    r_lo, r_hi = (float(v) for v in metric_range)
    mid = (r_lo + r_hi) / 2 if math.isfinite(r_lo) and math.isfinite(r_hi) else float(np.median(finite))
    return [lo, min(max(mid, lo), hi), hi]


def _packer(dtype: str):
    def pack(array: np.ndarray) -> bytes:
        return np.ascontiguousarray(array, dtype=dtype).tobytes()

    pack.__doc__ = f"``array`` as contiguous little-endian {dtype} bytes (a binary buffer for the browser)."
    return pack


f32 = _packer("<f4")
f64 = _packer("<f8")
u16 = _packer("<u2")
u32 = _packer("<u4")
i32 = _packer("<i4")
