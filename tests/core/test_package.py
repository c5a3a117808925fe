"""The package surface: every re-exported name resolves, and importing cpwords stays light."""

import subprocess
import sys

import pytest

import cpwords


@pytest.mark.parametrize("name", cpwords.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    assert getattr(cpwords, name) is not None


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        cpwords.no_such_function  # noqa: B018


def test_import_does_not_load_ortools() -> None:
    code = "import sys, cpwords; print(any(m.startswith('ortools') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
