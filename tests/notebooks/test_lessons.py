"""Every numbered notebook is a lesson a teacher can run (issues 14 and 25): the same shape everywhere.

Goals / you need / time / the question at the top, predict-before-you-run prompts each followed by a
cell for the student's prediction, at least three graded exercises of stated kinds with hints, whose
solutions (in teacher/solutions/, executed by test_notebooks.py) assert their answers and explain them
in prose, about 700 words of prose, take-aways, and the checks in a collapsed appendix; no reference a
student cannot follow, one notation, one colour convention, no walls of plotting code.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

ROOT = Path(__file__).parents[2]
LESSONS = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOLUTIONS = ROOT / "teacher" / "solutions"
EXERCISE = re.compile(r"^### Exercise (\d+) \((easy|medium|hard), (decision|transfer|critique|check)\)", re.MULTILINE)
ANY_EXERCISE = re.compile(r"^### Exercise\b", re.MULTILINE)
SOLUTION = re.compile(r"^### Solution (\d+)\b", re.MULTILINE)
APPENDIX = "## Appendix: checks"
MAX_LESSON_CELL_LINES = 25
MAX_PROSE_WORDS = 900  # R1: aim for about 700
PROMPT = "**Predict before you run:**"
PACE = {"easy": 5, "medium": 10, "hard": 15}  # minutes an exercise takes at student pace (issue 39)
QUESTIONS = ("sampling distribution", "true value", "next test set")


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


def _words(text: str) -> int:
    return len(re.findall(r"[A-Za-z0-9']+", text))


def _time_minutes(path: Path) -> int:
    """The minutes a lesson states for itself: the first "N minutes" on its **Time.** line."""
    line = re.search(r"\*\*Time\.\*\*([^\n]*)", _cells(path)[0].source)
    assert line, f"{path.name} states no **Time.**"
    return int(re.search(r"(\d+) minutes", line.group(1)).group(1))


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_r5_opening_box_says_which_question(path: Path) -> None:
    """R5: a **Question.** line naming the question the lesson uses (or saying it is about something else)."""
    line = re.search(r"^[>\s]*\*\*Question\.\*\*(.*)$", _cells(path)[0].source, re.MULTILINE)
    assert line, f"{path.name}: the opening box lacks a line starting with **Question.**"
    text = line.group(1).lower()
    assert any(q in text for q in QUESTIONS) or "none of the three" in text, (
        f"{path.name}: the **Question.** line names none of {QUESTIONS} (nor says 'none of the three')"
    )
    assert _words(text) >= 8, f"{path.name}: the **Question.** line must also say why"


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_r1_prose_is_at_most_900_words(path: Path) -> None:
    """R1: markdown before the appendix, less the opening box and the exercises, at most 900 words."""
    cells = _cells(path)
    prose = [
        c.source
        for c in cells[1 : _appendix_start(cells)]
        if c.cell_type == "markdown" and not ANY_EXERCISE.match(c.source)
    ]
    words = sum(_words(s) for s in prose)
    assert words <= MAX_PROSE_WORDS, f"{path.name}: {words} words of prose (at most {MAX_PROSE_WORDS}, aim ≈ 700)"


def _is_prediction_cell(cell) -> bool:
    """A code cell for the student's guess: first line '# Your prediction:', then only comments or my_guess = ..."""
    if cell.cell_type != "code" or not cell.source.startswith("# Your prediction:"):
        return False
    lines = [line.strip() for line in cell.source.splitlines()]
    return all(not line or line.startswith("#") or re.match(r"my_guess\w*\s*=", line) for line in lines)


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_r2_every_prompt_is_followed_by_a_prediction_cell(path: Path) -> None:
    """R2: the student writes a guess before anything is run or drawn: nothing shows the answer first.

    The prediction cell holds only comments or ``my_guess = ...``, so no widget or figure can sit between
    the prompt and the student's answer; the prompt comes before the code that shows it.
    """
    cells = _cells(path)
    for i, cell in enumerate(cells):
        if cell.cell_type == "markdown" and cell.source.startswith(PROMPT):
            assert i + 1 < len(cells) and _is_prediction_cell(cells[i + 1]), (
                f"{path.name}: the prompt of cell {i} is not followed by a '# Your prediction:' cell "
                "(only comments or my_guess = ...)"
            )


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_has_graded_exercises_with_asserted_solutions(path: Path) -> None:
    cells = _cells(path)
    numbers, levels, kinds = [], set(), []
    for i, cell in enumerate(cells):
        if cell.cell_type == "markdown" and ANY_EXERCISE.match(cell.source):
            match = EXERCISE.match(cell.source)
            assert match, f"{path.name}: '{cell.source.splitlines()[0]}' is not '### Exercise N (LEVEL, KIND)'"
            numbers.append(int(match.group(1)))
            levels.add(match.group(2))
            kinds.append(match.group(3))
            assert re.search(r"^\*Hint:\*", cell.source, re.MULTILINE), (
                f"{path.name}: exercise {match.group(1)} has no *Hint:* line"
            )
            assert i + 1 < len(cells) and cells[i + 1].cell_type == "code", f"exercise {match.group(1)}: no code cell"
    assert len(numbers) >= 3, f"{path.name} has {len(numbers)} exercises"
    assert set(kinds) - {"check"}, f"{path.name}: every exercise is a check; add a decision, transfer or critique"
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
            following, prose = [], [cell.source.split("\n", 1)[1] if "\n" in cell.source else ""]
            for nxt in sol_cells[i + 1 :]:
                if nxt.cell_type == "markdown" and (SOLUTION.match(nxt.source) or nxt.source.startswith("## ")):
                    break
                if nxt.cell_type == "code":
                    following.append(nxt.source)
                else:
                    prose.append(nxt.source)
            assert any("assert " in src for src in following), f"solution {match.group(1)} asserts nothing"
            # R4: prose in every solution (the heading cell's text below its heading line counts)
            assert max(_words(text) for text in prose) >= 20, (
                f"{solutions.name}: solution {match.group(1)} has no markdown explanation of at least 20 words"
            )
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


def _plan_tables(plan: str) -> list[list[list[str]]]:
    """The plan tables of docs/teaching.md (header '| block | length | ...'), each as its rows of cells."""
    tables, current = [], None
    for line in [*plan.splitlines(), ""]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("| block | length |"):
            current = []
        elif current is not None and line.lstrip().startswith("|"):
            if not set(cells[0]) <= set("-: "):
                current.append(cells)
        elif current is not None:
            tables.append(current)
            current = None
    return tables


def test_teaching_plan_names_existing_notebooks_and_exercises() -> None:
    plan = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b(\d\d)_[a-z_]+\.ipynb", plan))
    assert named and named <= {p.name[:2] for p in LESSONS}
    tables = _plan_tables(plan)
    assert len(tables) >= 3, "the 90-minute class and two more tracks"
    for rows in tables:
        assert all(re.fullmatch(r"\d+ min", r[1]) for r in rows), [r[1] for r in rows]
        minutes = sum(int(r[1].split()[0]) for r in rows)
        assert minutes == 90, f"the plan starting {rows[0][0]!r}: its blocks add up to {minutes} minutes, not 90"


def _exercise_minutes(path: Path) -> dict[int, tuple[int, str]]:
    """Each exercise's stated minutes and where it is done, from its heading '... · 10 minutes · homework'."""
    stated = {}
    for cell in _cells(path):
        heading = cell.source.splitlines()[0] if cell.cell_type == "markdown" and cell.source else ""
        match = EXERCISE.match(heading)
        if match:
            timing = re.fullmatch(r"### Exercise \d+ \([a-z, ]+\) · (\d+) minutes · (in class|homework)", heading)
            assert timing, f"{path.name}: {heading!r} lacks '· N minutes · in class' or '· N minutes · homework'"
            assert int(timing.group(1)) == PACE[match.group(2)], (
                f"{path.name}: a {match.group(2)} exercise takes {PACE[match.group(2)]} minutes, not {timing.group(1)}"
            )
            stated[int(match.group(1))] = (int(timing.group(1)), timing.group(2))
    return stated


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_lesson_times_are_honest_and_add_up(path: Path) -> None:
    """Issue 39: exercises take 5 / 10 / 15 minutes (easy / medium / hard) at student pace, one is done in class.

    The **Time.** line's total is its lesson minutes plus the exercises' stated minutes, it names the exercise
    whose heading says "in class", and the lesson runs 45 to 65 minutes.
    """
    line = re.search(r"\*\*Time\.\*\*([^\n]*)", _cells(path)[0].source).group(1)
    parts = re.match(
        r" about (\d+) minutes: (\d+) for the lesson, (\d+) for the exercises at student pace .*"
        r"Exercise (\d+) in class, the others homework\.$",
        line,
    )
    assert parts, f"{path.name}: the **Time.** line does not read 'about T minutes: L for the lesson, E for ...'"
    total, body, exercises, in_class = (int(g) for g in parts.groups())
    stated = _exercise_minutes(path)
    assert exercises == sum(m for m, _ in stated.values()), f"{path.name}: the exercises add up to another total"
    assert total == body + exercises, f"{path.name}: {body} + {exercises} ≠ {total}"
    assert [n for n, (_, where) in stated.items() if where == "in class"] == [in_class], (
        f"{path.name}: exactly one exercise, Exercise {in_class}, is done in class"
    )
    assert 45 <= total <= 65, f"{path.name}: {total} minutes at student pace"


def test_teaching_plans_use_the_lessons_own_timings() -> None:
    """Each block's minutes are its lesson's **Time.** less its skip list; the skip list is the lesson's homework.

    Every homework exercise is skipped with its stated minutes, the in-class one is not; the main class has
    5 minutes to start, 10 of buffer and an exit question besides its three lessons.
    """
    plan = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    by_number = {p.name[:2]: p for p in LESSONS}
    tables = _plan_tables(plan)
    for rows in tables:
        lessons = [r for r in rows if re.search(r"\d\d_[a-z_]+\.ipynb", r[2])]
        assert lessons, rows
        for block in lessons:
            number = re.search(r"(\d\d)_", block[2]).group(1)
            stated = _time_minutes(by_number[number])
            assert int(block[3]) == stated, f"block {block[0]}: {block[2]} states {stated} minutes, the plan {block[3]}"
            exercises = _exercise_minutes(by_number[number])
            skipped = {int(n): int(m) for n, m in re.findall(r"Exercise (\d+) \(−(\d+)\)", block[4])}
            homework = {n: m for n, (m, where) in exercises.items() if where == "homework"}
            assert skipped == homework, f"block {block[0]}: skips {skipped}, the lesson's homework is {homework}"
            named = {int(n) for n in re.findall(r"Exercise (\d+)", " ".join(block[4:]))}
            assert named <= set(exercises), (
                f"block {block[0]}: {block[2]} has no Exercise {sorted(named - set(exercises))}"
            )
            saved = sum(int(m) for m in re.findall(r"\(−(\d+)\)", block[4]))
            assert int(block[1].split()[0]) == stated - saved, f"block {block[0]}: {stated} − {saved} ≠ {block[1]}"
    main = tables[0]
    assert len({re.search(r"(\d\d)_", r[2]).group(1) for r in main if re.search(r"\d\d_", r[2])}) == 3
    others = {r[0].lower(): int(r[1].split()[0]) for r in main if not re.search(r"\d\d_", r[2])}
    assert others.get("start") == 5 and others.get("buffer") == 10 and "exit question" in others, others


def test_lessons_table_states_each_lessons_time() -> None:
    """docs/teaching.md's table of lessons gives each lesson's time and in-class exercise as the lesson does."""
    plan = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| (\d\d)_[a-z_]+\.ipynb \|.*\| (\d+ minutes \(Exercise \d+\)) \|$", plan, re.M))
    assert set(rows) == {p.name[:2] for p in LESSONS}
    for number, path in ((p.name[:2], p) for p in LESSONS):
        (in_class,) = [n for n, (_, where) in _exercise_minutes(path).items() if where == "in class"]
        assert rows[number] == f"{_time_minutes(path)} minutes (Exercise {in_class})", (number, rows[number])


def test_r3_a_third_of_all_exercises_are_decisions_transfers_or_critiques() -> None:
    kinds = [
        m.group(3)
        for path in LESSONS
        for c in _cells(path)
        if c.cell_type == "markdown" and (m := EXERCISE.match(c.source))
    ]
    other = sum(k != "check" for k in kinds)
    assert kinds and 3 * other >= len(kinds), f"{other} of {len(kinds)} exercises are decision/transfer/critique"


def test_solutions_live_outside_the_students_folder() -> None:
    """Students get notebooks/; the answers are in teacher/solutions/, one per lesson."""
    assert not list((ROOT / "notebooks").rglob("*solution*.ipynb"))
    assert {p.name for p in SOLUTIONS.glob("*.ipynb")} >= {f"{p.stem}_solutions.ipynb" for p in LESSONS}


def test_teaching_plan_exit_question_numbers() -> None:
    """The exit question's expected answer, by simulation from the Beta posteriors of TPR and TNR (numpy only).

    The true value under the default Jeffreys prior, Beta(count + ½); the next test set under its default, the
    uniform prior, Beta(count + 1).
    """
    plan = (ROOT / "docs" / "teaching.md").read_text(encoding="utf-8")
    assert "(TP, FN, FP, TN) =\n(14, 6, 10, 170)" in plan and "[0.41, 0.74]" in plan and "± 0.17" in plan
    assert "± 0.24" in plan and "[0.40, 0.72]" in plan
    rng = np.random.default_rng(0)

    def mcc_of_rates(tpr: np.ndarray, tnr: np.ndarray) -> np.ndarray:
        tp, fn, fp, tn = 0.1 * tpr, 0.1 * (1 - tpr), 0.9 * (1 - tnr), 0.9 * tnr
        return (tp * tn - fp * fn) / np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))

    jtpr, jtnr = rng.beta(14 + 0.5, 6 + 0.5, 400_000), rng.beta(170 + 0.5, 10 + 0.5, 400_000)
    lo, hi = np.quantile(mcc_of_rates(jtpr, jtnr), [0.025, 0.975])
    assert abs(lo - 0.41) < 0.01 and abs(hi - 0.74) < 0.01, (lo, hi)  # Monte Carlo error ≈ 0.001
    assert abs((hi - lo) / 2 - 0.17) < 0.01, (lo, hi)
    tpr, tnr = rng.beta(14 + 1, 6 + 1, 400_000), rng.beta(170 + 1, 10 + 1, 400_000)
    ulo, uhi = np.quantile(mcc_of_rates(tpr, tnr), [0.025, 0.975])
    assert abs(ulo - 0.40) < 0.01 and abs(uhi - 0.72) < 0.01, (ulo, uhi)  # the uniform prior's, named in the key
    # the next test set: new counts on 20 positives and 180 negatives from the same posteriors
    new_tp, new_tn = rng.binomial(20, tpr), rng.binomial(180, tnr)
    a, b, c, d = new_tp, 20 - new_tp, 180 - new_tn, new_tn
    with np.errstate(invalid="ignore", divide="ignore"):
        new = (a * d - c * b) / np.sqrt((a + c) * (a + b) * (d + c) * (d + b))
    nlo, nhi = np.nanquantile(new, [0.025, 0.975])
    assert abs((nhi - nlo) / 2 - 0.24) < 0.01, (nlo, nhi)


def test_glossary_defines_the_calibration_and_roc_terms() -> None:
    """Lessons 14, 15, 16 and 18 send students to the glossary for their terms: each has a row there (issue 39)."""
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    terms = {row.split("|")[1].strip() for row in glossary.splitlines() if row.startswith("| ")}
    wanted = {
        "14": [
            "forecast q",
            "bin",
            "reliability diagram",
            "Poisson-binomial",
            "consistency band",
            "ECE",
            "recalibration",
        ],
        "15": ["ROC curve", "AUC", "DeLong interval", "exact null distribution"],
        "16": ["threshold t, operating point", "precision–recall (PR) curve", "average precision (AP)", "AP baseline"],
        "18": ["expected cost", "net benefit (NB)", "decision curve", "after-selection interval", "plausible thresholds"],
    }
    for number, names in wanted.items():
        lesson = next(p for p in LESSONS if p.name.startswith(number))
        text = "\n".join(c.source for c in _cells(lesson))
        for name in names:
            assert name in terms, f"the glossary has no row for {name!r}"
            assert name.split(" (")[0].split()[0].lower() in text.lower(), f"{lesson.name} does not use {name!r}"
