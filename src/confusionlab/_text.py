"""User labels in matplotlib figures: drawn exactly as written, never parsed as mathtext.

matplotlib reads a string with two unescaped dollar signs as mathtext: a group named
``"$x^$"`` stops a figure with a parse error, and ``"income $50K-$75K"`` is drawn in math
italics without its dollars. Every title, tick label, legend or annotation that can hold a
group, class, classifier, facet or metric name goes through :func:`as_written`, which turns
mathtext off on it (matplotlib's ``parse_math=False``); the text itself is unchanged.

No plotting library is imported here: the function works on whatever artists it is given.

Examples
--------
>>> from matplotlib.figure import Figure
>>> ax = Figure().add_subplot()
>>> title = as_written(ax.set_title("income $50K-$75K"))
>>> title.get_text(), title.get_parse_math()
('income $50K-$75K', False)
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["as_written"]

_Artist = TypeVar("_Artist")


def as_written(artist: _Artist) -> _Artist:
    """Turn mathtext off on ``artist`` so that matplotlib draws its text verbatim; returns ``artist``.

    Parameters
    ----------
    artist : Text, Legend, Tick, or a sequence of these
        A text (what ``set_title``, ``set_xlabel``, ``text`` and ``annotate`` return), a
        legend (each of its texts), a tick (both of its labels, what ``set_xticks`` returns a
        list of), or a list of any of them (what ``set_yticklabels`` returns).

    Returns
    -------
    The same ``artist``, so that a call can be wrapped where it is made.
    """
    if hasattr(artist, "set_parse_math"):
        artist.set_parse_math(False)
    elif hasattr(artist, "get_texts"):  # a Legend
        for text in artist.get_texts():
            text.set_parse_math(False)
    elif hasattr(artist, "label1"):  # a Tick: the label below/left and the one above/right
        artist.label1.set_parse_math(False)
        artist.label2.set_parse_math(False)
    elif artist is not None:
        for item in artist:  # type: ignore[attr-defined]
            as_written(item)
    return artist
