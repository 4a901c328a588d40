"""Exact PMFs of confusion-matrix metrics, their comparison and their mixtures.

:func:`metric_distribution` pushes a model's lattice PMF (see
:mod:`confusionlab.models`) through a metric, grouping lattice points on exact
values (:mod:`confusionlab.grouping`). The result, a :class:`MetricDistribution`,
speaks scipy.stats' vocabulary: ``pmf``, ``cdf``, ``sf``, ``ppf``, ``mean``,
``var``, ``std``, ``interval``, ``rvs`` and ``to_scipy``. :func:`compare` relates two
of them (classifiers scored on independent test sets) in a :class:`Comparison`.

Both are results of the library's one protocol (:mod:`confusionlab._result`):
``value``, ``interval(confidence)``, ``to_frame()``, ``to_html(path)``, ``plot(ax)``,
``view()`` and ``summary(confidence)``.

A model refitted R times and scored on a new test set gives the equal-weight
:func:`mixture` of the refits' distributions (:func:`slice_mixture` for matrices of one
slice, :func:`slice_mixtures` for many groups at once); :func:`decompose` splits its
variance into a test-set part and a refit part (the law of total variance).

The modules, one idea each: :mod:`~confusionlab.distribution.pmf` (the distribution),
:mod:`~confusionlab.distribution.origin` (what it was computed from),
:mod:`~confusionlab.distribution.build` (:func:`metric_distribution`),
:mod:`~confusionlab.distribution.arithmetic` (the exact keys' arithmetic and price),
:mod:`~confusionlab.distribution.pushforward` (a lattice PMF through a metric),
:mod:`~confusionlab.distribution.sampled` (Monte Carlo of the same model),
:mod:`~confusionlab.distribution.true_value` (the true value's quadrature),
:mod:`~confusionlab.distribution.compare` (two distributions compared),
:mod:`~confusionlab.distribution.mixtures`, :mod:`~confusionlab.distribution.batched`,
:mod:`~confusionlab.distribution.lean`, :mod:`~confusionlab.distribution.moments` (mixtures)
and :mod:`~confusionlab.distribution.variance` (the law of total variance).

The posterior machinery of metrics of small count tables: a distribution
from a posterior's weighted atoms or draws, its Monte Carlo error and sign
(:mod:`~confusionlab.distribution.posterior`), Dirichlet-multinomial draws of count vectors
reduced in bounded memory (:mod:`~confusionlab.distribution.count_draws`), and the true value of
a function of two Beta rates (:mod:`~confusionlab.distribution.two_beta`, by the quadrature of
:mod:`~confusionlab.distribution.quadrature`).
"""

from ..models import TARGETS
from .arithmetic import BYTES_PER_LATTICE_POINT, FLOAT_LATTICE_BYTES, LATTICE_BYTES, key_arithmetic, lattice_bytes
from .batched import BATCH_CHUNK_POINTS, BATCH_POINTS, slice_mixtures
from .build import METHODS, metric_distribution, shared_simplex
from .compare import BYTES_PER_PAIR, MAX_BINS, Comparison, compare
from .mixtures import (
    EXACT_MIXTURE_POINTS,
    LEAN_POINTS,
    MIXTURE_EXTRA_BYTES,
    SliceMixture,
    mixture,
    mixture_bytes,
    slice_mixture,
)
from .origin import Origin
from .plotting import MAX_STICKS, PLOT_BINS
from .pmf import TOTAL_MASS_TOLERANCE, MetricDistribution, checked_in_bulk
from .pushforward import lattice_distribution
from .sampled import DEFAULT_DRAWS, MAX_DISTRIBUTION_DRAWS, MC_CDF_RISK
from .true_value import TRUE_VALUE_NODES, TRUE_VALUE_PRIOR
from .variance import decompose, decompose_rows

__all__ = [
    "BATCH_CHUNK_POINTS",
    "BATCH_POINTS",
    "BYTES_PER_LATTICE_POINT",
    "BYTES_PER_PAIR",
    "DEFAULT_DRAWS",
    "EXACT_MIXTURE_POINTS",
    "FLOAT_LATTICE_BYTES",
    "LATTICE_BYTES",
    "LEAN_POINTS",
    "MAX_BINS",
    "MAX_DISTRIBUTION_DRAWS",
    "MAX_STICKS",
    "MC_CDF_RISK",
    "METHODS",
    "MIXTURE_EXTRA_BYTES",
    "PLOT_BINS",
    "TARGETS",
    "TOTAL_MASS_TOLERANCE",
    "TRUE_VALUE_NODES",
    "TRUE_VALUE_PRIOR",
    "Comparison",
    "MetricDistribution",
    "Origin",
    "SliceMixture",
    "checked_in_bulk",
    "compare",
    "decompose",
    "decompose_rows",
    "key_arithmetic",
    "lattice_bytes",
    "lattice_distribution",
    "metric_distribution",
    "mixture",
    "mixture_bytes",
    "shared_simplex",
    "slice_mixture",
    "slice_mixtures",
]
