"""What one server is started with: its limits (:class:`Settings`) and their defaults."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Largest word list accepted by the Wordsnake page (bytes of the request body).
MAX_UPLOAD = 4 * 1024 * 1024

#: Longest time limit a page may ask for (seconds); the CLI's default is the page's default.
MAX_TIME_LIMIT = 600.0
DEFAULT_TIME_LIMIT = 60.0


@dataclass
class Settings:
    """What one server was started with."""

    max_solves: int = 2
    max_upload: int = MAX_UPLOAD
    max_time_limit: float = MAX_TIME_LIMIT
    grace: float = 1.5
    extra: dict[str, Any] = field(default_factory=dict)
