"""The library's one colour convention: widgets, lessons, HTML pages and the JavaScript views.

No plotting library is imported here: the colours are plain ``#rrggbb`` strings that
matplotlib, HTML and canvas all read. ``js/shared/palette.js`` holds the same values
for the browser (``tests/contract/test_palette.py`` keeps the two sides equal).

* Metric values use a diverging scale, ColorBrewer RdBu with nine stops: low values
  red, the middle grey, high values blue (:data:`DIVERGING`).
* Masses on a map (the joint PMF of two classifiers' scores) use a sequential scale,
  ColorBrewer YlGnBu with seven stops, light to dark (:data:`SEQUENTIAL`).
* Each uncertainty model, each side of a comparison, each facet of a bias metric and
  each verdict of an audit has one colour (:data:`MODEL_COLOURS`, :data:`PAIR_COLOURS`,
  :data:`GROUP_COLOURS`, :data:`VERDICT_COLOURS`, :data:`SIGN_COLOURS`).
* The two sources of spread in an evaluation: the test set (the accent colour) and
  the refits (:data:`SOURCE_COLOURS`).
* Contours of several metrics on one slice use Okabe and Ito's colour-blind-safe
  qualitative palette (:data:`CONTOUR_COLOURS`).

Examples
--------
>>> from confusionlab.palette import MODEL_COLOURS, to_rgb
>>> MODEL_COLOURS["beta-binomial"]
'#2166ac'
>>> to_rgb(DIVERGING[0])
(178, 24, 43)
"""

from __future__ import annotations

from ._validation import InvalidParameterError

__all__ = [
    "CONTOUR_COLOURS",
    "DIVERGING",
    "GROUP_COLOURS",
    "MISSING",
    "MODEL_COLOURS",
    "NEUTRAL",
    "PAIR_COLOURS",
    "PALETTE",
    "SEQUENTIAL",
    "SIGN_COLOURS",
    "SOURCE_COLOURS",
    "THEME",
    "VERDICT_COLOURS",
    "to_rgb",
]

#: The nine RdBu stops of the metric-value scale, low → high.
DIVERGING: tuple[str, ...] = (
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

#: The seven YlGnBu stops of a mass scale, light (little mass) → dark (the most).
SEQUENTIAL: tuple[str, ...] = ("#ffffcc", "#c7e9b4", "#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#0c2c84")

#: Values that are not a number (0/0 excluded, NaN).
MISSING = "#888888"

#: Reference lines, the observed value and annotations.
NEUTRAL = "#404040"

#: The uncertainty models: binomial (the narrower, orange), beta-binomial (blue),
#: dirichlet-multinomial (purple), and the posterior of the true value (dark blue-grey).
MODEL_COLOURS: dict[str, str] = {
    "binomial": "#e08214",
    "beta-binomial": "#2166ac",
    "dirichlet-multinomial": "#5e3c99",
    "true_value": "#35618f",
}

#: Two classifiers compared on one test set: A and B.
PAIR_COLOURS: dict[str, str] = {"A": "#1b7837", "B": "#762a83"}

#: Facets of a bias metric: the advantaged group a and the disadvantaged group d.
GROUP_COLOURS: dict[str, str] = {"a": "#4393c3", "d": "#d6604d"}

#: The three verdicts of an audit or a comparison against a margin: their own colours (PiYG's
#: magenta and green ends, safe for red–green colour blindness, and a light grey), never a group's
#: (facets a and d are blue and red) so that a red cell does not read as "group d".
VERDICT_COLOURS: dict[str, str] = {
    "bias": "#c51b7d",
    "no material bias": "#4d9221",
    "insufficient evidence": "#d9d9d9",
}

#: Whether an interval excludes the metric's no-bias value (a report's forest plot): not a verdict
#: (no margin), so its own pair — a dark magenta and a mid grey.
SIGN_COLOURS: dict[str, str] = {"excludes no bias": "#8e0152", "holds no bias": "#969696"}

#: The two sources of an evaluation's spread: a new test set and a refit of the model.
SOURCE_COLOURS: dict[str, str] = {"test set": "#1976d2", "refit": "#d84315"}

#: Colours of several metrics' contours on one slice (Okabe & Ito, 2008).
CONTOUR_COLOURS: tuple[str, ...] = (
    "#e69f00",
    "#56b4e9",
    "#009e73",
    "#cc79a7",
    "#d55e00",
    "#0072b2",
    "#f0e442",
    "#999999",
)

#: Page colours where no JupyterLab theme is there to ask (static export, HTML pages).
THEME: dict[str, str] = {
    "background": "#ffffff",
    "foreground": "#212121",
    "muted": "#616161",
    "grid": "#e0e0e0",
    "accent": "#1976d2",
    "warning": "#c62828",
    "highlight": "#fff3cd",
}

#: Every colour above by one flat name (what ``js/shared/palette.js`` exports).
PALETTE: dict[str, object] = {
    "diverging": DIVERGING,
    "sequential": SEQUENTIAL,
    "missing": MISSING,
    "neutral": NEUTRAL,
    "models": MODEL_COLOURS,
    "pair": PAIR_COLOURS,
    "groups": GROUP_COLOURS,
    "verdicts": VERDICT_COLOURS,
    "signs": SIGN_COLOURS,
    "sources": SOURCE_COLOURS,
    "contours": CONTOUR_COLOURS,
    "theme": THEME,
}


def to_rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` → ``(r, g, b)`` integers in 0…255.

    >>> to_rgb("#ffffff")
    (255, 255, 255)
    """
    text = colour.lstrip("#") if isinstance(colour, str) else ""
    if len(text) != 6 or any(ch not in "0123456789abcdefABCDEF" for ch in text):
        raise InvalidParameterError(f"colour must be like '#rrggbb', got {colour!r}")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
