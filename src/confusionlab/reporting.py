"""One page for several results: :func:`report` puts the pages of their ``to_html()`` together.

Each result already makes its own self-contained page (the summary in words, the figure as an
embedded PNG, the table). The report takes each page's body in the order given, under a
numbered heading, says which of the three questions the result answers, and lists the sections
in a contents list at the top. The page loads nothing: no script, style sheet or image comes
from anywhere but the page itself.
"""

from __future__ import annotations

import html
import inspect
import re
from pathlib import Path
from typing import Any

from ._result import Result, html_page, page_path
from ._validation import InvalidParameterError, check_instance

__all__ = ["QUESTIONS", "question_of", "report"]

#: The three questions a result's intervals answer, in words (the user guide's "three questions").
QUESTIONS = {
    "true_value": (
        "The true value: given this test set, where does the classifier's true metric lie (the posterior of its rates)?"
    ),
    "next_test_set": ("The next test set: what will a new test set of this size show (the posterior predictive)?"),
    "sampling_distribution": (
        "The sampling distribution: which values would test sets of this size give if the true rates "
        "were what this test set shows (the binomial model)?"
    ),
}
#: What the report says of a result whose intervals answer none of the three.
OTHER_QUESTION = "Not one of the three questions about a metric: its summary says what it answers."

_BODY = re.compile(r"<body[^>]*>(?P<body>.*)</body>", flags=re.DOTALL | re.IGNORECASE)
_HEADING = re.compile(r"<h1[^>]*>(?P<heading>.*?)</h1>", flags=re.DOTALL | re.IGNORECASE)
_LEVEL = re.compile(r"<(?P<close>/?)h(?P<level>[1-5])\b", flags=re.IGNORECASE)


def question_of(result: Any) -> str:
    """Which question ``result`` answers: ``"true_value"``, ``"next_test_set"``,
    ``"sampling_distribution"`` or ``"other"``.

    Its ``target`` attribute, else the default ``target`` of its ``interval``; the next test set
    under the binomial model (``model="binomial"``: the observed rates taken as true) is the
    sampling distribution.

    Examples
    --------
    >>> import confusionlab as cl
    >>> cm = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    >>> question_of(cl.metric_distribution(cm, "mcc")), question_of(cl.metric_distribution(cm, "mcc", model="binomial"))
    ('next_test_set', 'sampling_distribution')
    >>> question_of(cl.roc_curve([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9]))   # its interval's default target
    'true_value'
    """
    target = getattr(result, "target", None)
    if not isinstance(target, str):
        parameter = inspect.signature(result.interval).parameters.get("target")
        target = parameter.default if parameter is not None else None
    if target == "next_test_set" and getattr(result, "model", None) == "binomial":
        return "sampling_distribution"
    return target if target in QUESTIONS else "other"


def _section(number: int, result: Result) -> tuple[str, str, str]:
    """``(anchor, heading, section)`` of one result: its page's body under a numbered heading."""
    page = result.to_html()
    body = _BODY.search(page)
    inner = body["body"] if body else page
    heading = _HEADING.search(inner)
    title = heading["heading"].strip() if heading else html.escape(type(result).title)
    if heading:
        inner = inner[: heading.start()] + inner[heading.end() :]
    inner = _LEVEL.sub(lambda m: f"<{m['close']}h{int(m['level']) + 1}", inner)  # its headings one level down
    anchor = f"confusionlab-report-{number}"
    question = question_of(result)
    words = html.escape(QUESTIONS.get(question, OTHER_QUESTION))
    section = (
        f"<section id='{anchor}' class='confusionlab-report-section'>"
        f"<h2>{number}. {title}</h2>"
        f"<p class='confusionlab-question' data-target='{question}'><b>The question.</b> {words}</p>"
        f"{inner}</section>"
    )
    return anchor, title, section


def report(*results: Result, title: str = "ConfusionLab report", path: str | Path | None = None) -> str:
    """One self-contained HTML page of several results, for a reader who wants one page.

    A contents list, then each result's section in the order given: a numbered heading, the
    question the result answers in words (the true value, the next test set or the sampling
    distribution), and the body of its own page (:meth:`to_html`: the summary, the figure
    embedded as a PNG, the table). Nothing is loaded from elsewhere when the page is opened.

    Parameters
    ----------
    *results : Result
        The results, in the order of their sections (at least one): anything a ConfusionLab
        function returns (:class:`Evaluation`, :class:`RocCurve`, an audit, …).
    title : str, default "ConfusionLab report"
        The page's title and heading (escaped: shown as written).
    path : str or Path, optional
        Where to write the page (UTF-8). The page is returned either way.

    Returns
    -------
    str
        The page: one HTML document.

    Raises
    ------
    InvalidParameterError
        When no result is given, an argument is not a result (named by its place,
        ``results[1]``), ``title`` is not a string or ``path`` not a path.

    See Also
    --------
    Evaluation.to_html : one result's page.

    Examples
    --------
    >>> import confusionlab as cl
    >>> y, pred = [1] * 20 + [0] * 40, [1] * 16 + [0] * 4 + [1] * 8 + [0] * 32
    >>> score = [0.9] * 16 + [0.3] * 4 + [0.6] * 8 + [0.1] * 32
    >>> page = cl.report(cl.evaluate(y, pred, metrics=["recall"]), cl.roc_curve(y, score), title="v2 <draft>")
    >>> page.startswith("<!DOCTYPE html>"), "v2 &lt;draft&gt;" in page
    (True, True)
    >>> page.count("class='confusionlab-report-section'")
    2
    """
    if not results:
        raise InvalidParameterError("results: give at least one result (report(result, ...))")
    for k, result in enumerate(results):
        check_instance(result, f"results[{k}]", Result, "a ConfusionLab result (what evaluate, roc_curve, … return)")
    title = check_instance(title, "title", str, "a string")
    path = page_path(path)
    sections = [_section(number, result) for number, result in enumerate(results, start=1)]
    contents = "".join(f"<li><a href='#{anchor}'>{heading}</a></li>" for anchor, heading, _ in sections)
    body = f"<nav class='confusionlab-contents'><h2>Contents</h2><ol>{contents}</ol></nav>" + "".join(
        section for _, _, section in sections
    )
    page = html_page(title, body, page_class="confusionlab-report")
    if path is not None:
        path.write_text(page, encoding="utf-8")
    return page
