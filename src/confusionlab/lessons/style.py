"""The notebooks' matplotlib colours: :mod:`confusionlab.palette` as a colour map and a few names.

Every colour comes from :mod:`confusionlab.palette`, the one colour module that the widgets,
the HTML pages and the JavaScript views read too; this module only adds what matplotlib
needs. Metric values use the diverging scale, ColorBrewer RdBu: low values red, the middle
grey, high values blue (:data:`METRIC_CMAP`, built from :data:`DIVERGING_STOPS`). The
uncertainty models, the two classifiers of a comparison and the facets of a bias audit each
have one colour used in every notebook.

Examples
--------
>>> from confusionlab import palette
>>> from confusionlab.lessons.style import DIVERGING_STOPS, METRIC_CMAP, MODEL_COLOURS
>>> METRIC_CMAP.name
'confusionlab_rdbu'
>>> MODEL_COLOURS["beta-binomial"] == palette.MODEL_COLOURS["beta-binomial"]
True
>>> DIVERGING_STOPS is palette.DIVERGING
True
"""

from __future__ import annotations

from matplotlib.colors import LinearSegmentedColormap

from .. import palette
from ..models import MODELS

__all__ = ["DIVERGING_STOPS", "GROUP_COLOURS", "METRIC_CMAP", "MODEL_COLOURS", "NEUTRAL", "PAIR_COLOURS"]

#: The nine RdBu stops of the metric-value scale, low → high (:data:`confusionlab.palette.DIVERGING`).
DIVERGING_STOPS: tuple[str, ...] = palette.DIVERGING

#: Colour map of metric values: red (low) → grey (middle) → blue (high), as in the widgets.
METRIC_CMAP = LinearSegmentedColormap.from_list("confusionlab_rdbu", DIVERGING_STOPS)

#: The uncertainty models a lesson draws (:data:`confusionlab.models.MODELS`): binomial (the
#: narrower, orange), beta-binomial (blue) and dirichlet-multinomial (purple), in the palette's colours.
MODEL_COLOURS: dict[str, str] = {model: palette.MODEL_COLOURS[model] for model in MODELS}

#: Two classifiers compared on one test set: A and B (:data:`confusionlab.palette.PAIR_COLOURS`).
PAIR_COLOURS: dict[str, str] = palette.PAIR_COLOURS

#: Facets of a bias audit: the advantaged group a and the disadvantaged group d
#: (:data:`confusionlab.palette.GROUP_COLOURS`).
GROUP_COLOURS: dict[str, str] = palette.GROUP_COLOURS

#: Reference lines, the observed value and annotations (:data:`confusionlab.palette.NEUTRAL`).
NEUTRAL: str = palette.NEUTRAL
