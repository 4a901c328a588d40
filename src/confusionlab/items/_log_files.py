"""Reading evaluation logs safely: a regular file, sizes checked before reading, JSON parsed with
every failure turned into a refusal naming the file, and the frame the readers return.

A log is data from elsewhere: a path may name a directory, a device or a pipe; a zip member
may declare a few bytes and inflate to gigabytes; JSON may nest a thousand levels deep. Each of
these is refused with :class:`~confusionlab.InvalidParameterError` (or
:class:`~confusionlab.TooLargeError` above the memory limit) before it costs memory or time.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from .._deps import require
from .._errors import InvalidParameterError, short_repr
from .._memory import check_memory

__all__ = ["RESERVED", "build_frame", "check_log_path", "parse_json", "read_bounded", "score_to_float"]

#: Bytes a JSON text may take in memory once parsed, per byte of text (a generous bound).
PARSED_BYTES_PER_BYTE = 12.0
#: The columns the readers write themselves; a metadata key of one of these names gets a ``metadata_`` prefix.
RESERVED = ("item", "epoch", "score", "model", "task")


def check_log_path(path: Any, name: str = "path") -> Path:
    """``path`` as a Path to an existing regular file (not a directory, device or pipe).

    >>> check_log_path(".")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: path must name a log file, got '.' (a directory)
    """
    if not isinstance(path, (str, os.PathLike)):
        raise InvalidParameterError(
            f"{name} must be the path to a log file (str or os.PathLike), got {short_repr(path)}"
        )
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except OSError as exc:
        raise InvalidParameterError(f"{name} {str(p)!r} cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise InvalidParameterError(f"{name} must name a log file, got {str(p)!r} ({kind})")
    return p


def read_bounded(path: Path, what: str) -> bytes:
    """The bytes of ``path``, its size checked against the memory limit first (and again while reading)."""
    size = path.stat().st_size
    check_memory(PARSED_BYTES_PER_BYTE * size, f"{what} of {size:,} bytes", "split the log or read a smaller one")
    with path.open("rb") as fh:
        raw = fh.read(size + 1)
    if len(raw) > size:
        raise InvalidParameterError(f"{what} grew while it was read; read it again once it is complete")
    return raw


def parse_json(raw: bytes | str, what: str) -> Any:
    """JSON text → Python objects; invalid text, bad UTF-8 or nesting too deep refused naming ``what``.

    >>> parse_json(b'{"a": [1, 2]}', "header.json")
    {'a': [1, 2]}
    >>> parse_json(b"[" * 100_000, "header.json")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: header.json is not valid JSON: nested too deeply
    """
    try:
        return json.loads(raw)
    except RecursionError:
        raise InvalidParameterError(f"{what} is not valid JSON: nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InvalidParameterError(f"{what} is not valid JSON: {str(exc)[:120]}") from None


def score_to_float(value: Any, where: str) -> float:
    """A score as Inspect's ``value_to_float`` reads it: "C" → 1, "P" → 0.5, "I" and "N" → 0,
    numbers as they are, "yes"/"true" → 1, "no"/"false" → 0, numeric text → its number.

    Where Inspect logs a warning and counts 0 (a list, a dict, other text), the score is refused
    instead, naming the sample. None (a sample without that score) is NaN.

    >>> [score_to_float(v, "s") for v in ["C", "P", "I", "N", True, 0.25, "Yes", "0.5"]]
    [1.0, 0.5, 0.0, 0.0, 1.0, 0.25, 1.0, 0.5]
    >>> score_to_float({"a": 1}, "sample q1")
    Traceback (most recent call last):
    ...
    confusionlab.InvalidParameterError: sample q1 has the score {'a': 1}, which is not one number: ...
    """
    if value is None:
        return math.nan
    if value == "C":
        return 1.0
    if value == "P":
        return 0.5
    if value in ("I", "N"):
        return 0.0
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, str):
        text = value.lower()
        if text in ("yes", "true"):
            return 1.0
        if text in ("no", "false"):
            return 0.0
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if math.isfinite(number):
            return number
    raise InvalidParameterError(
        f"{where} has the score {short_repr(value)}, which is not one number: Inspect's value_to_float would "
        "count it 0 with a warning; pass scorer= to pick a scorer with numeric or C/I/P/N scores"
    )


def build_frame(rows: list[dict[str, Any]], metadata_keys: list[str], *, model: Any, task: Any) -> Any:
    """The readers' frame: item, epoch, score, each metadata key as a column, model, task."""
    pd = require("pandas", "logs", "reading evaluation logs")

    columns: dict[str, list[Any]] = {"item": [], "epoch": [], "score": []}
    renamed = {key: (f"metadata_{key}" if key in RESERVED else key) for key in metadata_keys}
    for key in metadata_keys:
        columns[renamed[key]] = []
    for row in rows:
        columns["item"].append(row["item"])
        columns["epoch"].append(row["epoch"])
        columns["score"].append(row["score"])
        meta = row["metadata"]
        for key in metadata_keys:
            columns[renamed[key]].append(meta.get(key))
    frame = pd.DataFrame(columns)
    frame["score"] = frame["score"].astype("float64")
    frame["model"] = model
    frame["task"] = task
    return frame


def metadata_keys(rows: list[dict[str, Any]]) -> list[str]:
    """Every metadata key of the rows, in order of first appearance."""
    seen: dict[str, None] = {}
    for row in rows:
        for key in row["metadata"]:
            seen.setdefault(str(key), None)
    return list(seen)
