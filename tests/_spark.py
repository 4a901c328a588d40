"""The local SparkSession of the tests and the benchmarks (one home for both).

The tests import it as ``_spark`` (pytest puts ``tests/`` on the path of its test packages);
the benchmarks put ``tests/`` on their path first.
"""

from __future__ import annotations

import sys
from typing import Any


def local_spark_session(app_name: str = "confusionlab", cores: int = 2, **config: str) -> Any:
    """A local SparkSession on ``cores`` cores: UI and progress bar off, bound to 127.0.0.1,
    ``cores`` shuffle partitions, the workers on this Python.

    ``config`` adds Spark settings (dots as ``__``: ``spark__driver__memory="4g"``). The caller
    stops the session (``session.stop()``). Needs pyspark (the ``spark`` extra) and Java 17.
    """
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", str(cores))
        .config("spark.default.parallelism", str(cores))
        .config("spark.pyspark.python", sys.executable)  # Python workers (UDFs) run this interpreter
    )
    for key, value in config.items():
        builder = builder.config(key.replace("__", "."), value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session
