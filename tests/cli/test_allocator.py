"""The command line's allocator keeps freed arrays' memory for the next ones (glibc only)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cpwords.cli._allocator import keep_freed_memory

# Allocate, touch and free a 24 MiB array, then do it again: the second one's minor page faults
# say whether the first one's memory was kept (huge pages off, so that a page is 4 KiB).
_PROBE = """
import resource, sys
import numpy as np
from numpy._core.multiarray import _set_madvise_hugepage
from cpwords.cli._allocator import keep_freed_memory
_set_madvise_hugepage(False)
kept = keep_freed_memory({}) if sys.argv[1] == "keep" else False
a = np.ones(3 << 20); del a
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
b = np.ones(3 << 20)
print(int(kept), resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _probe(mode: str) -> tuple[bool, int]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, mode], capture_output=True, text=True, check=True
    ).stdout.split()
    return out[0] == "1", int(out[1])


def test_user_settings_win() -> None:
    assert not keep_freed_memory({"MALLOC_MMAP_THRESHOLD_": "131072"})


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_freed_array_memory_is_reused() -> None:
    kept, faults = _probe("keep")
    if not kept:
        pytest.skip("not GNU libc: the allocator is left as it is")
    _, faults_default = _probe("default")
    # 24 MiB are 6,144 pages: touched afresh by default, reused when kept.
    assert faults_default > 4_000
    assert faults < 1_000
