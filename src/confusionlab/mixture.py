"""Old home of the mixtures of metric distributions, now in :mod:`confusionlab.distribution`.

Importing this module gives a :class:`FutureWarning`; its names are those of
:mod:`confusionlab.distribution` and it will be removed in the next release.
"""

from ._deprecation import moved_module
from .distribution import (
    BATCH_POINTS,
    EXACT_MIXTURE_POINTS,
    MIXTURE_EXTRA_BYTES,
    SliceMixture,
    decompose,
    decompose_rows,
    mixture,
    mixture_bytes,
    slice_mixture,
    slice_mixtures,
)

__all__ = [
    "BATCH_POINTS",
    "EXACT_MIXTURE_POINTS",
    "MIXTURE_EXTRA_BYTES",
    "SliceMixture",
    "decompose",
    "decompose_rows",
    "mixture",
    "mixture_bytes",
    "slice_mixture",
    "slice_mixtures",
]

moved_module(__name__, "confusionlab.distribution")
