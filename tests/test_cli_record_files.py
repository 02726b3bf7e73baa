"""``thirtyone replay`` and ``thirtyone verify`` read only regular files of at most
``MAX_RECORD_BYTES`` (16 MiB), and check that before reading: a device, a pipe or a file too large
is a one-line error, exit status 2, and nothing is read."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import cli_error_line
from thirtyone.cli import main
from thirtyone.cli.replay import MAX_RECORD_BYTES

COMMANDS = ["replay", "verify"]


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own with at most 2 GiB of memory: an unbounded read fails
    the test (a MemoryError, or the timeout: a guard against hanging, not a measurement) instead of
    filling the machine's memory or hanging the suite."""
    code = "import sys; from thirtyone.cli import main; sys.exit(main(sys.argv[1:]))"
    limit = _limit_memory if sys.platform.startswith("linux") else None
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, preexec_fn=limit
    )


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_before_reading(command: str, device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    done = run_cli(command, device)
    assert done.returncode == 2
    assert done.stderr == (
        f"thirtyone: error: {device}: not a regular file (a device, pipe or socket); give a record file\n"
    )
    assert done.stdout == ""


@pytest.mark.parametrize("command", COMMANDS)
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path, command: str) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    pipe = tmp_path / "record.toml"
    os.mkfifo(pipe)
    done = run_cli(command, str(pipe))
    assert done.returncode == 2
    assert "not a regular file (a device, pipe or socket)" in done.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_file_larger_than_a_record_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    path = tmp_path / "huge.toml"
    with path.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 1)  # sparse: takes no room on the disk
    opened: list[object] = []
    real_open = Path.open
    monkeypatch.setattr(
        Path, "open", lambda self, *args, **kwargs: opened.append(self) or real_open(self, *args, **kwargs)
    )
    line = cli_error_line(capsys, [command, str(path)])
    assert line == (
        f"thirtyone: error: {path}: larger than a game record can be (16,777,217 bytes): a record is at most "
        "16,777,216 bytes (16 MiB); give a record file"
    )
    assert path not in opened  # refused before reading


def test_a_file_that_grows_past_the_limit_while_read_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "growing.toml"
    with path.open("wb") as file:
        file.truncate(MAX_RECORD_BYTES + 10)
    real_stat = Path.stat

    def small_when_checked(self: Path, **kwargs: bool) -> os.stat_result:
        result = real_stat(self, **kwargs)
        if self != path:
            return result
        fields = list(result)
        fields[6] = 11  # st_size: as it was before it grew
        return os.stat_result(fields)

    monkeypatch.setattr(Path, "stat", small_when_checked)
    line = cli_error_line(capsys, ["replay", str(path)])
    assert line == (
        f"thirtyone: error: {path}: larger than a game record can be: a record is at most 16,777,216 bytes "
        "(16 MiB); give a record file"
    )


def test_a_record_of_the_limit_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "padded.toml"
    text = '# padding\nformat = "pgn"\n'
    path.write_text(text + "#" * (MAX_RECORD_BYTES - len(text) - 1) + "\n", encoding="utf-8")
    assert path.stat().st_size == MAX_RECORD_BYTES
    assert main(["replay", str(path)]) == 2
    assert "not a thirtyone record: format is 'pgn'" in capsys.readouterr().err  # read and parsed
