"""The machine's facts: freed heap memory given back to the kernel."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

# A child that keeps freed blocks under 64 MiB in its heap (as the command line does), frees
# 256 MiB of 1 MiB arrays whose pages it touched (each below a live block), and prints its
# resident set (MiB) before and after giving the freed memory back.
CHILD = textwrap.dedent(
    """
    import numpy as np
    from cpwords.cli._allocator import keep_freed_memory
    from cpwords.core.machine import give_back_freed_memory

    def rss():
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * 4096 / 2**20

    assert keep_freed_memory({})
    parts, pins = [], []
    for _ in range(256):  # each freed part below a live block: holes, not the heap's top
        parts.append(np.ones(1 << 17, dtype=np.int64))
        pins.append(np.ones(1 << 10))
    del parts
    held = rss()
    give_back_freed_memory()
    print(held, rss())
    """
)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim (Linux)")
def test_freed_heap_memory_goes_back_to_the_kernel() -> None:
    from cpwords.core.machine import give_back_freed_memory

    if not give_back_freed_memory():
        pytest.skip("not GNU libc (nothing to give back here)")
    out = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    held, after = float(out[0]), float(out[1])
    assert held - after > 200, (held, after)  # of the 256 MiB freed
