"""``thirtyone serve`` in a subprocess: a free port, the server started on an SQLite file (its
randomness seeded, its bots playing at once) once it answers GET /api/health, and killed."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from support.server import SEED

STARTUP_SECONDS = 30.0
"""How long a server subprocess may take to answer GET /api/health (a busy machine is slow)."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """A ``thirtyone serve`` subprocess on ``port`` over the SQLite file ``db``."""

    db: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing; what is committed is all that is left."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)


def start_server(db: Path, port: int, *options: str) -> Server:
    """Start the server (with more ``options`` of ``thirtyone serve``) and wait (at most
    :data:`STARTUP_SECONDS`) until it answers GET /api/health."""
    command = [sys.executable, "-m", "thirtyone", "serve", "--port", str(port), "--database-url", f"sqlite:///{db}"]
    command += ["--bot-delay", "0", "--messages-per-second", "1000", "--message-burst", "1000"]
    command += ["--showdown-timeout", "0"]  # its clients close no showdown (tests/test_server_showdown.py does)
    command += ["--seed", str(SEED)]  # its tables' chains and bots' seeds as every test server's
    command += ["--log-level", "warning", *options]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = Server(db, port, process)
    deadline = time.monotonic() + STARTUP_SECONDS
    with httpx.Client(timeout=1.0) as http:  # one client: each new one loads the CA bundle (0.1 s of CPU)
        while time.monotonic() < deadline:
            if process.poll() is not None:
                error = process.stderr.read().decode() if process.stderr else ""
                raise AssertionError(f"the server exited with {process.returncode}: {error}")
            with contextlib.suppress(httpx.TransportError):
                if http.get(f"{server.url}/api/health").status_code == 200:
                    return server
            time.sleep(0.05)
    server.kill()
    raise AssertionError(f"the server did not answer within {STARTUP_SECONDS} s")
