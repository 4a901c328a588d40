"""The browser's colours are the library's: js/shared/palette.js equals confusionlab.palette.

js/shared/palette.js is one plain JSON literal after ``export const PALETTE =`` (comments
above it, nothing else), so this test reads it as data, strictly, without running any
JavaScript. The JavaScript side takes every colour from it (js/tests/palette.test.js).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from confusionlab import palette

PALETTE_JS = Path(__file__).resolve().parents[2] / "js" / "shared" / "palette.js"

#: The file: line comments, then the one export of a literal ending the file.
LAYOUT = re.compile(r"\A(?:[ \t]*//[^\n]*\n)*export const PALETTE = (?P<literal>\{.*\});\n\Z", re.DOTALL)


def as_json(value: Any) -> Any:
    """The Python palette as JSON would carry it (tuples become lists)."""
    return json.loads(json.dumps(value))


@pytest.fixture(scope="module")
def js_palette() -> dict[str, Any]:
    match = LAYOUT.match(PALETTE_JS.read_text(encoding="utf-8"))
    assert match, f"{PALETTE_JS} must be comment lines and `export const PALETTE = {{...}};` only"
    return json.loads(match["literal"])


def test_the_javascript_palette_equals_the_python_one(js_palette: dict[str, Any]) -> None:
    assert js_palette == as_json(palette.PALETTE)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("diverging", palette.DIVERGING),
        ("sequential", palette.SEQUENTIAL),
        ("missing", palette.MISSING),
        ("neutral", palette.NEUTRAL),
        ("models", palette.MODEL_COLOURS),
        ("pair", palette.PAIR_COLOURS),
        ("groups", palette.GROUP_COLOURS),
        ("verdicts", palette.VERDICT_COLOURS),
        ("sources", palette.SOURCE_COLOURS),
        ("contours", palette.CONTOUR_COLOURS),
        ("theme", palette.THEME),
    ],
)
def test_each_role_is_the_module_constant(js_palette: dict[str, Any], key: str, value: Any) -> None:
    """Each role of the JavaScript palette is the constant of the same role in Python."""
    assert js_palette[key] == as_json(value)


def test_every_colour_is_a_lowercase_hex_triplet(js_palette: dict[str, Any]) -> None:
    def leaves(value: Any) -> list[str]:
        if isinstance(value, dict):
            return [leaf for v in value.values() for leaf in leaves(v)]
        if isinstance(value, list):
            return [leaf for v in value for leaf in leaves(v)]
        return [value]

    colours = leaves(js_palette)
    assert len(colours) > 40
    assert [c for c in colours if not re.fullmatch(r"#[0-9a-f]{6}", c)] == []


def test_a_changed_value_is_caught(js_palette: dict[str, Any]) -> None:
    """The comparison sees a single colour changed (it is not vacuous)."""
    changed = json.loads(json.dumps(js_palette))
    changed["verdicts"]["bias"] = "#d6604e"
    assert changed != as_json(palette.PALETTE)
