"""``brisca serve`` starts uvicorn on loopback; bad arguments are one-line errors."""

from __future__ import annotations

import json
import select
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from brisca.cli import build_parser, main

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")


def test_serve_arguments() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8000, None)
    args = build_parser().parse_args(["serve", "--port", "9000", "--db", "postgresql://u@h/db"])
    assert (args.port, args.db) == (9000, "postgresql://u@h/db")


def test_takeover_after_option() -> None:
    import argparse

    from brisca.cli.serve import add_serve_options, takeover_after
    from brisca.errors import BriscaError

    parser = argparse.ArgumentParser()
    add_serve_options(parser)
    assert takeover_after(parser.parse_args([])) == 60.0
    assert takeover_after(parser.parse_args(["--takeover-after", "2.5"])) == 2.5
    assert takeover_after(parser.parse_args(["--takeover-after", "-1"])) is None
    with pytest.raises(BriscaError, match="takeover-after"):
        takeover_after(parser.parse_args(["--takeover-after", "-3"]))
    # Without the option on the command line (an older parser): the default.
    assert takeover_after(argparse.Namespace()) == 60.0


def test_bad_port_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "port" in capsys.readouterr().err
    assert main(["serve", "--hand-pause", "-1"]) == 2
    assert "--hand-pause is from 0 to 600 seconds" in capsys.readouterr().err


def test_serve_answers_on_loopback(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "brisca", "serve", "--port", str(port), "--db", str(tmp_path / "db.sqlite3"),
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        end = time.monotonic() + 60  # (a start-up on a busy machine: a generous bound, not a measure)
        while time.monotonic() < end:
            try:
                with urllib.request.urlopen(f"{base}/api/presets", timeout=2) as r:
                    presets = json.load(r)
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(proc.stderr.read().decode() if proc.stderr else "server exited")
                time.sleep(0.1)
        else:
            pytest.fail("the server did not answer")
        assert any(p["name"] == "spanish" for p in presets)
        with urllib.request.urlopen(f"{base}/", timeout=2) as r:
            assert b"app.js" in r.read()
        req = urllib.request.Request(f"{base}/api/tables", data=json.dumps({"bots": {"1": "easy"}}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=5) as r:
            made = json.load(r)
        assert made["url"].startswith("/t/")
        # A real WebSocket through uvicorn: hello, then the snapshot of the table.
        from websockets.sync.client import connect

        with connect(f"ws://127.0.0.1:{port}/ws/{made['table_id']}", open_timeout=5) as ws:
            ws.send(json.dumps({"type": "hello"}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            assert json.loads(ws.recv(timeout=5))["type"] == "sync"
            ws.send("garbage")
            assert json.loads(ws.recv(timeout=5))["code"] == "malformed"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


#: Runs the command line with the web extra's modules made unimportable, as in ``pip install brisca``.
_CORE_ONLY = """
import sys
for name in ("fastapi", "uvicorn", "sqlalchemy", "alembic", "openskill", "argon2", "platformdirs", "websockets"):
    sys.modules[name] = None
from brisca.cli import main
code = main(sys.argv[1:])
assert not any(sys.modules.get(n) for n in ("fastapi", "sqlalchemy")), "the core command imported the web stack"
sys.exit(code)
"""


def test_core_install_runs_without_the_web_extra() -> None:
    """The terminal game, the rules and ``--help`` need none of the web table's dependencies."""
    for argv in (["--help"], ["rules", "spanish"], ["serve", "--help"]):
        done = subprocess.run([sys.executable, "-c", _CORE_ONLY, *argv], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (argv, done.stderr)
    done = subprocess.run([sys.executable, "-c", _CORE_ONLY, "play", "--seed", "1"], input="q\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "You leave the match" in done.stdout


def test_serve_without_the_web_extra_says_what_to_install() -> None:
    done = subprocess.run([sys.executable, "-c", _CORE_ONLY, "serve"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "brisca: error: the web table needs the 'web' extra (fastapi, uvicorn, sqlalchemy, alembic, openskill,"
        " argon2, platformdirs, websockets missing): pip install 'brisca[web]'"
    ]
    assert "Traceback" not in done.stderr


def test_serve_says_one_line_for_a_database_it_cannot_reach(capsys: pytest.CaptureFixture[str]) -> None:
    """Before "serving on": a PostgreSQL server that refuses (or never answers, within the connect timeout)."""
    assert main(["serve", "--db", "postgresql://postgres@127.0.0.1:1/test", "--port", "8799"]) == 2
    out, err = capsys.readouterr()
    assert "serving on" not in out
    assert err.count("\n") == 1 and err.startswith("brisca: error: the database at ")
    assert "cannot be reached" in err and "Traceback" not in err


def test_loadtest_is_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--processes", "2", "--tables", "1"]) == 2
    assert capsys.readouterr().err == ("brisca loadtest: error: --processes above 1 needs --redis (and a --db"
                                       " postgresql://...)\n")
    with pytest.raises(SystemExit) as done:
        main(["loadtest", "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: brisca loadtest")


@pytest.mark.parametrize(("url", "said"), [
    ("http://127.0.0.1:6379", "--redis: not a Redis URL (redis://host:6379/0): Redis URL must specify"),
    ("redis://127.0.0.1:notaport/0", "--redis: not a Redis URL (redis://host:6379/0): Port could not be cast"),
    ("redis://127.0.0.1:99999/0", "--redis: not a Redis URL (redis://host:6379/0): Port out of range"),
    ("redis://127.0.0.1:6379/zero", "--redis redis://127.0.0.1:6379/zero: the database is a number"),
])
def test_a_redis_url_that_cannot_work_is_one_line_before_serving(url: str, said: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("redis")
    assert main(["serve", "--db", "postgresql://postgres@127.0.0.1:1/test", "--redis", url, "--port", "8799"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"brisca: error: {said}"), err


def test_a_redis_that_refuses_is_one_line_before_serving(capsys: pytest.CaptureFixture[str]) -> None:
    """Redis answers, and says no: a database it does not have, a user it does not know (the password hidden)."""
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url("redis://127.0.0.1:6379/0", socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis server at 127.0.0.1:6379: {exc}")
    for url, said in (("redis://127.0.0.1:6379/99", "DB index is out of range"),
                      ("redis://nobody-brisca:secret@127.0.0.1:6379/0", "invalid username-password pair")):
        assert main(["serve", "--db", "postgresql://postgres@127.0.0.1:1/test", "--redis", url]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1, err
        assert err.startswith("brisca: error: --redis redis://127.0.0.1:6379/") and said in err
        assert "secret" not in err and "nobody-brisca" not in err


def test_a_port_in_use_is_one_line_before_serving(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "db.sqlite3")]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"brisca: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_serving_on_is_said_once_it_serves_with_its_limits(tmp_path: Path) -> None:
    """"serving on" comes once the port answers, with the open files limit (raised to the hard limit)."""
    import resource

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "brisca", "serve", "--port", str(port), "--db",
                             str(tmp_path / "db.sqlite3"), "--log-level", "warning", "--max-open-per-address", "50"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert select.select([proc.stdout], [], [], 60)[0], "nothing said within 60 s"
        line = proc.stdout.readline()
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        files = "no limit" if hard == resource.RLIM_INFINITY else str(hard)
        cap = min(10_000, hard - 256) if hard != resource.RLIM_INFINITY else 10_000
        assert line == (f"brisca: serving on http://127.0.0.1:{port}/ (open files: {files}; connections: at most "
                        f"{cap}, 50 an address)\n")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=5) as r:
            assert r.status == 200
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(("flags", "said"), [
    (["--max-frame", "100"], "max_frame is from 4096 (the largest message) to 16777216 bytes, not 100"),
    (["--max-frame", "lots"], "--max-frame is a whole number, not 'lots'"),
    (["--head-timeout", "0"], "hash_wait, hello_timeout and head_timeout are more than 0 and at most 600 seconds"),
    (["--max-open-per-address", "0"], "max_open_per_address is 1 or more, not 0"),
    (["--max-open-connections", "-5"], "max_open_connections is 1 or more, not -5"),
    (["--rate-oversize", "0/1"], "--rate-oversize: a rate is more than 0 a minute"),
])
def test_a_bad_bound_at_the_socket_is_one_line(flags: list[str], said: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", str(tmp_path / "db.sqlite3"), *flags]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"brisca: error: {said}"), err
