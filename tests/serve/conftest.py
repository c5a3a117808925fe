"""The serve tests' fixtures: a test client of the app with a private cache, and a real server
on 127.0.0.1 (uvicorn in a thread, any free port)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("uvicorn", reason="cpwords serve needs the web extra (pip install '.[web]')")
pytest.importorskip("starlette", reason="cpwords serve needs the web extra")

if TYPE_CHECKING:
    from starlette.testclient import TestClient

#: The test clients' base URL (a local address, which the app's host check accepts).
LOCAL = "http://127.0.0.1:8000"


@pytest.fixture
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Letterpress index cache in the test's temporary folder, not the user's cache
    (a module uses it for every test with ``pytestmark = pytest.mark.usefixtures(...)``)."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("CPWORDS_CACHE_DIR", str(cache))
    return cache


@pytest.fixture
def client(private_cache: Path) -> Iterator[TestClient]:
    """A test client of the app: one solve at a time, 1 s grace, a private cache. A module
    that needs other settings defines its own ``client``, which replaces this one."""
    from starlette.testclient import TestClient

    from cpwords.serve.app import Settings, create_app

    with TestClient(create_app(Settings(max_solves=1, grace=1.0)), base_url=LOCAL) as c:
        yield c


class LiveServer:
    """A running server: its base URL and its application."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.app = app
        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        t0 = time.monotonic()
        while not self.server.started:
            if time.monotonic() - t0 > 30 or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server per test module: one solve at a time (so the queue is seen), 1 s grace.

    The Letterpress index cache goes to a temporary folder, not the user's cache.
    """
    from cpwords.serve.app import Settings, create_app

    mp = pytest.MonkeyPatch()
    mp.setenv("CPWORDS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    srv = LiveServer(create_app(Settings(max_solves=1, grace=1.0, max_upload=256 * 1024)))
    yield srv
    srv.stop()
    mp.undo()
