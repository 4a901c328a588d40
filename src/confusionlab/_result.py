"""The one result protocol: every result object answers the same questions the same way.

A user who learned one result knows them all (like scikit-learn's Display objects and
scipy's result classes). Every public result class derives from :class:`Result` and
offers

========================  ==============================================================
``.value``                the number the result is about, or a documented mapping of them
``.interval(confidence)`` its central interval at ``confidence`` (default 0.95), or a
                          mapping of intervals keyed like ``.value``
``.to_frame()``           a :class:`pandas.DataFrame` of everything it holds
``.to_html(path=None)``   a self-contained HTML page (no server, no internet) as a
                          string; written to ``path`` when given
``.plot(ax=None)``        a matplotlib figure (drawn into ``ax`` when given); returns
                          the :class:`~matplotlib.figure.Figure`
``.view()``               its interactive widget (the view registered for its class)
``_repr_html_()``         the summary and the table, for notebooks
========================  ==============================================================

A subclass writes ``value``, ``interval``, ``to_frame``, ``plot`` and
:meth:`Result.summary` (one sentence that answers the question the result is about);
the page and the notebook representation are built here from those, once. A result does
not import its widget: the widget module registers the view of the result's class
(:mod:`confusionlab._views`) and :meth:`Result.view` looks it up.
``tests/contract/test_result_protocol.py`` walks every subclass and checks the protocol.
"""

from __future__ import annotations

import base64
import html
import io
import os
from pathlib import Path
from typing import Any, ClassVar

from ._deps import require
from ._errors import InvalidParameterError
from ._validation import check_confidence, check_instance
from ._views import view_of
from .palette import THEME

__all__ = ["Result", "figure_data_uri", "html_page", "new_figure"]

_CSS = (
    "body{{font-family:system-ui,sans-serif;margin:2em;max-width:1100px;color:{foreground};"
    "background:{background}}}"
    "table{{border-collapse:collapse;font-size:13px}}"
    "td,th{{padding:3px 8px;border-bottom:1px solid {grid};text-align:right}}"
    "th{{text-align:left}}"
    ".confusionlab-summary{{font-size:1.1em;color:{accent}}}"
    "img{{max-width:100%}}"
).format(**THEME)


def html_page(title: str, body: str, *, page_class: str = "confusionlab-page") -> str:
    """A complete, self-contained HTML page: ``title`` (escaped) and ``body`` (HTML as given).

    >>> page = html_page("A <title>", "<p>body</p>")
    >>> page.startswith("<!DOCTYPE html>"), "A &lt;title&gt;" in page
    (True, True)
    """
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head>"
        f"<body class='{html.escape(page_class)}'><h1>{html.escape(title)}</h1>{body}</body></html>"
    )


def figure_data_uri(fig: Any, *, dpi: int = 110) -> str:
    """A matplotlib figure as a ``data:image/png;base64,…`` URI (for self-contained pages)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def new_figure(ax: Any = None, *, figsize: tuple[float, float] = (6.0, 3.6)) -> tuple[Any, Any]:
    """``(figure, axes)`` to draw on: ``ax``'s own figure, or a new one (no pyplot, no global state)."""
    if ax is not None:
        return ax.figure, ax
    Figure = require("matplotlib.figure", "notebooks", "the figure of plot() and to_html()").Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def page_path(path: Any) -> Path | None:
    """``to_html``'s ``path`` as a Path (None stays None); anything else is refused naming ``path``, and
    so is a directory or a file in a directory that does not exist (before any page is built).

    >>> page_path(3)
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: path must be a path to the page's file (str or os.PathLike) or None, got int 3
    >>> page_path("no/such/folder/page.html")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: path: the folder 'no/such/folder' does not exist; create it first or ...
    """
    if path is None:
        return None
    path = Path(
        check_instance(path, "path", (str, os.PathLike), "a path to the page's file (str or os.PathLike) or None")
    )
    if path.is_dir():
        raise InvalidParameterError(f"path: {str(path)!r} is a folder; give the page's file name in it")
    if not path.parent.is_dir():
        raise InvalidParameterError(
            f"path: the folder {str(path.parent)!r} does not exist; create it first or choose another path"
        )
    return path


class Result:
    """Base class of every result object (the protocol is in this module's docstring)."""

    #: Every public subclass, in the order they were defined (the protocol test walks them); a shared
    #: base declared ``class Base(Result, abstract=True)`` is left out.
    registry: ClassVar[list[type[Result]]] = []
    #: The page's heading and the figure's title.
    title: ClassVar[str] = "ConfusionLab result"

    def __init_subclass__(cls, *, abstract: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not abstract and not cls.__name__.startswith("_"):
            Result.registry.append(cls)

    # -- written by each subclass ------------------------------------------------------
    @property
    def value(self) -> Any:
        """The number the result is about (or a documented mapping of them)."""
        raise NotImplementedError

    def interval(self, confidence: float = 0.95) -> Any:
        """The central ``confidence`` interval of :attr:`value` (or a mapping of them)."""
        raise NotImplementedError

    def to_frame(self) -> Any:
        """A :class:`pandas.DataFrame` of the result."""
        raise NotImplementedError

    def plot(self, ax: Any = None) -> Any:
        """Draw the result with matplotlib (into ``ax`` when given); returns the Figure."""
        raise NotImplementedError

    def view(self, *args: Any, **kwargs: Any) -> Any:
        """The result's interactive widget: the view registered for its class, given the arguments.

        Raises
        ------
        NotImplementedError
            When no view is registered for the class or any of its bases.
        """
        return view_of(self, *args, **kwargs)

    def summary(self, confidence: float = 0.95) -> str:
        """One sentence, in words, answering the question the result is about."""
        raise NotImplementedError

    # -- built here, once ----------------------------------------------------------------
    def _frame_html(self) -> str:
        frame = self.to_frame()
        return frame.to_html(float_format=lambda v: f"{v:.4g}", max_rows=60)

    def to_html(self, path: str | Path | None = None, *, confidence: float = 0.95) -> str:
        """A self-contained page: the summary in words, the figure of :meth:`plot` and the table.

        Parameters
        ----------
        path : str or Path, optional
            Where to write the page (UTF-8). The page is returned either way.
        confidence : float, default 0.95
            Level of the intervals the summary states.

        Returns
        -------
        str
            The page: one HTML document with its figure embedded, loading nothing.
        """
        confidence, path = check_confidence(confidence), page_path(path)
        parts = [f"<p class='confusionlab-summary'>{html.escape(self.summary(confidence))}</p>"]
        fig = self.plot()
        parts.append(f"<img alt='{html.escape(self.title)}' src='{figure_data_uri(fig)}'>")
        parts.append(self._frame_html())
        page = html_page(self.title, "".join(parts), page_class=f"confusionlab-{_css_name(type(self).__name__)}")
        if path is not None:
            path.write_text(page, encoding="utf-8")
        return page

    def _repr_html_(self) -> str:
        return (
            f"<div class='confusionlab-result'><p><b>{html.escape(type(self).__name__)}</b>: "
            f"{html.escape(self.summary())}</p>{self._frame_html()}</div>"
        )


def _css_name(name: str) -> str:
    """``PairedComparison`` → ``paired-comparison``."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i and not name[i - 1].isupper():
            out.append("-")
        out.append(ch.lower())
    return "".join(out)
