"""Writes the two Inspect logs the item tests read (run by hand, never by the test suite).

The logs are real output of Inspect (``inspect-ai`` 0.3.285 from PyPI, Python 3.11), run offline
with its ``mockllm/model`` model: the scorer ignores the model's output and returns a fixed
score per (sample, epoch) from the sample's metadata, so the logs hold known scores, a cluster
key (``passage``, clusters of unequal sizes), a second metadata key and two epochs. The task
asks Inspect for its own ``mean()``, ``stderr()``, ``stderr(cluster="passage")`` and
``ci(cluster="passage")`` metrics, so each log carries Inspect's numbers beside the samples;
``tests/items/test_inspect_reference.py`` compares ``evaluate_items`` with them.

Run from this folder, in a throw-away environment::

    python3.11 -m venv /tmp/inspectvenv && /tmp/inspectvenv/bin/pip install inspect-ai==0.3.285
    /tmp/inspectvenv/bin/python make_inspect_logs.py

Inspect estimates tokens with a tiktoken encoding it downloads on first use; the mock
model's ``count_text_tokens`` is replaced by a character count so the run needs no network.
The ``.json`` log holds every event of every sample (about 10 kB a sample), so it is written
from the first four items only, to stay under 100 kB; the ``.eval`` log (zstd-compressed
members) holds all nine.
"""

#: Per item: its passage (the cluster) and its score in epochs 1 and 2 (C = 1, P = 0.5, I = 0).
ITEMS = [
    ("p0", ["C", "I"]),
    ("p0", ["C", "C"]),
    ("p1", ["I", "I"]),
    ("p2", ["P", "C"]),
    ("p2", ["I", "P"]),
    ("p2", ["C", "C"]),
    ("p2", ["I", "C"]),
    ("p3", ["C", "C"]),
    ("p3", ["P", "I"]),
]


def main() -> None:
    """Run the task twice (``.eval`` and ``.json``) and copy the logs here (Inspect is imported
    here only, so that collecting this folder's modules never needs it)."""
    import shutil
    import tempfile
    from pathlib import Path

    import inspect_ai.model._providers.mockllm as mockllm
    from inspect_ai import Task, task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import Score, Target, ci, mean, scorer, stderr
    from inspect_ai.solver import TaskState, generate

    async def count_characters(self, text: str) -> int:
        return max(1, len(text) // 4)

    mockllm.MockLLM.count_text_tokens = count_characters

    @scorer(metrics=[mean(), stderr(), stderr(cluster="passage"), ci(cluster="passage")])
    def fixed():
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=state.metadata["scores"][state.epoch - 1])

        return score

    @task
    def items(count: int = len(ITEMS)):
        samples = [
            Sample(input=f"q{i}", target="x", id=f"q{i}", metadata={"passage": p, "scores": s, "difficulty": i % 2})
            for i, (p, s) in enumerate(ITEMS[:count])
        ]
        return Task(dataset=samples, solver=generate(), scorer=fixed(), epochs=2)

    for fmt, count in (("eval", len(ITEMS)), ("json", 4)):
        with tempfile.TemporaryDirectory() as tmp:
            inspect_eval(items(count), model="mockllm/model", log_dir=tmp, log_format=fmt, display="none")
            (log,) = Path(tmp).glob(f"*.{fmt}")
            shutil.copy(log, Path(__file__).parent / f"inspect_items.{fmt}")


if __name__ == "__main__":
    main()
