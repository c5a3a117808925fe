"""Ctrl-C in `cpwords bench --executor dask`: our local cluster's workers are killed at once."""

import subprocess
import sys
from types import SimpleNamespace

from cpwords.bench.cluster import _kill_local_workers


def test_ctrl_c_kills_the_local_dask_workers_at_once() -> None:
    """A nanny waits 4 s for a worker busy with a task before killing it: the run ended 4.2 s
    after Ctrl-C (SIGINT to cpwords alone). The workers of the cluster cpwords started are
    killed at once (the runner calls this on KeyboardInterrupt, before closing the cluster)."""
    busy = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        nanny = SimpleNamespace(process=SimpleNamespace(process=SimpleNamespace(pid=busy.pid)))
        gone = SimpleNamespace(process=None)  # a worker whose process already ended
        _kill_local_workers(SimpleNamespace(workers={"a": nanny, "b": gone}))
        assert busy.wait(timeout=5) == -9
    finally:
        busy.kill()
        busy.wait()
