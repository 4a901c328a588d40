"""Plotting helpers for the curated notebooks (the lessons in ``notebooks/``).

The notebooks teach; the figures' code lives here so that a lesson cell reads as one
call. Every helper draws on a matplotlib ``Axes`` it is given (or creates one) and
returns it; colours come from :mod:`confusionlab.palette` (the widgets' convention) through
:mod:`confusionlab.lessons.style`, which adds matplotlib's colour map.
matplotlib is needed (the ``notebooks`` extra).
"""

from .._deps import require

require("matplotlib", "notebooks", "confusionlab.lessons")
