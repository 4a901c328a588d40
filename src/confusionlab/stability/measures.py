r"""Per-object predictive stability: phi (data-based) and psi (model-based).

For object i predicted by R refits, :math:`x_{i1}, \dots, x_{iR}`, and a reference sample
:math:`z_1, \dots, z_m`, with a distance δ (nominal, ordinal or metric: see
:mod:`confusionlab.stability.distances`):

.. math::

    D_{o,i} = \operatorname{mean}_{j \ne l} \delta(x_{ij}, x_{il}), \qquad
    D_e = \operatorname{mean}_{a \ne b} \delta(z_a, z_b), \qquad
    S_i = 1 - D_{o,i} / D_e .

*phi* uses the training responses as reference, *psi* out-of-sample predictions of the
model (out-of-bag or K-fold, pooled over refits). The aggregate is the mean of
:math:`S_i` over objects, which equals pooling because :math:`D_e` does not depend on i.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._deprecation import renamed_arguments
from .._deps import require
from .._result import Result, new_figure
from .._validation import InvalidParameterError, check_confidence, check_int, check_memory, check_random_state
from ..palette import NEUTRAL, THEME
from ._checks import check_on_undefined
from ._counting import category_counts
from ._input import as_float, as_matrix, as_sample, check_scale
from ._undefined import OnUndefined, UndefinedCoefficientWarning, undefined_result
from .distances import mean_pair_squared_difference, ordinal_positions, pair_distance_sums

__all__ = ["MAX_BOOT", "MAX_RESAMPLES", "StabilityResult", "phi", "psi", "stability"]

#: Most bootstrap resamples :meth:`StabilityResult.interval` accepts (10⁶ resamples pin a
#: 95 % percentile down far below any other error in the interval).
MAX_RESAMPLES = 1_000_000
#: Most resampled values (n_resamples × objects) one interval may draw; above it the call
#: is refused rather than left running for minutes.
MAX_RESAMPLED_VALUES = 2 * 10**9
#: The old names of :data:`MAX_RESAMPLES` and :data:`MAX_RESAMPLED_VALUES` (kept for one release).
MAX_BOOT = MAX_RESAMPLES
MAX_BOOT_DRAWS = MAX_RESAMPLED_VALUES


@dataclass(frozen=True, repr=False, eq=False)
class StabilityResult(Result):
    """Per-object stability and its aggregate.

    A result like every other of the library: ``value`` (the mean stability),
    ``interval(confidence)`` (a bootstrap over objects), ``to_frame()`` (one row per object),
    ``to_html()``, ``plot()`` (the histogram of per-object stability) and ``view()``.

    Attributes
    ----------
    measure : str
        ``"phi"`` or ``"psi"``.
    scale : str
        ``"nominal"``, ``"ordinal"`` or ``"metric"``.
    per_object : numpy.ndarray of shape (objects,)
        :math:`S_i = 1 - D_{o,i}/D_e`; NaN for an object with fewer than two predictions.
    observed : numpy.ndarray of shape (objects,)
        :math:`D_{o,i}`, mean distance over ordered pairs of the object's predictions.
    expected : float
        :math:`D_e`, mean distance over ordered pairs of the reference sample.
    n_refits : numpy.ndarray of shape (objects,)
        Number of non-missing predictions per object.
    categories : numpy.ndarray or None
        Categories in the order used (None for the metric scale).
    reason : str or None
        Why the measure is undefined for these data (then ``per_object`` is all NaN, ``value``
        is NaN and ``interval()`` is (NaN, NaN)); None when it is defined. Only results made
        with ``on_undefined="warn"`` or ``"nan"`` can be undefined.
    """

    measure: str
    scale: str
    per_object: np.ndarray
    observed: np.ndarray
    expected: float
    n_refits: np.ndarray
    categories: np.ndarray | None = None
    reason: str | None = None

    title = "Predictive stability"

    @property
    def defined(self) -> bool:
        """True when the measure has a value for these data."""
        return self.reason is None

    @property
    def value(self) -> float:
        """Mean of ``per_object`` over objects with at least two predictions (NaN when undefined)."""
        s = self.per_object[~np.isnan(self.per_object)]
        return float(np.mean(s)) if s.size else float("nan")

    @property
    def n_objects(self) -> int:
        """Number of objects (columns of the prediction matrix)."""
        return int(self.per_object.size)

    @renamed_arguments(n_boot="n_resamples")
    def interval(
        self,
        confidence: float = 0.95,
        n_resamples: int = 2000,
        random_state: int | np.random.Generator | None = 0,
    ) -> tuple[float, float]:
        """Percentile bootstrap interval of ``value``, resampling objects.

        Parameters
        ----------
        confidence : float
            Coverage in (0, 1).
        n_resamples : int
            Number of bootstrap resamples, 1 to :data:`MAX_RESAMPLES`; at most
            :data:`MAX_RESAMPLED_VALUES` values (n_resamples × objects) are drawn. (Was
            ``n_boot``, still accepted for one release with a FutureWarning.)
        random_state : None, int, numpy.random.SeedSequence or numpy.random.Generator, default 0
            Seed for reproducible intervals (None: fresh entropy).

        Returns
        -------
        (low, high) : tuple of float

        Notes
        -----
        The interval reflects variation between test objects only (D_e is held fixed);
        it needs at least two objects with a defined S_i.

        Examples
        --------
        >>> import numpy as np
        >>> from confusionlab.stability import phi
        >>> pred = np.array([[1, 1, 0, 1], [1, 0, 0, 1], [1, 1, 0, 0]])
        >>> s = phi(pred, [0, 1, 0, 1, 1, 0], "nominal")
        >>> s.per_object.round(3)
        array([ 1.   , -0.111,  1.   , -0.111])
        >>> lo, hi = s.interval(0.9, random_state=0)
        >>> bool(s.per_object.min() <= lo <= s.value <= hi <= s.per_object.max())
        True
        """
        confidence = check_confidence(confidence)
        n_resamples = check_int(n_resamples, "n_resamples", minimum=1, maximum=MAX_RESAMPLES)
        rng = check_random_state(random_state)
        if self.reason is not None:
            return float("nan"), float("nan")
        s = self.per_object[~np.isnan(self.per_object)]
        if s.size < 2:
            raise ValueError(
                f"interval() resamples objects and needs at least 2 objects with a defined stability; got {s.size}"
            )
        if n_resamples * s.size > MAX_RESAMPLED_VALUES:
            raise InvalidParameterError(
                f"n_resamples={n_resamples:,} resamples of {s.size:,} objects would draw {n_resamples * s.size:,} "
                f"values, more than {MAX_RESAMPLED_VALUES:,}; use a smaller n_resamples (2,000 is plenty for a "
                "95 % interval)"
            )
        chunk = max(1, 4_000_000 // s.size)
        check_memory(
            8.0 * n_resamples + 16.0 * min(chunk, n_resamples) * s.size,
            f"n_resamples={n_resamples:,} bootstrap resamples",
            "use a smaller n_resamples",
        )
        means = np.empty(n_resamples)
        for start in range(0, n_resamples, chunk):
            b = min(chunk, n_resamples - start)
            means[start : start + b] = s[rng.integers(0, s.size, size=(b, s.size))].mean(axis=1)
        tail = (1.0 - confidence) / 2.0
        lo, hi = np.quantile(means, [tail, 1.0 - tail])
        return float(lo), float(hi)

    def to_frame(self) -> Any:
        """One row per object (index ``object``): its stability, observed disagreement and predictions.

        Columns ``stability`` (:math:`S_i`, NaN for an object with fewer than two
        predictions), ``observed`` (:math:`D_{o,i}`) and ``n_refits``. The expected
        disagreement :math:`D_e`, the same for every object, and the measure's name are in
        ``frame.attrs`` (``"expected"``, ``"measure"``, ``"scale"``); the mean of the
        ``stability`` column is :attr:`value`.

        Examples
        --------
        >>> from confusionlab.stability import phi
        >>> s = phi([[0, 1], [0, 1], [0, 0]], train_y=[0, 1, 1, 0], scale="nominal")
        >>> s.to_frame()
                stability  observed  n_refits
        object
        0             1.0  0.000000         3
        1             0.0  0.666667         3
        """
        pd = require("pandas", "notebooks", "to_frame()")

        frame = pd.DataFrame(
            {"stability": self.per_object, "observed": self.observed, "n_refits": self.n_refits},
            index=pd.RangeIndex(self.n_objects, name="object"),
        )
        frame.attrs.update(expected=self.expected, measure=self.measure, scale=self.scale)
        return frame

    def plot(self, ax: Any = None) -> Any:
        """Histogram of the per-object stability, with its mean (:attr:`value`) marked.

        Returns the matplotlib Figure (``ax``'s own when given).
        """
        fig, ax = new_figure(ax)
        s = self.per_object[~np.isnan(self.per_object)]
        if s.size:
            ax.hist(s, bins=min(20, max(5, s.size // 5)), color=THEME["accent"], alpha=0.85)
            ax.axvline(self.value, color=NEUTRAL, ls="--", lw=1.2, label=f"mean {self.value:.3f}")
            ax.legend(fontsize=8)
        else:
            ax.text(0.5, 0.5, f"{self.measure} is undefined: {self.reason}"[:90], ha="center", transform=ax.transAxes)
        ax.set_xlabel(f"per-object {self.measure}")
        ax.set_ylabel("objects")
        ax.set_title(f"{self.title}: {self.measure} ({self.scale})")
        return fig

    def summary(self, confidence: float = 0.95) -> str:
        """The mean stability in words, with its bootstrap interval (``random_state=0``: the same every time).

        The interval is :meth:`interval` with ``random_state=0``; above 10,000 objects it
        uses fewer resamples (at least 100, about 2·10⁷ resampled values), so that a
        notebook shows a large result at once.

        >>> from confusionlab.stability import phi
        >>> print(phi([[0, 1], [0, 1], [0, 0]], train_y=[0, 1, 1, 0], scale="nominal").summary())
        phi = 0.500 over 2 objects (95 % bootstrap interval over objects 0.000 to 1.000); 1 means
        every refit agrees, 0 no more agreement than chance.
        """
        confidence = check_confidence(confidence)
        if self.reason is not None:
            return f"{self.measure} is undefined for these data: {self.reason}."
        text = f"{self.measure} = {self.value:.3f} over {self.n_objects:,} objects"
        n_defined = int(np.count_nonzero(~np.isnan(self.per_object)))
        if n_defined >= 2:
            lo, hi = self.interval(confidence, max(100, min(2000, 20_000_000 // n_defined)), random_state=0)
            text += f" ({confidence * 100:g} % bootstrap interval over objects {lo:.3f} to {hi:.3f})"
        return text + "; 1 means every refit agrees, 0 no more agreement than chance."

    def __repr__(self) -> str:
        return (
            f"StabilityResult(measure={self.measure!r}, scale={self.scale!r}, "
            f"value={self.value:.4g}, objects={self.n_objects}, expected={self.expected:.4g})"
        )


def stability(
    predictions: Any,
    reference: Any,
    scale: str,
    categories: ArrayLike | None = None,
    *,
    measure: str = "stability",
    reference_name: str = "reference",
    on_undefined: OnUndefined = "raise",
) -> StabilityResult:
    """Stability S_i = 1 − D_o,i / D_e against any reference sample.

    :func:`phi` and :func:`psi` are this function with the training responses or the
    out-of-sample predictions as ``reference``.

    Parameters
    ----------
    predictions : array_like of shape (refits, objects)
        Predictions of R ≥ 2 refits for each object; NaN (or None) marks a missing value.
    reference : array_like
        Reference sample (any shape; pooled). Missing values are dropped.
    scale : {"nominal", "ordinal", "metric"}
        Measurement scale of the predictions.
    categories : sequence, optional
        Categories (in order for ``"ordinal"``). By default the observed values (sorted).
    measure, reference_name : str
        Labels used in the result and in error messages.
    on_undefined : {"raise", "warn", "nan"}, default "raise"
        What an undefined measure gives (a constant reference, D_e = 0, or no object with
        two predictions): an :class:`UndefinedError`, or a result whose ``value`` is NaN and
        whose ``reason`` says why — with an :class:`UndefinedCoefficientWarning` for
        ``"warn"``.

    Returns
    -------
    StabilityResult

    Raises
    ------
    InvalidParameterError
        Bad predictions, reference, scale or categories (the message names the argument).
    UndefinedError
        If the reference sample is constant (D_e = 0): stability is then undefined
        (``on_undefined="raise"``).

    See Also
    --------
    phi : this function with the training responses as reference.
    psi : this function with out-of-sample predictions as reference.
    stability_curve : stability against the number of learners, by refitting a model.
    krippendorff_alpha, fleiss_kappa, gwet_ac1, icc : the classical agreement coefficients.

    Examples
    --------
    >>> from confusionlab.stability import stability
    >>> s = stability([[1, 2], [1, 3], [1, 2]], reference=[1, 2, 3, 1], scale="ordinal")
    >>> s.per_object.round(3).tolist()  # D_o = 2/3 against D_e = 3 (mid-ranks 1, 2.5, 3.5)
    [1.0, 0.778]
    """
    scale = check_scale(scale)
    on_undefined = check_on_undefined(on_undefined)
    pred = as_matrix(predictions)
    ref = as_sample(reference, reference_name)
    if scale == "metric":
        x = as_float(pred, "predictions")
        z = as_float(ref, reference_name)
        z = z[~np.isnan(z)]
        if z.size < 2:
            raise InvalidParameterError(f"{reference_name} needs at least 2 non-missing values")
        expected = float(mean_pair_squared_difference(z))
        observed = mean_pair_squared_difference(x, axis=0)
        n_refits = (~np.isnan(x)).sum(axis=0)
        cats = None
    else:
        (counts, m), cats = category_counts(
            [(predictions, pred, "predictions", True), (reference, ref, reference_name, False)],
            categories,
            ordinal=scale == "ordinal",
        )
        n_ref = float(m.sum())
        if n_ref < 2:
            raise InvalidParameterError(f"{reference_name} needs at least 2 non-missing values")
        # ordinal δ(c, k) = (t_c − t_k)² with t the mid-ranks of the reference counts
        positions = None if scale == "nominal" else ordinal_positions(m)
        expected = float(pair_distance_sums(m, positions) / (n_ref * (n_ref - 1.0)))
        n_refits = counts.sum(axis=1)
        pairs = n_refits * (n_refits - 1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            observed = np.where(
                pairs > 0, pair_distance_sums(counts, positions) / np.where(pairs > 0, pairs, 1.0), np.nan
            )
    result = {
        "measure": measure,
        "scale": scale,
        "observed": observed,
        "expected": expected,
        "n_refits": n_refits,
        "categories": cats,
    }
    if not expected > 0.0:
        reason = (
            f"the {reference_name} sample is constant, so the expected disagreement D_e is 0 (no "
            "disagreement is possible by chance). Use a reference with variation, e.g. "
            "out-of-sample predictions (psi) instead of a constant training response"
        )
        return _undefined(result, reason, on_undefined)
    per_object = 1.0 - observed / expected
    n_undefined = int(np.isnan(per_object).sum())
    if n_undefined == per_object.size:
        return _undefined(result, "no object has two or more non-missing predictions", on_undefined)
    if n_undefined:
        warnings.warn(
            f"{n_undefined} object(s) have fewer than 2 non-missing predictions; their "
            f"{measure} is NaN and they are left out of the mean",
            UndefinedCoefficientWarning,
            stacklevel=3,
        )
    return StabilityResult(per_object=per_object, **result)


def _undefined(result: dict, reason: str, on_undefined: str) -> StabilityResult:
    """Apply the ``on_undefined=`` policy to an undefined stability measure (raise, or warn and/or
    return a result whose ``per_object`` is all NaN)."""
    undefined_result(result["measure"], reason, on_undefined, stacklevel=5)  # the caller of phi/psi
    per_object = np.full(np.shape(result["observed"]), np.nan)
    return StabilityResult(per_object=per_object, reason=reason, **result)


def phi(
    predictions: Any, train_y: Any, scale: str, categories: Any = None, *, on_undefined: OnUndefined = "raise"
) -> StabilityResult:
    r"""Data-based predictive stability phi: reference = training responses.

    Parameters
    ----------
    predictions : array_like of shape (refits, objects)
        Predictions of R ≥ 2 refits (rows) for each test object (columns): numpy, pandas,
        xarray or nested lists. NaN/None marks a missing prediction (skipped pairwise).
    train_y : array_like
        Training responses, the reference sample for D_e.
    scale : {"nominal", "ordinal", "metric"}
        Measurement scale.
    categories : sequence, optional
        Category list, in order for ``"ordinal"``; must contain every observed value.
        Default: the observed values, sorted (numbers only for ordinal data). Pandas ordered
        categoricals supply their own categories.
    on_undefined : {"raise", "warn", "nan"}, default "raise"
        What constant training responses (D_e = 0) give: an :class:`UndefinedError`, or a
        result with ``value`` NaN and ``reason`` set (warning first for ``"warn"``).

    Returns
    -------
    StabilityResult
        With ``per_object`` (S_i), ``observed`` (D_o,i), ``expected`` (D_e), ``value``
        (mean S_i) and ``interval()``.

    Raises
    ------
    InvalidParameterError
        Ragged or non-2-D predictions, fewer than 2 refits, unknown scale, values missing
        from ``categories``.
    UndefinedError
        Constant training responses (D_e = 0), with ``on_undefined="raise"``.

    See Also
    --------
    psi : the same measure against out-of-sample predictions of the model.
    stability : the same measure against any reference sample.
    stability_curve : phi (or psi) against the number of learners, by refitting a model.
    krippendorff_alpha, fleiss_kappa, gwet_ac1, icc : the classical agreement coefficients,
        which refits × objects data also answer (and where they fail: extreme prevalence,
        few objects).

    Notes
    -----
    Closed forms: nominal :math:`D_{o,i} = 1 - \sum_c n_{ic}(n_{ic}-1)/(R(R-1))`; metric
    :math:`\phi_i = 1 - s_i^2/\operatorname{var}(y)` (both ``ddof=1``). S can be negative
    (less stable than chance).

    References
    ----------
    T. M. Lange, F. Heinrich et al., "A General Framework for Stability Assessment of
    Non-Deterministic Prediction Models" (R package APS).

    Examples
    --------
    Ten refits agree on object 0; object 1 gets 8 × "neg" and 2 × "pos"; the training data
    hold 10 "pos" among 100:

    >>> import numpy as np
    >>> from confusionlab.stability import phi
    >>> pred = np.array([["neg", "neg"]] * 8 + [["neg", "pos"]] * 2)
    >>> s = phi(pred, ["pos"] * 10 + ["neg"] * 90, "nominal")
    >>> s.per_object.round(3)
    array([ 1.   , -0.956])
    >>> round(s.value, 3)
    0.022
    >>> round(s.expected, 4)
    0.1818

    A constant training response leaves nothing to compare with:

    >>> s = phi(pred, ["neg"] * 100, "nominal", on_undefined="nan")
    >>> s.defined, s.value
    (False, nan)
    """
    return stability(
        predictions,
        train_y,
        scale,
        categories,
        measure="phi",
        reference_name="train_y",
        on_undefined=on_undefined,
    )


def psi(
    predictions: Any,
    reference_predictions: Any,
    scale: str,
    categories: Any = None,
    *,
    on_undefined: OnUndefined = "raise",
) -> StabilityResult:
    """Model-based predictive stability psi: reference = out-of-sample predictions.

    Parameters
    ----------
    predictions : array_like of shape (refits, objects)
        Predictions of R ≥ 2 refits for each test object; NaN/None marks a missing value.
    reference_predictions : array_like
        Out-of-sample predictions of the model (out-of-bag or K-fold), any shape; pooled
        over refits. Missing values are dropped.
    scale : {"nominal", "ordinal", "metric"}
        Measurement scale.
    categories : sequence, optional
        Category list (ordered for ``"ordinal"``); see :func:`phi`.
    on_undefined : {"raise", "warn", "nan"}, default "raise"
        What constant reference predictions (D_e = 0) give; see :func:`phi`.

    Returns
    -------
    StabilityResult

    See Also
    --------
    phi : the same measure against the training responses.
    stability : the same measure against any reference sample.
    stability_curve : psi against the number of learners (``measure="psi"``).
    icc : the intraclass correlation, biased and highly variable on few test objects, where
        psi is not.

    Notes
    -----
    Metric closed form: :math:`\\psi_i = 1 - s_i^2 / \\operatorname{var}(\\text{oob})`.

    Examples
    --------
    >>> import numpy as np
    >>> from confusionlab.stability import psi
    >>> pred = np.array([[2.0, 5.0], [2.2, 5.0], [1.8, 5.0]])
    >>> oob = np.array([1.0, 3.0, 5.0, 7.0])
    >>> psi(pred, oob, "metric").per_object.round(4)
    array([0.994, 1.   ])
    """
    return stability(
        predictions,
        reference_predictions,
        scale,
        categories,
        measure="psi",
        reference_name="reference_predictions",
        on_undefined=on_undefined,
    )
