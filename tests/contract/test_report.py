"""``cl.report``: one self-contained page of several results, in the order given, each saying
which question it answers."""

from __future__ import annotations

import html
import re

import pytest
import results_bias
import results_calibration
import results_scores

import confusionlab as cl

CM = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
Y, PRED = [1] * 20 + [0] * 40, [1] * 16 + [0] * 4 + [1] * 8 + [0] * 32


@pytest.fixture(scope="module")
def results() -> list:
    """Results of six classes, two with their own pages (Evaluation, Audit), and the question each
    answers as the user guide's three questions name it (written here, not read from the code)."""
    return [
        (cl.evaluate(Y, PRED, metrics=["recall"], groups=["a", "b"] * 30), "true_value"),
        (results_bias.CASES["Audit"](), "true_value"),
        (cl.metric_distribution(CM, "mcc"), "next_test_set"),
        (cl.metric_distribution(CM, "mcc", model="binomial"), "sampling_distribution"),
        (results_scores.CASES["GroupedCurves"](), "true_value"),  # its intervals' default target
        (results_calibration.CASES["Calibration"](), "other"),  # a band under the hypothesis of calibration
    ]


@pytest.fixture(scope="module")
def page(results) -> str:
    return cl.report(*(r for r, _ in results), title="Quarterly review")


def _sections(page: str) -> list[str]:
    return re.split(r"(?=<section )", page)[1:]


def test_each_result_has_its_section_in_the_order_given(results, page) -> None:
    sections = _sections(page)
    assert len(sections) == len(results)
    for number, (section, (result, _)) in enumerate(zip(sections, results, strict=True), start=1):
        assert re.search(rf"<h2>{number}\. ", section)
        own = re.search(r"<body[^>]*>(.*)</body>", result.to_html(), flags=re.DOTALL)[1]
        table = re.findall(r"<table.*?</table>", own, flags=re.DOTALL)[-1]
        assert table in section, f"section {number} lacks its result's table"
    summary = html.escape(results[2][0].summary())
    assert summary in sections[2] and summary not in sections[3]  # the two distributions differ
    assert page.count("<h1") == 1  # the sections' own headings are one level down


def test_each_section_says_which_question_it_answers(results, page) -> None:
    for section, (_, question) in zip(_sections(page), results, strict=True):
        assert f"data-target='{question}'" in section
    words = {
        "true_value": "The true value",
        "next_test_set": "The next test set",
        "sampling_distribution": "The sampling distribution",
    }
    for question, phrase in words.items():
        assert f"<b>The question.</b> {phrase}" in page, question


def test_the_contents_links_resolve_to_sections_in_order(results, page) -> None:
    nav = re.search(r"<nav.*?</nav>", page, flags=re.DOTALL)[0]
    links = re.findall(r"href='#([^']+)'", nav)
    ids = re.findall(r"<section id='([^']+)'", page)
    assert links == ids and len(ids) == len(set(ids)) == len(results)
    all_ids = re.findall(r"\sid=['\"]([^'\"]+)", page)
    assert len(all_ids) == len(set(all_ids))


def test_the_page_loads_nothing(page) -> None:
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page, flags=re.IGNORECASE)
    assert not re.search(r"<(script|link|iframe)\b|@import|url\(", page, flags=re.IGNORECASE)
    images = re.findall(r"<img[^>]*\ssrc='([^']*)'", page)
    assert images and all(src.startswith("data:image/png;base64,") for src in images)


def test_a_hostile_title_is_shown_as_written(tmp_path) -> None:
    title = "<script>alert(1)</script> $x^$ ../../etc"
    path = tmp_path / "report.html"
    page = cl.report(cl.metric_distribution(CM, "mcc"), title=title, path=path)
    assert "<script" not in page
    assert f"<title>{html.escape(title)}</title>" in page and f"<h1>{html.escape(title)}</h1>" in page
    assert path.read_text(encoding="utf-8") == page


@pytest.mark.parametrize(
    ("args", "kwargs", "named"),
    [
        ((), {}, "results"),
        (("not a result",), {}, r"results\[0\]"),
        ((CM,), {}, r"results\[0\]"),  # a confusion matrix is no result
        ((None,), {}, r"results\[0\]"),
        ((cl.metric_distribution(CM, "mcc"), {"value": 1}), {}, r"results\[1\]"),
        ((cl.metric_distribution(CM, "mcc"),), {"title": 3}, "title"),
        ((cl.metric_distribution(CM, "mcc"),), {"path": 3}, "path"),
    ],
)
def test_refusals_name_the_argument(args, kwargs, named) -> None:
    with pytest.raises(cl.InvalidParameterError, match=named):
        cl.report(*args, **kwargs)
