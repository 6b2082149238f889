"""The run lock cannot be turned into a weapon (issue 33, item 1): a planted link, another
user's file, a directory or a FIFO where the lock should be is refused with one line, and the
file a link points to is never touched. Other users' runs are seen through their markers."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from cryptobench.errors import CryptobenchError
from cryptobench.run import neighbours
from cryptobench.run.lock import LockError, RunLock

from .conftest import ROOT

OTHER_UID = 65534  # nobody: "another user" (the tests run as root, so chown works)
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="chown to another user needs root")


@pytest.fixture
def default_place(tmp_path, monkeypatch):
    """No CRYPTOBENCH_LOCK: the lock goes to $TMPDIR/cryptobench-UID (no XDG_RUNTIME_DIR)."""
    monkeypatch.delenv("CRYPTOBENCH_LOCK", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    return tmp_path / f"cryptobench-{os.getuid()}"


def test_a_planted_symlink_is_refused_and_its_target_left_alone(tmp_path):
    target = tmp_path / "precious"
    target.write_text("keep me\n")
    (tmp_path / "run.lock").symlink_to(target)
    with pytest.raises(LockError, match="symbolic link"), RunLock(tmp_path / "run.lock"):
        pass
    assert target.read_text() == "keep me\n"


def test_a_symlink_to_a_missing_file_creates_nothing(tmp_path):
    (tmp_path / "run.lock").symlink_to(tmp_path / "created-through-the-link")
    with pytest.raises(LockError, match="symbolic link"), RunLock(tmp_path / "run.lock"):
        pass
    assert not (tmp_path / "created-through-the-link").exists()


@needs_root
def test_another_users_lock_file_is_refused_untouched(tmp_path):
    lock = tmp_path / "run.lock"
    lock.write_text("4242\n")
    os.chown(lock, OTHER_UID, OTHER_UID)
    with pytest.raises(LockError, match=f"another user \\(uid {OTHER_UID}\\)"), RunLock(lock):
        pass
    assert lock.read_text() == "4242\n"


def test_a_directory_is_refused(tmp_path):
    (tmp_path / "run.lock").mkdir()
    with pytest.raises(LockError, match="is a directory"), RunLock(tmp_path / "run.lock"):
        pass


def test_a_fifo_is_refused_without_hanging(tmp_path):
    os.mkfifo(tmp_path / "run.lock")
    with pytest.raises(LockError, match="not a regular file"), RunLock(tmp_path / "run.lock"):
        pass


def test_a_path_under_a_file_is_one_clean_error(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(LockError, match="cannot open it"), RunLock(tmp_path / "file" / "x"):
        pass


def test_a_file_holding_other_data_is_never_truncated(tmp_path):
    lock = tmp_path / "notes.txt"
    lock.write_text("my thesis, chapter 1\n")
    with pytest.raises(LockError, match="something other than"), RunLock(lock):
        pass
    assert lock.read_text() == "my thesis, chapter 1\n"


def test_the_lock_holds_our_pid_and_blocks_a_second_run(tmp_path):
    lock = tmp_path / "run.lock"
    with RunLock(lock):
        assert lock.read_text().strip() == str(os.getpid())
        assert stat.S_IMODE(lock.stat().st_mode) == 0o600
        with pytest.raises(CryptobenchError, match=f"pid {os.getpid()}"), RunLock(lock):
            pass
    with RunLock(lock):  # released: taken again
        pass


def test_the_default_lock_lives_in_a_private_directory(default_place):
    with RunLock() as held:
        assert held.path.parent == default_place
        assert stat.S_IMODE(os.lstat(default_place).st_mode) == 0o700
        assert held.path.read_text().strip() == str(os.getpid())


def test_a_planted_symlink_in_place_of_our_directory_is_refused(default_place, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    default_place.symlink_to(elsewhere)
    with pytest.raises(LockError, match="symbolic link"), RunLock():
        pass
    assert list(elsewhere.iterdir()) == []


@needs_root
def test_another_users_directory_in_our_place_is_refused(default_place):
    default_place.mkdir(mode=0o700)
    os.chown(default_place, OTHER_UID, OTHER_UID)
    with pytest.raises(LockError, match="another user"), RunLock():
        pass


def test_a_directory_others_may_write_is_refused(default_place):
    default_place.mkdir()
    default_place.chmod(0o777)
    with pytest.raises(LockError, match="others may write"), RunLock():
        pass


def test_xdg_runtime_dir_is_used_when_it_is_ours(default_place, tmp_path, monkeypatch):
    runtime = tmp_path / "xdg-run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    with RunLock() as held:
        assert held.path.parent == runtime / "cryptobench"


def test_the_cli_refuses_a_planted_symlink_in_one_line(fakes, isolated):
    fakes("ok")
    target = isolated / "precious"
    target.write_text("keep me\n")
    (isolated / "run.lock").unlink(missing_ok=True)
    (isolated / "run.lock").symlink_to(target)
    proc = subprocess.run(
        [sys.executable, "-m", "cryptobench", "run", "--primitive", "sha256", "--size", "64"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 1
    assert "symbolic link" in proc.stderr and "Traceback" not in proc.stderr
    assert target.read_text() == "keep me\n"


# -- other users' runs ---------------------------------------------------------------------


def _plant(folder, uid: int, pid: int, claimed_uid: int | None = None):
    path = folder / f"{neighbours.PREFIX}{uid}.json"
    doc = {"pid": pid, "uid": uid if claimed_uid is None else claimed_uid, "started": "t"}
    path.write_text(json.dumps(doc))
    os.chown(path, uid, uid)
    return path


def test_our_marker_is_world_readable_and_removed_after(tmp_path):
    with neighbours.Marker(tmp_path) as m:
        assert stat.S_IMODE(m.path.stat().st_mode) == 0o644
        doc = json.loads(m.path.read_text())
        assert doc["pid"] == os.getpid() and doc["uid"] == os.geteuid()
        assert set(doc) == {"pid", "uid", "started"}
    assert not m.path.exists()


def test_a_link_planted_at_our_marker_is_not_written_through(tmp_path):
    target = tmp_path / "precious"
    target.write_text("keep me\n")
    (tmp_path / f"{neighbours.PREFIX}{os.geteuid()}.json").symlink_to(target)
    with neighbours.Marker(tmp_path):
        pass
    assert target.read_text() == "keep me\n"


@needs_root
def test_another_users_live_run_is_seen(tmp_path):
    _plant(tmp_path, OTHER_UID, os.getppid())
    seen = neighbours.others(tmp_path)
    assert seen == [{"uid": OTHER_UID, "pid": os.getppid(), "started": "t"}]
    assert f"uid {OTHER_UID}" in neighbours.note(seen)


@needs_root
def test_dead_lying_or_own_markers_are_not_counted(tmp_path):
    proc = subprocess.Popen(["true"])
    proc.wait()
    _plant(tmp_path, OTHER_UID, proc.pid)  # a process that is gone
    _plant(tmp_path, OTHER_UID + 1, os.getppid(), claimed_uid=OTHER_UID)  # lies about its user
    with neighbours.Marker(tmp_path):  # our own
        assert neighbours.others(tmp_path) == []


@needs_root
def test_a_run_says_another_user_was_measuring(fakes, run_cli, isolated, monkeypatch):
    fakes("ok")
    markers = isolated / "markers"
    markers.mkdir()
    _plant(markers, OTHER_UID, os.getpid())
    monkeypatch.setenv("CRYPTOBENCH_MARKERS", str(markers))
    proc = run_cli("run", "--primitive", "sha256", "--size", "64", "--time-per-case", "0.05")
    assert proc.returncode == 0, proc.stderr
    assert "another user's cryptobench run was measuring" in " ".join(proc.stdout.split())
    shown = json.loads(run_cli("show", "last", "--format", "json").stdout)
    assert shown["run"]["other_users"][0]["uid"] == OTHER_UID
