"""Old home of :mod:`confusionlab._tables.narwhals`: importing it warns (FutureWarning)."""

from __future__ import annotations

from ..._tables.narwhals import *  # noqa: F403
from ..._tables.narwhals import __all__  # noqa: F401
from . import moved

moved("confusionlab.bias.engines.narwhals", "confusionlab._tables.narwhals")
