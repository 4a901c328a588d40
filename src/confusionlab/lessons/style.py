"""One colour convention for the notebooks' matplotlib figures and the widgets.

Metric values use the widgets' diverging scale, ColorBrewer RdBu: low values red, the
middle grey, high values blue (``js/shared/colour.js`` holds the same nine stops). The
two uncertainty models, the two models of a comparison and the groups of a bias audit
each have one colour used in every notebook.

Examples
--------
>>> from confusionlab.lessons.style import METRIC_CMAP, MODEL_COLOURS
>>> METRIC_CMAP.name
'confusionlab_rdbu'
>>> MODEL_COLOURS["beta-binomial"]
'#2166ac'
"""

from __future__ import annotations

from matplotlib.colors import LinearSegmentedColormap

__all__ = ["DIVERGING_STOPS", "GROUP_COLOURS", "METRIC_CMAP", "MODEL_COLOURS", "NEUTRAL", "PAIR_COLOURS"]

#: The nine RdBu stops of the widgets' colour scale, low → high (as in js/shared/colour.js).
DIVERGING_STOPS: tuple[str, ...] = (
    "#b2182b",
    "#d6604d",
    "#f4a582",
    "#fddbc7",
    "#e0e0e0",
    "#d1e5f0",
    "#92c5de",
    "#4393c3",
    "#2166ac",
)

#: Colour map of metric values: red (low) → grey (middle) → blue (high), as in the widgets.
METRIC_CMAP = LinearSegmentedColormap.from_list("confusionlab_rdbu", DIVERGING_STOPS)

#: The uncertainty models: binomial (the narrower, orange) and beta-binomial (blue).
MODEL_COLOURS: dict[str, str] = {
    "binomial": "#e08214",
    "beta-binomial": "#2166ac",
    "dirichlet-multinomial": "#5e3c99",
}

#: Two models compared on one test set: A and B.
PAIR_COLOURS: dict[str, str] = {"A": "#1b7837", "B": "#762a83"}

#: Facets of a bias audit: the advantaged group a and the disadvantaged group d.
GROUP_COLOURS: dict[str, str] = {"a": "#4393c3", "d": "#d6604d"}

#: Reference lines, the observed value and annotations.
NEUTRAL = "#404040"
