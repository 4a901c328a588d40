"""One surface for every result made of members (``confusionlab._grouped``).

The walk takes every subclass of :class:`~confusionlab._grouped.ResultMapping` (the mapping part:
``r[name]``, ``len``, iteration over the names, ``.names``, ``.members``) and of
:class:`~confusionlab._grouped.GroupedResult` (fairlearn's ``MetricFrame`` surface: ``.by_group``,
``.overall``, ``.difference()``, ``.member_confidence()``, ``.intervals()``), builds its case from
``tests/contract/results_*.py`` and checks the surface; a new subclass without a case fails. Then
the old spellings the surface replaces: each warns and gives the old answer.
"""

from __future__ import annotations

import importlib
import pkgutil
import warnings
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pytest

import confusionlab as cl
from confusionlab._grouped import Gap, GroupedResult, ResultMapping
from confusionlab._result import Result

HERE = Path(__file__).parent

for _module in pkgutil.walk_packages(cl.__path__, "confusionlab."):
    if not _module.name.startswith(("confusionlab.lessons", "confusionlab.export")):
        importlib.import_module(_module.name)

CASES = {}
for _path in sorted(HERE.glob("results_*.py")):
    CASES.update(importlib.import_module(_path.stem).CASES)

MAPPINGS = sorted((c for c in Result.registry if issubclass(c, ResultMapping)), key=lambda c: c.__name__)
GROUPED = [c for c in MAPPINGS if issubclass(c, GroupedResult)]


def _build(cls: type) -> ResultMapping:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new surface never warns
        return CASES[cls.__name__]()


def test_the_promised_classes_share_the_surface() -> None:
    assert {c.__name__ for c in GROUPED} == {
        "GroupedCurves",
        "GroupedAucComparison",
        "CalibrationSet",
        "GroupedDecisionCurve",
        "GroupedThresholdChoice",
    }
    assert {c.__name__ for c in MAPPINGS} - {c.__name__ for c in GROUPED} == {"BiasReport"}
    missing = sorted(c.__name__ for c in MAPPINGS if c.__name__ not in CASES)
    assert not missing, f"add a case to tests/contract/results_<part>.py for {missing}"


@pytest.mark.parametrize("cls", MAPPINGS, ids=lambda c: c.__name__)
def test_the_mapping_part(cls: type) -> None:
    r = _build(cls)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert isinstance(r, Mapping) and isinstance(r.members, dict) and len(r.members) >= 1
        names = r.names
        assert names == list(r) == list(r.keys()) == list(r.members) and len(r) == len(names)
        for name in names:
            assert r[name] is r.members[name] and name in r and r.get(name) is r.members[name]
            assert isinstance(r[name], Result)
        assert [m for m in r.values()] == list(r.members.values())
        assert dict(r.items()) == r.members
        assert isinstance(r.member_noun, str) and r.member_noun
        assert "no such member" not in r
        with pytest.raises(KeyError, match=r"'no such member' is not in this"):
            r["no such member"]


def _values_equal(a, b) -> bool:
    if isinstance(a, Mapping):
        return isinstance(b, Mapping) and list(a) == list(b) and all(_values_equal(a[k], b[k]) for k in a)
    return a == b or (np.isnan(a) and np.isnan(b))


def _check_gap(gap, by_group: dict) -> None:
    assert isinstance(gap, Gap) and isinstance(gap, float)
    values = np.array(list(by_group.values()), dtype=np.float64)
    names = list(by_group)
    assert float(gap) == float(values.max() - values.min())
    assert gap.high == names[int(np.argmax(values))] and gap.low == names[int(np.argmin(values))]
    assert by_group[gap.high] == values.max() and by_group[gap.low] == values.min()


@pytest.mark.parametrize("cls", GROUPED, ids=lambda c: c.__name__)
def test_the_grouped_surface(cls: type) -> None:
    r = _build(cls)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        by_group = r.by_group
        assert type(by_group) is dict and list(by_group) == r.names
        assert all(_values_equal(by_group[name], r[name].value) for name in r.names)
        # groups hold disjoint examples: the job pools them (fairlearn's overall); classes share theirs
        assert isinstance(r.overall, type(r[r.names[0]])) if r.independent_members else r.overall is None
        gap = r.difference()
        if isinstance(gap, Mapping):  # members' values keyed (classifier pairs): one gap per key
            first = by_group[r.names[0]]
            assert list(gap) == list(first)
            for key, one in gap.items():
                _check_gap(one, {name: by_group[name][key] for name in r.names})
        else:
            _check_gap(gap, by_group)
        m = len(r)
        assert r.member_confidence(0.9, what="interval") == pytest.approx(1 - 0.1 / m, abs=1e-15)
        band = 0.9 ** (1 / m) if r.independent_members else 1 - 0.1 / m
        assert r.member_confidence(0.9, what="band") == pytest.approx(band, abs=1e-15)
        with pytest.raises(cl.InvalidParameterError, match="what"):
            r.member_confidence(0.9, what="bands")
        with pytest.raises(cl.InvalidParameterError, match="confidence"):
            r.member_confidence(1.5, what="interval")
        ends = r.intervals(0.9)
        assert list(ends) == r.names
        level = r.member_confidence(0.9, what="interval")
        assert all(_values_equal(ends[name], r[name].interval(level)) for name in r.names)
        assert r == r and r != _build(cls) and isinstance(hash(r), int)  # a result, compared by identity


# ---- the old spellings: one release with a FutureWarning, the old answer ----------------------------

_RNG = np.random.default_rng(11)
_G = np.repeat(["u", "v", "w"], 60)
_Y = np.tile(np.r_[np.ones(30, int), np.zeros(30, int)], 3)
_S = _RNG.normal(_Y * np.repeat([0.4, 1.2, 0.8], 60), 1.0)


def _old_largest_gap(by_group: dict) -> tuple:
    names, v = list(by_group), np.array(list(by_group.values()))
    return names[int(np.argmax(v))], names[int(np.argmin(v))]


@pytest.mark.parametrize("curve", [cl.roc_curve, cl.precision_recall_curve])
def test_grouped_curves_values_and_largest_gap_warn(curve) -> None:
    gc = curve(_Y, _S, groups=_G)
    own = {name: gc[name].value for name in gc.names}
    with pytest.warns(FutureWarning, match=r"GroupedCurves\.values is renamed by_group"):
        assert gc.values == own == gc.by_group and isinstance(gc.values, dict)
    with pytest.warns(FutureWarning, match=r"GroupedCurves\.values is renamed by_group"):
        assert [round(v, 12) for v in gc.values.values()] == [round(v, 12) for v in own.values()]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(gc.values()) == list(gc.members.values())  # called: the mapping's values, no warning
    with pytest.warns(FutureWarning, match=r"GroupedCurves\.largest_gap is renamed difference\(\)"):
        assert gc.largest_gap == _old_largest_gap(own) == ("v", "u")
    assert gc.value == float(gc.difference()) == max(own.values()) - min(own.values())


def test_grouped_comparison_differences_and_largest_gap_warn() -> None:
    b = _S + _RNG.normal(size=_S.size)
    two = cl.compare_auc(_Y, _S, b, groups=_G)
    own = {name: two[name].value for name in two.names}
    with pytest.warns(FutureWarning, match=r"GroupedAucComparison\.differences is renamed by_group"):
        assert two.differences == own == two.by_group
    with pytest.warns(FutureWarning, match=r"GroupedAucComparison\.largest_gap is renamed difference\(\)"):
        assert two.largest_gap == _old_largest_gap(own)
    three = cl.compare_auc(_Y, {"a": _S, "b": b, "c": -b}, groups=_G)
    own = {name: three[name].value for name in three.names}
    with pytest.warns(FutureWarning, match="differences is renamed by_group"):
        assert three.differences == own
    expected = {pair: _old_largest_gap({g: own[g][pair] for g in own}) for pair in own["u"]}
    with pytest.warns(FutureWarning, match="largest_gap is renamed difference"):
        assert three.largest_gap == expected
    gap = three.difference()
    assert three.value == {pair: float(g) for pair, g in gap.items()}
    assert all(type(v) is float for v in three.value.values())


def test_calibration_set_member_confidence_without_what() -> None:
    rng = np.random.default_rng(4)
    q = rng.uniform(size=600)
    y = rng.uniform(size=600) < q
    groups = cl.calibration(y, q, bins=4, groups=rng.choice(["F", "M", "X"], 600), n_resamples=50, n_draws=50)
    with pytest.warns(FutureWarning, match=r"member_confidence\(\) without what= gives what='band'"):
        old = groups.member_confidence(0.9)
    assert old == groups.member_confidence(0.9, what="band") == pytest.approx(0.9 ** (1 / 3))
    proba = np.column_stack([q, 1 - q])
    classes = cl.calibration(np.where(y, "a", "b"), proba, bins=4, multi_class="classwise", n_resamples=50)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # classes: the band's level is the interval's, nothing changes
        assert classes.member_confidence(0.9) == classes.member_confidence(0.9, what="interval") == 1 - 0.1 / 2


# ----------------------------------------------------------------------------- one repr for all of them
def _numbers_of(value) -> list[float]:
    """The numbers a member's headline holds (one, or a mapping's, or none for a long mapping)."""
    if isinstance(value, Mapping):
        return [v for item in value.values() for v in _numbers_of(item)] if len(value) <= 3 else []
    return [] if value is None else [float(value)]


@pytest.mark.parametrize("cls", MAPPINGS, ids=lambda c: c.__name__)
def test_repr_names_the_class_each_member_with_its_headline_and_the_overall(cls: type) -> None:
    r = _build(cls)
    text = repr(r)
    assert cls.__repr__ is ResultMapping.__repr__  # one implementation, in _grouped.py
    assert text.startswith(f"{cls.__name__}(") and text.endswith(")") and "\n" not in text
    assert " object at 0x" not in text
    for name, member in r.items():
        headline = getattr(member, cls.headline)
        assert f"{name!r}: " in text
        for number in _numbers_of(headline):
            assert f"{number:.4g}" in text, (name, number, text)
        if isinstance(headline, Mapping) and len(headline) > 3:
            assert f"{len(headline)} values" in text
    overall = getattr(r, "overall", None)
    assert ("overall=" in text) == (overall is not None)
    if overall is not None:
        for number in _numbers_of(getattr(overall, cls.headline)):
            assert f"overall={number:.4g}" in text or f"{number:.4g}" in text.split("overall=")[1]


def test_repr_of_hostile_and_many_names_is_one_short_line() -> None:
    """30 groups, one of them a 200-character name with HTML, a newline and mathtext: the repr lists
    twelve (their names' reprs cut to 24 characters), counts the other 18 and stays on one line."""
    hostile = "<script>alert(1)</script>\n$x^$" + "x" * 170
    names = [hostile] + [f"g{k:02d}" for k in range(29)]
    groups = np.repeat(names, 4)
    y = np.tile([0, 1, 0, 1], 30)
    score = np.tile([0.1, 0.9, 0.6, 0.4], 30)
    text = repr(cl.roc_curve(y, score, groups=groups))
    assert "\n" not in text and len(text) < 400, text
    assert "<script>alert(1)</script>" not in text and repr(hostile)[:23] + "…" in text
    assert "… 18 more" in text and "'g10'" in text and "'g11'" not in text
    assert text.count(": 0.75") == 12 and "overall=0.75" in text  # each group: 3 of its 4 pairs ordered
