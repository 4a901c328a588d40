"""The arguments of :func:`~confusionlab.calibration` that do not depend on the data, checked once into
one frozen :class:`Options` that the array path and the ``data=`` path (``_data``) both take whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._validation import check_choice, check_int, check_n_draws, check_n_resamples, check_random_state
from ._bins import STRATEGIES
from ._ece import BYTES_PER_RESAMPLE
from ._result import _DRAW_BYTES

__all__ = ["MAX_BINS", "Options", "check_options"]

#: Most bins accepted (more bins than this hold too few forecasts to say anything).
MAX_BINS = 100_000


@dataclass(frozen=True)
class Options:
    """:func:`~confusionlab.calibration`'s arguments that do not depend on the data, checked."""

    bins: int
    strategy: str
    #: As given; checked against the labels once they are known.
    positive: Any
    n_resamples: int
    n_draws: int
    #: As given (checked): the calibrations of several groups or classes spawn their seeds from it.
    random_state: Any
    #: As given; checked against the shape of ``y_prob``.
    multi_class: str | None
    classes: Any

    def calibration_arguments(self) -> dict[str, Any]:
        """The keyword arguments of every :class:`~confusionlab.calibration.Calibration` these options set."""
        return {"strategy": self.strategy, "n_resamples": self.n_resamples, "n_draws": self.n_draws}


def check_options(
    *,
    bins: Any,
    strategy: Any,
    positive: Any,
    n_resamples: Any,
    n_draws: Any,
    random_state: Any,
    multi_class: Any,
    classes: Any,
) -> Options:
    """Check every argument of :func:`~confusionlab.calibration` that does not need the data.

    >>> o = check_options(bins=5, strategy="uniform", positive=None, n_resamples=100, n_draws=100,
    ...                   random_state=0, multi_class=None, classes=None)
    >>> o.bins, o.calibration_arguments()
    (5, {'strategy': 'uniform', 'n_resamples': 100, 'n_draws': 100})
    """
    bins = check_int(bins, "bins", minimum=1, maximum=MAX_BINS)
    strategy = check_choice(strategy, "strategy", STRATEGIES)
    n_resamples = check_n_resamples(n_resamples, bytes_per_resample=BYTES_PER_RESAMPLE)
    n_draws = check_n_draws(n_draws, bytes_per_draw=_DRAW_BYTES)
    check_random_state(random_state)  # refused here, not on first use
    return Options(
        bins=bins,
        strategy=strategy,
        positive=positive,
        n_resamples=n_resamples,
        n_draws=n_draws,
        random_state=random_state,
        multi_class=multi_class,
        classes=classes,
    )
