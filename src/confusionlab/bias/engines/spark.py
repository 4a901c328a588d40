"""Old home of :mod:`confusionlab._tables.spark`: importing it warns (FutureWarning)."""

from __future__ import annotations

from ..._tables.spark import *  # noqa: F403
from ..._tables.spark import __all__  # noqa: F401
from . import moved

moved("confusionlab.bias.engines.spark", "confusionlab._tables.spark")
