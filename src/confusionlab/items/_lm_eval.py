"""``read_lm_eval_samples``: lm-evaluation-harness's ``--log_samples`` JSONL → one row per item.

With ``--log_samples`` the harness writes ``samples_<task>_<date>.jsonl`` beside
``results_<date>.json``: one JSON object a line per (document, filter), written by
``lm_eval/evaluator.py`` (``evaluate``: ``doc_id``, ``doc``, ``target``, ``arguments``, ``resps``,
``filtered_resps``, ``filter``, ``metrics`` — the names of the metrics — ``doc_hash``,
``prompt_hash``, ``target_hash``, then each metric's value under its own name) and
``lm_eval/loggers/evaluation_tracker.py`` (``save_results_samples``: ``json.dumps`` a line,
lm-eval 0.4.x). The harness scores each document once (repeats are reduced before the
metric), so every row is epoch 1.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .._errors import InvalidParameterError, short_repr
from ._log_files import build_frame, check_log_path, metadata_keys, parse_json, read_bounded, score_to_float

__all__ = ["read_lm_eval_samples"]

_NAME = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl$")


def read_lm_eval_samples(path: Any, *, metric: str | None = None, filter: str | None = None) -> Any:
    """lm-evaluation-harness's ``--log_samples`` file as a pandas DataFrame, one row per document.

    Parameters
    ----------
    path : str or os.PathLike
        A ``samples_<task>_<date>.jsonl`` file the harness wrote.
    metric : str, optional
        Which metric to read as the score (default: the only one the lines list).
    filter : str, optional
        Which filter's rows to read when the file holds several (``"strict-match"``,
        ``"flexible-extract"``, …; default: the only one).

    Returns
    -------
    pandas.DataFrame
        Columns ``item`` (``doc_id``), ``epoch`` (1), ``score`` (the metric: numbers as they are,
        booleans 1/0), each scalar field of the document (``doc``) as a column of its own name
        (prefixed ``metadata_`` if it is ``item``, ``epoch``, ``score``, ``model`` or ``task``),
        ``model`` (from ``results_<date>.json`` beside the file, else None) and ``task`` (from the
        file name). ``frame.attrs["metric"]`` and ``frame.attrs["filter"]`` say what was read.

    Raises
    ------
    InvalidParameterError
        A path that is not a regular file, a line that is not a JSON object, an unknown or
        ambiguous ``metric`` or ``filter``, a score that is not one number, a repeated document.
    TooLargeError
        A file larger than the memory limit holds once parsed, refused before it is read.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> lines = [{"doc_id": 0, "doc": {"subject": "law"}, "filter": "none", "metrics": ["acc"], "acc": 1.0},
    ...          {"doc_id": 1, "doc": {"subject": "art"}, "filter": "none", "metrics": ["acc"], "acc": 0.0}]
    >>> path = folder / "samples_mmlu_2025-01-01T00-00-00.000000.jsonl"
    >>> _ = path.write_text("".join(json.dumps(line) + "\\n" for line in lines))
    >>> read_lm_eval_samples(path)[["item", "epoch", "score", "subject", "task"]].values.tolist()
    [[0, 1, 1.0, 'law', 'mmlu'], [1, 1, 0.0, 'art', 'mmlu']]
    """
    p = check_log_path(path)
    for arg, value in (("metric", metric), ("filter", filter)):
        if value is not None and not isinstance(value, str):
            raise InvalidParameterError(f"{arg} must be a name (a string), got {short_repr(value)}")
    text = read_bounded(p, "the samples file")
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            obj = parse_json(line, f"line {number} of {p.name!r}")
            if not isinstance(obj, dict) or "doc_id" not in obj:
                raise InvalidParameterError(f"line {number} of {p.name!r} is not an lm-eval sample (no doc_id)")
            lines.append(obj)
    if not lines:
        raise InvalidParameterError(f"path {p.name!r} holds no samples")
    filter = _choose(lines, "filter", filter, p.name, lambda s: [s.get("filter")])
    lines = [s for s in lines if s.get("filter") == filter]
    metric = _choose(lines, "metric", metric, p.name, lambda s: list(s.get("metrics") or []))
    rows, seen = [], set()
    for s in lines:
        key = repr(s["doc_id"])
        if key in seen:
            raise InvalidParameterError(f"document {s['doc_id']!r} appears twice in {p.name!r} (filter {filter!r})")
        seen.add(key)
        doc = s.get("doc") if isinstance(s.get("doc"), dict) else {}
        meta = {k: v for k, v in doc.items() if v is None or isinstance(v, (str, int, float, bool))}
        score = score_to_float(s.get(metric), f"document {s['doc_id']!r}")
        rows.append({"item": s["doc_id"], "epoch": 1, "score": score, "metadata": meta})
    match = _NAME.match(p.name)
    task = match["task"] if match else None
    model = _model(p.parent / f"results_{match['date']}.json") if match else None
    frame = build_frame(rows, metadata_keys(rows), model=model, task=task)
    frame.attrs["metric"], frame.attrs["filter"] = metric, filter
    return frame


def _choose(lines: list[dict[str, Any]], arg: str, given: str | None, name: str, listed: Any) -> Any:
    """The one ``arg`` (metric or filter) the lines hold, or the given one if they hold it."""
    found: dict[Any, None] = {}
    for s in lines:
        for value in listed(s):
            found.setdefault(value, None)
    names = list(found)
    if given is None:
        if len(names) == 1:
            return names[0]
        if not names and arg == "metric":
            raise InvalidParameterError(f"the lines of {name!r} list no metrics: pass metric= (a key of the lines)")
        raise InvalidParameterError(f"{name!r} holds the {arg}s {names}: pass {arg}= (one of them)")
    if names and given not in found:
        raise InvalidParameterError(f"{arg} {given!r} is not in {name!r}; it holds {names}")
    return given


def _model(results: Path) -> Any:
    """The model a ``results_<date>.json`` names (``model_name``, else the config's ``model_args``)."""
    if not results.is_file():
        return None
    info = parse_json(read_bounded(results, "the results file"), results.name)
    if not isinstance(info, dict):
        return None
    config = info.get("config") if isinstance(info.get("config"), dict) else {}
    return info.get("model_name") or config.get("model_args") or config.get("model")
