"""Explicit "undefined" results.

A coefficient can be mathematically undefined (Fleiss' κ when every prediction is in one
category, ICC with one object, any chance-corrected measure whose expected disagreement is
0). ConfusionLab never returns a bare NaN for that. Comparators take the policy
``on_undefined="warn" | "nan" | "raise"`` (like scikit-learn's ``zero_division``; validated
by :func:`confusionlab.stability._checks.check_on_undefined`, the library's one check) and return a
:class:`Coefficient`: a ``float`` that also carries ``reason`` (None when defined). The name
``undefined`` is kept, library-wide, for the *value* a metric takes where it is 0/0.
"""

from __future__ import annotations

import warnings
from typing import Literal

OnUndefined = Literal["warn", "nan", "raise"]

__all__ = ["Coefficient", "OnUndefined", "UndefinedCoefficientWarning", "UndefinedError"]


class UndefinedCoefficientWarning(RuntimeWarning):
    """A coefficient is undefined for these data; the value returned is NaN."""


class UndefinedError(ValueError):
    """A coefficient or stability measure is undefined for these data."""


class Coefficient(float):
    """A float that remembers which coefficient it is and why it may be undefined.

    Behaves as a plain ``float`` in arithmetic and comparisons.

    Attributes
    ----------
    name : str
        Name of the coefficient, e.g. ``"fleiss_kappa"``.
    reason : str or None
        Why the coefficient is undefined (then the value is NaN); None when defined.

    Examples
    --------
    >>> from confusionlab.stability import fleiss_kappa
    >>> k = fleiss_kappa([["a"], ["a"], ["a"]], on_undefined="nan")
    >>> k.defined, k.reason
    (False, 'all predictions fall in one category (expected agreement P_e = 1)')
    """

    name: str
    reason: str | None

    def __new__(cls, value: float, name: str, reason: str | None = None) -> Coefficient:
        obj = super().__new__(cls, value)
        obj.name = name
        obj.reason = reason
        return obj

    @property
    def defined(self) -> bool:
        """True when the coefficient has a value."""
        return self.reason is None

    @property
    def value(self) -> float:
        """The value as a plain float (NaN when undefined)."""
        return float(self)

    def __repr__(self) -> str:
        if self.reason is None:
            return f"{self.name}={float(self)!r}"
        return f"{self.name}=nan (undefined: {self.reason})"

    def __reduce__(self):  # keep pickling (joblib, dask) working
        return (Coefficient, (float(self), self.name, self.reason))


def undefined_result(name: str, reason: str, on_undefined: str, stacklevel: int = 3) -> Coefficient:
    """Apply the ``on_undefined=`` policy: warn and return NaN, return NaN, or raise.

    ``stacklevel`` places the warning (3: the caller of the function that calls this one).
    """
    if on_undefined == "raise":
        raise UndefinedError(f"{name} is undefined: {reason}")
    if on_undefined == "warn":
        warnings.warn(
            f"{name} is undefined: {reason}; returning nan",
            UndefinedCoefficientWarning,
            stacklevel=stacklevel,
        )
    return Coefficient(float("nan"), name, reason)
