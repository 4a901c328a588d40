"""Old home of :mod:`confusionlab._tables.table`: importing it warns (FutureWarning)."""

from __future__ import annotations

from ..._tables.knots import Knots, knots_from_sample
from ..._tables.table import *  # noqa: F403
from ..._tables.table import __all__ as _moved_names
from . import moved

__all__ = [*_moved_names, "Knots", "knots_from_sample"]

moved("confusionlab.bias.engines.table", "confusionlab._tables.table")
