"""Old home of :mod:`confusionlab._tables.dask`: importing it warns (FutureWarning)."""

from __future__ import annotations

from ..._tables.dask import *  # noqa: F403
from ..._tables.dask import __all__  # noqa: F401
from . import moved

moved("confusionlab.bias.engines.dask", "confusionlab._tables.dask")
