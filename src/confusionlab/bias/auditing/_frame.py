"""The DataFrame uses an :class:`~confusionlab.bias.Audit` keeps, by delegation to its rows.

An audit is not a DataFrame (its ``to_html`` is the auditor's page, not pandas'), but it
answers the common uses of one from the table of its rows: ``len``, iteration over the column
names, ``in``, indexing, the columns as attributes and the read-only methods of
:data:`FRAME_METHODS`, which return plain pandas objects.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..._deps import require

pd = require("pandas", "bias", "the bias audit")


__all__ = ["COLUMNS", "FRAME_METHODS", "FrameRows"]

#: Columns of an :class:`~confusionlab.bias.Audit`, in order.
COLUMNS = ("facet", "group", "metric", "value", "lower", "upper", "verdict", "target")

#: DataFrame attributes and read-only methods an :class:`Audit` answers from its rows (plain pandas results).
FRAME_METHODS = frozenset(
    {
        "apply", "columns", "copy", "describe", "drop", "dropna", "dtypes", "empty", "equals", "filter",
        "groupby", "head", "iloc", "index", "isna", "iterrows", "itertuples", "loc", "merge", "notna",
        "nunique", "pivot", "pivot_table", "query", "reset_index", "round", "set_index", "shape",
        "sort_values", "tail", "to_csv", "to_dict", "to_string", "value_counts",
    }
)  # fmt: skip


class FrameRows:
    """Rows held as a DataFrame ``_frame`` of the columns :data:`COLUMNS`, answering the DataFrame uses.

    Rows selected by a mask or a slice come back through :meth:`_with_rows` (the subclass's: an
    object of its own kind with the same attributes).
    """

    _frame: pd.DataFrame

    def _with_rows(self, frame: pd.DataFrame) -> Any:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._frame)

    def __iter__(self) -> Iterator[str]:
        return iter(self._frame)

    def __contains__(self, column: object) -> bool:
        return column in self._frame

    def __getitem__(self, key: Any) -> Any:
        """A column (Series), a list of columns (DataFrame), or rows by a boolean mask or slice (Audit)."""
        if isinstance(key, str) or (isinstance(key, list) and all(isinstance(k, str) for k in key)):
            return self._frame[key]
        rows = self._frame[key]
        return self._with_rows(rows) if list(rows.columns) == list(COLUMNS) else rows

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        frame = self.__dict__.get("_frame")
        if frame is not None and (name in COLUMNS or name in FRAME_METHODS):
            return getattr(frame, name)
        raise AttributeError(
            f"'{type(self).__name__}' object has no attribute {name!r} "
            f"(it is not a DataFrame: audit.to_frame().{name} is)"
        )

    def __repr__(self) -> str:
        return repr(self._frame)
