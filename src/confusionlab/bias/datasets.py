"""Old home of the UCI Adult loader, now :mod:`confusionlab.datasets`.

Its names still work from here for one release, with a :class:`FutureWarning` naming the new home.
"""

from __future__ import annotations

from .. import datasets
from .._deprecation import moved_names

__getattr__ = moved_names(__name__, datasets, datasets.__all__)
