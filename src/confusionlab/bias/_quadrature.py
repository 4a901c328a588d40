"""Old home of the quadrature of two Beta rates, now :mod:`confusionlab.distribution.quadrature`.

Importing this module gives a :class:`FutureWarning`; its names are those of
:mod:`confusionlab.distribution.quadrature` and it will be removed in the next release.
"""

from .._deprecation import moved_module
from ..distribution.quadrature import GAUSS_NODES, PANELS, TABLE_POINTS, TRIM, TwoBetaCdf, cdf_on

__all__ = ["GAUSS_NODES", "PANELS", "TABLE_POINTS", "TRIM", "TwoBetaCdf", "cdf_on"]

moved_module(__name__, "confusionlab.distribution.quadrature")
