"""installed_version reads what importlib.metadata reads."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest

from cpwords.core.machine import installed_version


@pytest.mark.parametrize("name", ["ortools", "numpy", "click", "NumPy", "hypothesis", "pytest"])
def test_installed_version_is_importlib_metadata_version(name: str) -> None:
    assert installed_version(name) == importlib.metadata.version(name)


def test_a_missing_distribution_is_refused_as_importlib_metadata_refuses_it() -> None:
    with pytest.raises(importlib.metadata.PackageNotFoundError):
        installed_version("no-such-distribution-cpwords")


def test_installed_version_loads_no_email_package() -> None:
    code = (
        "import sys; from cpwords.core.machine import installed_version;"
        "installed_version('ortools'); print('email' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
