"""Old home of :mod:`confusionlab._tables.pandas`: importing it warns (FutureWarning)."""

from __future__ import annotations

from ..._tables.pandas import *  # noqa: F403
from ..._tables.pandas import __all__  # noqa: F401
from . import moved

moved("confusionlab.bias.engines.pandas", "confusionlab._tables.pandas")
