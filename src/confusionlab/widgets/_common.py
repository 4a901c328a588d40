"""Pieces the widgets share: count and metric traits, slice validation, buffer packing.

Every widget validates at the boundary with the same rules and messages, and ships
arrays to the browser as little-endian binary buffers.
"""

from __future__ import annotations

import math
import operator
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
