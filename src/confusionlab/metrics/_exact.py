"""Exact forms: a metric value as a ratio of integer arrays, the key equal values are grouped on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validation import InvalidParameterError

ArrayLike = Any


@dataclass(frozen=True)
class ExactForm:
    """A metric value as an exact ratio of integer arrays.

    ``kind == "ratio"``: value = ``scale * num / den``.
    ``kind == "signed_square"``: value = ``sign(num) * sqrt(scale * |num| / den)``.
    ``kind == "custom"``: value = ``transform(num, den)``.
    In every kind the value is a non-decreasing function of the rational number
    ``num / den``, so equal ratios mean equal values and sorting by the ratio
    sorts by value. Points with ``num == den == 0`` or in ``undefined`` are undefined (0/0);
    points with ``den == 0 != num`` are ±inf (x/0, by the sign of ``num``).

    ``bounds``, when known without scanning the lattice (e.g. on a slice, see
    :meth:`~confusionlab.metrics.Metric._exact_on_slice`), are upper bounds on ``|num|``, ``den`` and
    ``|num / den|`` over the points with ``den > 0``; :mod:`confusionlab.grouping` then
    skips its scans of the lattice.
    """

    num: np.ndarray
    den: np.ndarray
    kind: str = "ratio"
    scale: float = 1.0
    undefined: np.ndarray | None = None
    transform: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
    bounds: tuple[float, float, float] | None = None

    def special_points(self, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The points where the value is not ``num/den``: ``(where, undefined, sign)``.

        ``where`` are flat indices into ``shape`` of every point with ``den == 0`` or in
        ``undefined`` (one pass over the lattice; such points are few). For each,
        ``undefined`` says 0/0 (or listed in ``undefined``), and ``sign`` is +1/−1 for the
        rest, which are x/0 = ±inf.
        """
        special = np.broadcast_to(np.asarray(self.den) == 0, shape)
        if self.undefined is not None:
            special = special | np.broadcast_to(self.undefined, shape)
        if not special.any():
            empty = np.empty(0, dtype=np.intp)
            return empty, np.empty(0, dtype=bool), np.empty(0)
        where = np.flatnonzero(special)
        at = np.unravel_index(where, shape)
        num = np.broadcast_to(np.asarray(self.num), shape)[at]
        den = np.broadcast_to(np.asarray(self.den), shape)[at]
        undefined = (den == 0) & (num == 0)
        if self.undefined is not None:
            undefined |= np.broadcast_to(self.undefined, shape)[at]
        return where, undefined, np.sign(num).astype(np.float64)

    def value(self, num: np.ndarray, den: np.ndarray, *, overwrite: bool = False) -> np.ndarray:
        """The metric value of integer ratios ``num/den`` (``den > 0``).

        ``den`` may be the scalar 1 (``num`` then holds the ratios, as floats). With
        ``overwrite=True`` a float64 ``num`` may be overwritten by the result.
        """
        num = np.asarray(num, dtype=np.float64)
        den_one = np.ndim(den) == 0 and den == 1
        den = np.asarray(den, dtype=np.float64)
        if self.kind == "ratio":
            return self.scale * (num / den) if self.scale != 1.0 else num / den
        if self.kind == "signed_square":  # sign(num) * sqrt(scale * (|num| / den)), in place
            negative = num < 0
            out = num if overwrite and num.ndim and num.flags.writeable else np.empty_like(num)
            np.abs(num, out=out)
            if not den_one:  # x / 1.0 == x
                np.divide(out, den, out=out)
            if self.scale != 1.0:
                np.multiply(out, self.scale, out=out)
            np.sqrt(out, out=out)
            np.negative(out, out=out, where=negative)  # = sign(num) * out: +0.0 where num is ±0
            return out if out.ndim else out[()]
        assert self.transform is not None
        return self.transform(num, den)


def _i(x: ArrayLike) -> np.ndarray:
    arr = np.asarray(x)
    if arr.dtype.kind not in "iu":
        raise InvalidParameterError(f"exact forms need integer counts, got an array of dtype {arr.dtype}")
    return arr.astype(np.int64, copy=False)


def _ratio(num: np.ndarray, den: np.ndarray, **kw: Any) -> ExactForm:
    return ExactForm(np.asarray(num), np.asarray(den), "ratio", **kw)


def _signed_square(root_num: np.ndarray, den: np.ndarray) -> ExactForm:
    """sign(r) * sqrt(r**2 / den) from the integer r."""
    root_num = np.asarray(root_num)
    return ExactForm(root_num * np.abs(root_num), np.asarray(den), "signed_square")
