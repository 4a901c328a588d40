"""One test walks every public result class and checks the result protocol.

Each part of the library lists one example of each of its result classes in
``tests/contract/results_<part>.py`` (``CASES``: class name → a function that builds
one). The walk checks that every subclass of :class:`confusionlab._result.Result` has a
case, and that each answers ``.value``, ``.interval(confidence=0.95)``,
``.to_frame()``, ``.to_html(path=None)``, ``.plot(ax=None)``, ``.view()`` and
``_repr_html_`` as the protocol says.
"""

from __future__ import annotations

import importlib
import math
import numbers
import pkgutil
import re
from collections.abc import Mapping
from pathlib import Path

import ipywidgets
import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

import confusionlab
from confusionlab._result import Result

HERE = Path(__file__).parent

# Import every module so that every Result subclass is registered.
for _module in pkgutil.walk_packages(confusionlab.__path__, "confusionlab."):
    if not _module.name.startswith(("confusionlab.lessons", "confusionlab.export")):
        importlib.import_module(_module.name)

CASES = {}
for _path in sorted(HERE.glob("results_*.py")):
    _cases = importlib.import_module(_path.stem).CASES
    assert not set(_cases) & set(CASES), f"{_path.name} repeats a case"
    CASES.update(_cases)


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _is_value(value) -> bool:
    if isinstance(value, Mapping):
        return len(value) > 0 and all(_is_value(v) for v in value.values())
    return _is_number(value)


def _is_interval(value) -> bool:
    if isinstance(value, Mapping):
        return len(value) > 0 and all(_is_interval(v) for v in value.values())
    if not (isinstance(value, tuple) and len(value) == 2 and all(_is_number(v) for v in value)):
        return False
    lo, hi = value
    return lo <= hi or (math.isnan(lo) and math.isnan(hi))


def _keys(value):
    return set(value) if isinstance(value, Mapping) else None


#: The result classes the library promises (every one must speak the protocol).
PROMISED = {
    "MetricDistribution",
    "Comparison",
    "PairedComparison",
    "Ranking",
    "Evaluation",
    "TestSizePlan",
    "GroupSizePlan",
    "BiasReport",
    "BiasMetric",
    "Audit",
    "StabilityResult",
    "StabilityCurve",
    "Calibration",
    "CalibrationSet",
    "RocCurve",
    "PrecisionRecallCurve",
    "AucComparison",
}


def test_the_promised_result_classes_speak_the_protocol():
    registered = {cls.__name__ for cls in Result.registry}
    assert registered >= PROMISED, f"not Result subclasses: {sorted(PROMISED - registered)}"


def test_every_result_class_has_a_case():
    registered = {cls.__name__ for cls in Result.registry}
    assert registered == set(CASES), (
        f"result classes without a case: {sorted(registered - set(CASES))}; "
        f"cases without a class: {sorted(set(CASES) - registered)}"
    )


@pytest.fixture(scope="module", params=sorted(CASES))
def result(request):
    return CASES[request.param]()


def test_value_and_interval(result):
    assert isinstance(result, Result)
    value = result.value
    assert _is_value(value), f"{type(result).__name__}.value is {value!r}"
    wide = result.interval(confidence=0.95)
    narrow = result.interval(0.5)
    assert _is_interval(wide) and _is_interval(narrow)
    assert _keys(wide) == _keys(narrow) == _keys(value) or _keys(value) is None or _keys(wide) is None
    if not isinstance(wide, Mapping):
        assert wide[0] <= narrow[0] + 1e-12 and narrow[1] <= wide[1] + 1e-12, (wide, narrow)
    with pytest.raises(confusionlab.InvalidParameterError, match="confidence"):
        result.interval(confidence=1.5)


def test_to_frame(result):
    frame = result.to_frame()
    assert type(frame) is pd.DataFrame
    assert len(frame) > 0 and len(frame.columns) > 0


#: Interval columns. A frame holding them says which question they answer in a ``target``
#: column. (Calibration's ``band_lower``/``band_upper`` are a consistency band under the
#: hypothesis of calibration, not an interval for either question.)
INTERVAL_COLUMNS = {"lower", "upper"}


def test_a_frame_with_intervals_says_which_question_they_answer(result):
    frame = result.to_frame()
    if not INTERVAL_COLUMNS & set(frame.columns):
        return
    assert "target" in frame.columns, f"{type(result).__name__}.to_frame() has intervals but no target column"
    assert list(frame.columns)[-1] == "target", "target is appended after the other columns"
    assert set(frame["target"]) <= {"true_value", "next_test_set"}
    if isinstance(getattr(result, "target", None), str):
        assert set(frame["target"]) == {result.target}


def test_to_html_is_one_self_contained_page(result, tmp_path):
    page = result.to_html()
    assert isinstance(page, str) and page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "the page loads something"
    path = tmp_path / "result.html"
    assert result.to_html(path) == page
    assert path.read_text(encoding="utf-8") == page


def test_repr_html(result):
    text = result._repr_html_()
    assert isinstance(text, str) and "<table" in text


def test_plot(result):
    from matplotlib.figure import Figure

    fig = result.plot()
    assert isinstance(fig, Figure) and fig.axes
    own = Figure()
    ax = own.add_subplot()
    assert result.plot(ax=ax) is own
    assert ax.has_data() or ax.texts or ax.patches


def test_view(result):
    widget = result.view()
    assert isinstance(widget, ipywidgets.DOMWidget)
