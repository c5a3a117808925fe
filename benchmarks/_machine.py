"""What every benchmark records about the machine it ran on (imported by the bench scripts)."""

from __future__ import annotations

import os
import platform
import time
from importlib.metadata import version
from typing import Any


def machine() -> dict[str, Any]:
    """Cores, Python, OR-Tools, platform, the 1/5/15-minute load averages now, and the date."""
    return {
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "ortools": version("ortools"),
        "platform": platform.platform(),
        "loadavg_start": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
