"""The one surface of a result made of members: a mapping name → member, and for groups the
statements fairlearn's ``MetricFrame`` makes (``overall``, ``by_group``, ``difference()``).

:class:`ResultMapping` is the mapping part: ``r[name]`` is a member (a result of its own),
``len(r)``, iteration over the names, ``name in r``, ``r.keys()``/``items()``/``values()``,
:attr:`~ResultMapping.names` the names in order and :attr:`~ResultMapping.members` the dict
name → member. :class:`GroupedResult` adds what a result with one member per group (or per
class) says about all of them:

==========================  =============================================================
``.by_group``               name → the member's ``value`` (a dict; fairlearn's ``by_group``)
``.overall``                the result on the whole test set, the groups pooled (what the job
                            gives without ``groups=``); None where members share their
                            examples (classes one-vs-rest: there is no pooled member)
``.difference()``           the largest gap between two members' values, a :class:`Gap`
                            (a float that says which two members: ``.high``, ``.low``); as
                            fairlearn's ``difference(method="between_groups")``
``.member_confidence(c)``   the level each member's interval (``what="interval"``, Bonferroni
                            over the members) or band (``what="band"``: Šidák when the members
                            are independent, Bonferroni otherwise) is taken at, so that all
                            members' statements hold at once with probability ≥ ``c``
``.intervals(c)``           every member's interval at that level
==========================  =============================================================

A member whose ``value`` is a mapping (an AUC comparison of three classifiers, keyed by the
classifier pairs) gives ``difference()`` keyed the same way.

Every such result has one ``repr``: the class, the attributes named in ``repr_attributes``, each
member's name with its headline (the member's ``value``, or the attribute ``headline`` names) and,
for groups, the overall's; names and values are shortened (a long or hostile name stays one short
line: its ``repr``, cut to :data:`NAME_CHARS` characters) and at most :data:`MEMBERS_SHOWN` members
are listed.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from ._result import Result
from ._validation import check_choice, check_confidence

__all__ = ["MEMBERS_SHOWN", "NAME_CHARS", "Gap", "GroupedResult", "ResultMapping", "headline_text"]

#: The most members a ``repr`` lists (the rest are counted).
MEMBERS_SHOWN = 12
#: The longest name (its ``repr``) a ``repr`` shows whole.
NAME_CHARS = 24
#: A mapping with more entries than this is shown as its size in a ``repr``.
_ENTRIES_SHOWN = 3


def _short(text: str, limit: int = NAME_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def headline_text(value: Any) -> str:
    """A member's headline value in a few characters: a number to 4 significant digits, a short
    mapping of them, an interval; anything else its ``repr``, cut short.

    >>> headline_text(0.123456), headline_text(None), headline_text((0.1, 0.25))
    ('0.1235', 'None', '(0.1, 0.25)')
    >>> headline_text({("a", "b"): 0.5}), headline_text(dict.fromkeys(range(40), 0.0))
    ("{('a', 'b'): 0.5}", '{… 40 values}')
    """
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return f"{float(value):.4g}"
    if isinstance(value, Mapping):
        if len(value) > _ENTRIES_SHOWN:
            return f"{{… {len(value)} values}}"
        return "{" + ", ".join(f"{_short(repr(k))}: {headline_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, tuple) and len(value) <= _ENTRIES_SHOWN:
        return "(" + ", ".join(headline_text(v) for v in value) + ")"
    return _short(repr(value))


class ResultMapping(Result, Mapping[Any, Any], abstract=True):
    """A result that is a read-only mapping name → member, in the order of :attr:`names`.

    A subclass sets :attr:`members` (a dict name → member result) and the nouns its messages use.
    """

    #: What a member is, in words (``"group"``, ``"class"``, ``"metric"``).
    member_noun: ClassVar[str] = "member"
    #: What the result is called in the message of an unknown name.
    mapping_noun: ClassVar[str] = "result"
    #: The member's attribute its ``repr`` shows (its headline number).
    headline: ClassVar[str] = "value"
    #: The result's own attributes its ``repr`` shows first.
    repr_attributes: ClassVar[tuple[str, ...]] = ()

    members: dict[Any, Any]

    @property
    def names(self) -> list[Any]:
        """The members' names, in order."""
        return list(self.members)

    def __getitem__(self, name: Any) -> Any:
        try:
            return self.members[name]
        except KeyError:
            raise KeyError(f"{name!r} is not in this {self.mapping_noun}; it has {self.names}") from None

    def __iter__(self) -> Iterator[Any]:
        return iter(self.members)

    def __len__(self) -> int:
        return len(self.members)

    def _repr_parts(self) -> list[str]:
        parts = [f"{a}={_short(repr(getattr(self, a)))}" for a in self.repr_attributes]
        shown = [
            f"{_short(repr(name))}: {headline_text(getattr(m, self.headline))}"
            for name, m in list(self.members.items())[:MEMBERS_SHOWN]
        ]
        if len(self.members) > MEMBERS_SHOWN:
            shown.append(f"… {len(self.members) - MEMBERS_SHOWN} more")
        plural = self.member_noun + ("es" if self.member_noun.endswith("s") else "s")
        parts.append(f"{plural}={{{', '.join(shown)}}}")
        return parts

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(self._repr_parts())})"


class Gap(float):
    """The largest gap between two members' values (a float), with the two members: ``high`` has
    the largest value, ``low`` the smallest (the first of equals).

    >>> g = Gap(0.25, "F", "M")
    >>> g, g.high, g.low, g * 2
    (Gap(0.25, high='F', low='M'), 'F', 'M', 0.5)
    """

    high: Any
    low: Any

    def __new__(cls, value: float, high: Any, low: Any) -> Gap:
        out = super().__new__(cls, value)
        out.high, out.low = high, low
        return out

    def __repr__(self) -> str:
        return f"Gap({float(self)!r}, high={self.high!r}, low={self.low!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Gap, (float(self), self.high, self.low)


def gap_between(by_group: Mapping[Any, Any]) -> Any:
    """The :class:`Gap` of the values of ``by_group`` (a mapping of them where each value is a mapping).

    >>> gap_between({"a": 0.7, "b": 0.9, "c": 0.8})
    Gap(0.20000000000000007, high='b', low='a')
    >>> gap_between({"u": {"x": 0.1}, "v": {"x": 0.3}})
    {'x': Gap(0.19999999999999998, high='v', low='u')}
    """
    names = list(by_group)
    first = by_group[names[0]]
    if isinstance(first, Mapping):
        return {key: gap_between({name: by_group[name][key] for name in names}) for key in first}
    v = np.array([by_group[name] for name in names], dtype=np.float64)
    return Gap(float(v.max() - v.min()), names[int(np.argmax(v))], names[int(np.argmin(v))])


class GroupedResult(ResultMapping, abstract=True):
    """One result per group (or per class) with the statements that hold for all of them at once.

    fairlearn's ``MetricFrame`` is the anchor: :attr:`by_group`, :attr:`overall`,
    :meth:`difference`; :meth:`member_confidence` and :meth:`intervals` make the members'
    statements simultaneous. Compared by identity, as every result (not as a dict).
    """

    member_noun: ClassVar[str] = "group"
    #: Whether the members hold disjoint examples (groups: independent; classes one-vs-rest: not).
    independent_members: ClassVar[bool] = True
    #: The result on the whole test set, given by the job that builds the grouped result.
    _overall: Any = None

    __eq__ = Result.__eq__
    __hash__ = Result.__hash__

    def _repr_parts(self) -> list[str]:
        parts = super()._repr_parts()
        if self.overall is not None:
            parts.append(f"overall={headline_text(getattr(self.overall, self.headline))}")
        return parts

    @property
    def by_group(self) -> dict[Any, Any]:
        """Name → the member's ``value``."""
        return {name: m.value for name, m in self.members.items()}

    @property
    def overall(self) -> Any:
        """The result on the whole test set, the members' examples pooled (fairlearn's
        ``MetricFrame.overall``): what the job returns for the same call without ``groups=``;
        None where the members share their examples (classes one-vs-rest)."""
        return self._overall

    def difference(self) -> Any:
        """The largest gap between two members' values, ``max − min`` of :attr:`by_group`: a
        :class:`Gap` (a float; ``.high``, ``.low`` the two members), a mapping of them where the
        members' values are mappings."""
        return gap_between(self.by_group)

    def member_confidence(self, confidence: float = 0.95, *, what: str = "interval") -> float:
        """The level each member's interval (``what="interval"``: ``1 − (1 − confidence)/M``,
        Bonferroni over the ``M`` members) or band (``"band"``: ``confidence ** (1/M)``, Šidák,
        when the members are independent; Bonferroni otherwise) is taken at, so that the members'
        statements hold all at once with probability ≥ ``confidence``."""
        c, m = check_confidence(confidence), len(self.members)
        what = check_choice(what, "what", ("interval", "band"))
        if what == "band" and self.independent_members:
            return float(c ** (1.0 / m))
        return 1.0 - (1.0 - c) / m

    def intervals(self, confidence: float = 0.95) -> dict[Any, Any]:
        """Every member's interval, simultaneous over the members (at :meth:`member_confidence`)."""
        level = self.member_confidence(confidence, what="interval")
        return {name: m.interval(level) for name, m in self.members.items()}
