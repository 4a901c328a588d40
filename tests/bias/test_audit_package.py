"""The audit is a package (``confusionlab.bias.auditing``, one module per idea) whose path and names stay."""

from __future__ import annotations

import subprocess
import sys

from confusionlab import bias


def test_the_old_module_path_gives_the_same_objects_without_a_warning():
    import confusionlab.bias.auditing as auditing

    assert auditing.audit is bias.audit and auditing.Audit is bias.Audit
    assert auditing.AUDIT_METRICS is bias.AUDIT_METRICS
    assert set(auditing.__all__) == {"AUDIT_METRICS", "COLUMNS", "DEFAULT_METRICS", "FRAME_METHODS", "Audit", "audit"}
    assert (auditing.MAX_AUDIT_ROWS, auditing.MAX_COMBINATIONS) == (20_000, 1_000_000)
    code = (
        "from confusionlab.bias.auditing import AUDIT_METRICS, COLUMNS, DEFAULT_METRICS, FRAME_METHODS, Audit, audit; "
        "import confusionlab.bias.auditing._judge, confusionlab.bias as b; print(callable(b.audit), b.audit is audit)"
    )
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]


def test_the_package_does_not_hide_the_function():
    import confusionlab.bias.auditing._audit  # noqa: F401  (a submodule import binds only bias.auditing)

    assert callable(bias.audit) and bias.audit.__module__ == "confusionlab.bias.auditing._audit"
