"""Every numbered notebook is a lesson a teacher can run (issue 14): the same shape everywhere.

Goals / you need / time at the top, predict-before-you-run prompts, at least three graded
exercises whose solutions (executed by test_notebooks.py) assert their answers, take-aways,
and the checks in a collapsed appendix; no reference a student cannot follow, one notation,
one colour convention, no walls of plotting code.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).parents[2]
LESSONS = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = ROOT / "teacher" / "solutions"
EXERCISE = re.compile(r"^### Exercise (\d+) \((easy|medium|hard)\)", re.MULTILINE)
SOLUTION = re.compile(r"^### Solution (\d+)\b", re.MULTILINE)
APPENDIX = "## Appendix: checks"
MAX_LESSON_CELL_LINES = 25


def _cells(path: Path) -> list:
    return nbformat.read(path, as_version=4).cells


def _appendix_start(cells: list) -> int:
    """Index of the appendix heading, or len(cells) when there is none."""
    return next(
        (i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith(APPENDIX)), len(cells)
    )


def test_every_lesson_is_checked() -> None:
    assert [p.name[:2] for p in LESSONS] == [f"{i:02d}" for i in range(1, len(LESSONS) + 1)]
    assert len(LESSONS) >= 11


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_opens_with_goals_needs_and_time(path: Path) -> None:
    first = _cells(path)[0]
    assert first.cell_type == "markdown"
    assert first.source.startswith(f"# {path.name[:2]} — ")
    for line in ("**Goals.**", "**You need.**", "**Time.**"):
        assert line in first.source, f"{path.name}: the opening box lacks {line}"
    assert re.search(r"\*\*Time\.\*\*[^\n]*\d+ minutes", first.source), f"{path.name}: say how many minutes"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_has_graded_exercises_with_asserted_solutions(path: Path) -> None:
    cells = _cells(path)
    numbers, levels = [], set()
    for i, cell in enumerate(cells):
        match = EXERCISE.match(cell.source) if cell.cell_type == "markdown" else None
        if match:
            numbers.append(int(match.group(1)))
            levels.add(match.group(2))
            assert i + 1 < len(cells) and cells[i + 1].cell_type == "code", f"exercise {match.group(1)}: no code cell"
    assert len(numbers) >= 3, f"{path.name} has {len(numbers)} exercises"
    assert numbers == list(range(1, len(numbers) + 1))
    assert {"easy", "hard"} <= levels, f"{path.name}: exercises are not graded easy → hard"

    solutions = SOLUTIONS / f"{path.stem}_solutions.ipynb"
    assert solutions.is_file(), f"{solutions.name} is missing"
    sol_cells = _cells(solutions)
    solved = []
    for i, cell in enumerate(sol_cells):
        match = SOLUTION.match(cell.source) if cell.cell_type == "markdown" else None
        if match:
            solved.append(int(match.group(1)))
            following = []
            for nxt in sol_cells[i + 1 :]:
                if nxt.cell_type == "markdown" and SOLUTION.match(nxt.source):
                    break
                if nxt.cell_type == "code":
                    following.append(nxt.source)
            assert any("assert " in src for src in following), f"solution {match.group(1)} asserts nothing"
    assert solved == numbers, f"{solutions.name} solves {solved}, the lesson asks {numbers}"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_order_prompts_takeaways_and_collapsed_appendix(path: Path) -> None:
    cells = _cells(path)
    start = _appendix_start(cells)
    lesson = cells[:start]
    markdown = [c.source for c in lesson if c.cell_type == "markdown"]
    assert sum(s.startswith("**Predict before you run:**") for s in markdown) >= 2, path.name
    takeaways = [i for i, c in enumerate(lesson) if c.cell_type == "markdown" and c.source.startswith("## Take-aways")]
    assert len(takeaways) == 1, f"{path.name}: one '## Take-aways' cell"
    if start < len(cells):
        assert takeaways[0] == start - 1, f"{path.name}: '## Take-aways' must come right before the appendix"
    for cell in cells[start:]:
        assert "appendix" in cell.metadata.get("tags", []), f"{path.name}: an appendix cell lacks the tag"
        if cell.cell_type == "code":
            assert cell.metadata.get("jupyter", {}) == {"source_hidden": True, "outputs_hidden": True}
    if path.name[:2] != "01":
        assert start < len(cells), f"{path.name}: the headline checks belong in '{APPENDIX}'"
        assert any("assert " in c.source for c in cells[start:] if c.cell_type == "code")
    for cell in lesson:
        if cell.cell_type == "code":
            lines = cell.source.count("\n") + 1
            assert lines <= MAX_LESSON_CELL_LINES, f"{path.name}: a {lines}-line cell (figure code → lessons/)"


@pytest.mark.parametrize("path", LESSONS + sorted(SOLUTIONS.glob("*.ipynb")), ids=lambda p: p.stem)
def test_one_vocabulary(path: Path) -> None:
    text = "\n".join(c.source for c in _cells(path))
    assert not re.search(r"\bSPEC\b", text), f"{path.name} cites a SPEC students do not have"
    assert not re.search(r"\(TP, FP, FN, TN\)", text), f"{path.name}: counts go (TP, FN, FP, TN)"
    assert not re.search(r"cmap\s*=\s*['\"]", text), f"{path.name}: colours come from confusionlab.lessons.style"
    if path.parent.name == "notebooks":
        assert "glossary.md" in text, f"{path.name} does not link the glossary"


def test_teaching_plan_names_existing_notebooks_and_exercises() -> None:
    plan = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b(\d\d)_[a-z_]+\.ipynb", plan))
    assert named and named <= {p.name[:2] for p in LESSONS}
    minutes = [int(m) for m in re.findall(r"\|\s*(\d+)\s*min", plan)]
    assert minutes and sum(minutes) == 90, f"the plan's timings add up to {sum(minutes)} minutes, not 90"
