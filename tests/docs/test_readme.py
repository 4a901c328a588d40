"""Every Python example in README.md runs as written (one namespace, top to bottom)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 4


def test_every_readme_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(README.parent)
    namespace: dict = {"__name__": "readme"}
    for number, block in enumerate(BLOCKS, start=1):
        try:
            exec(compile(block, f"README.md python block {number}", "exec"), namespace)
        except Exception as exc:  # pragma: no cover - the message is the point
            raise AssertionError(f"README python block {number} fails: {exc!r}\n{block}") from exc


def test_readme_numbers_are_what_the_code_gives() -> None:
    import confusionlab as cl

    cm = cl.ConfusionMatrix(tp=16, fn=4, fp=8, tn=32)
    assert f"{cl.metric_value(cm, 'mcc'):.4f}" == "0.5774"
    d = cl.metric_distribution(cm, "mcc", model="beta-binomial", tolerance=1e-12)
    lo, hi = d.interval(0.95)
    numbers = f"{d.mean():.4f}, {d.std():.4f}, ({lo:.4f}, {hi:.4f})"
    assert numbers == "0.5437, 0.1505, (0.2224, 0.8108)"  # the paper's N = 60 result: sd 0.1505, 95 % [0.222, 0.811]
    assert numbers in README.read_text(encoding="utf-8")
