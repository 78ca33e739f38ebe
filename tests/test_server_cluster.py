"""Several ``brisca serve`` processes, one site: PostgreSQL (a fresh schema) and Redis on 127.0.0.1.

Three real server processes: a table's seats connect through different processes, the table's owner is killed
with SIGKILL mid-game, another process takes its tables over, the clients reconnect to any process, and nothing
acknowledged or broadcast is lost, doubled or misplaced; every record replays. Skipped without the ``cluster``
extra, PostgreSQL or Redis, unless ``BRISCA_REQUIRE_CLUSTER=1`` (as in ``.ci/run``), which makes that a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

from brisca.cli import main
from brisca.server import loadtest

pytestmark = pytest.mark.cluster  # a stage of its own in CI (tests/conftest.py)

REQUIRE = os.environ.get("BRISCA_REQUIRE_CLUSTER") == "1"
#: The reverse proxy's test needs Debian's nginx (``apt-get install nginx``): it fails rather than skips with this.
REQUIRE_NGINX = os.environ.get("BRISCA_REQUIRE_NGINX") == "1"
NGINX_SITE = Path(__file__).parent.parent / "docs" / "hosting" / "nginx-brisca.conf"
REDIS = os.environ.get("BRISCA_TEST_REDIS", "redis://127.0.0.1:6379/0")
POSTGRES = os.environ.get("BRISCA_TEST_POSTGRES", "postgresql+psycopg://{user}@127.0.0.1:5432/test")


def _unavailable(why: str) -> None:
    if REQUIRE:
        pytest.fail(f"BRISCA_REQUIRE_CLUSTER=1: {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def redis_url() -> str:
    try:
        import redis
    except ImportError:
        _unavailable("no Redis client: pip install -e '.[cluster]'")
        raise
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except Exception as exc:
        _unavailable(f"no Redis server at {REDIS}: {exc}")
    return REDIS


def _schema_url() -> Iterator[str]:
    """A PostgreSQL URL whose search path is a new schema of its own (dropped afterwards)."""
    import sqlalchemy as sa

    schema = f"brisca_cluster_{uuid.uuid4().hex[:12]}"
    engine, url = None, ""
    for user in ("postgres", "root"):
        candidate = sa.create_engine(POSTGRES.format(user=user))
        try:
            with candidate.begin() as c:
                c.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
            engine, url = candidate, POSTGRES.format(user=user)
            break
        except Exception:
            candidate.dispose()
    if engine is None:
        _unavailable("no PostgreSQL server at 127.0.0.1:5432 (database test)")
        return
    try:
        yield f"{url}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as c:
            c.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from _schema_url()


@pytest.fixture(scope="module")
def servers(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[loadtest.Server]]:
    """Three processes serving one site (a schema of their own), for the tests that do not kill them."""
    folder = tmp_path_factory.mktemp("cluster")
    for url in _schema_url():
        started = [loadtest.Server(url, loadtest.free_port(), folder / f"server{i}.log", redis=redis_url)
                   for i in range(3)]
        for s in started:
            s.start()
        try:
            asyncio.run(asyncio.wait_for(loadtest._ready(started), 60))
            yield started
        finally:
            for s in started:
                s.stop()


def _get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.load(r)


def _post(base: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def test_redis_needs_a_postgresql_database(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["serve", "--db", str(tmp_path / "db.sqlite3"), "--redis", "redis://127.0.0.1:6379/0"]) == 2
    assert "--redis needs --db postgresql://" in capsys.readouterr().err


def test_one_process_answers_its_health(tmp_path: Path) -> None:
    """``GET /healthz`` without ``--redis``: the process, its database, the tables it runs; 503 when the
    database does not answer."""
    from test_server_common import Conn, deadline, serve

    with deadline(30), serve(str(tmp_path / "db.sqlite3")) as client:
        health = client.get("/healthz")
        assert health.status_code == 200
        assert health.json() == {"ok": True, "pid": os.getpid(), "node": None, "database": True, "writes": True,
                                 "redis": None, "tables_owned": 0, "tables_loaded": 0, "connections": 0}
        made = client.post("/api/tables", json={"players": 2, "name": "Ana"}).json()
        Conn(client, made["table_id"], token=made["token"])
        health = client.get("/healthz").json()
        assert (health["tables_owned"], health["connections"]) == (1, 1)
        manager = client.app.state.manager  # type: ignore[attr-defined]
        manager.store.ping = lambda: False
        down = client.get("/healthz")
        assert down.status_code == 503 and down.json()["ok"] is False and down.json()["database"] is False


def test_the_loadtest_needs_redis_and_postgresql_for_several_processes(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="--redis"):
        loadtest.main(["--processes", "2", "--tables", "1", "--workdir", str(tmp_path)])
    with pytest.raises(SystemExit, match="postgresql"):
        loadtest.main(["--processes", "2", "--redis", REDIS, "--tables", "1", "--workdir", str(tmp_path)])


def test_a_table_is_played_through_three_processes(servers: list[loadtest.Server]) -> None:
    from websockets.sync.client import connect

    before = [_get(s.base, "/healthz")["tables_owned"] for s in servers]
    one, two, three = (s.base for s in servers)
    # Created on the first process, which runs it; the second seat is taken through the second.
    made = _post(one, "/api/tables", {"players": 2, "name": "Ana", "bot_delay": 0})
    table_id = made["table_id"]
    joined = _post(two, f"/api/tables/{table_id}/join", {"name": "Bea"})
    assert joined["seat"] == 1
    healths = [_get(s.base, "/healthz") for s in servers]
    assert all(h["ok"] and h["database"] and h["redis"] for h in healths)
    assert len({h["node"] for h in healths}) == 3 and len({h["pid"] for h in healths}) == 3
    assert [h["tables_owned"] for h in healths] == [before[0] + 1, *before[1:]]
    # Any process answers for it: its state, and the lobby (asked of its owner).
    assert _get(three, f"/api/tables/{table_id}")["status"] == "playing"
    lobby = _get(two, "/api/lobby")
    listed = {t["table_id"]: t for t in lobby["playing"]}
    assert listed[table_id]["seats"][1]["name"] == "Bea"

    # Seat 0 through the third process, seat 1 through the second, a spectator on the first.
    stack = contextlib.ExitStack()
    seats = [stack.enter_context(connect(f"ws{three[4:]}/ws/{table_id}")),
             stack.enter_context(connect(f"ws{two[4:]}/ws/{table_id}"))]
    watcher = stack.enter_context(connect(f"ws{one[4:]}/ws/{table_id}"))
    for ws, token in zip(seats, [made["token"], joined["token"]], strict=True):
        ws.send(json.dumps({"type": "hello", "token": token}))
    watcher.send(json.dumps({"type": "hello"}))
    logs: list[list[dict[str, Any]]] = [[], [], []]
    conns = [*seats, watcher]

    def read(i: int) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(conns[i].recv(timeout=10))
        logs[i].append(m)
        return m

    states: list[dict[str, Any]] = []
    for i in range(3):
        assert read(i)["type"] == "welcome"
        states.append(read(i)["state"])  # the snapshot
    assert [s["view"]["seat"] for s in states[:2]] == [0, 1]
    # Twelve moves, each sent through the process of the seat whose turn it is; every connection sees
    # every event once, in order, and each seat's events hold only its own hand.
    for _ in range(12):
        turn = states[0]["view"]["turn"]
        action = states[turn]["view"]["legal"][0]["text"]
        conns[turn].send(json.dumps({"type": "play", "action": action, "id": 7}))
        for i in range(3):
            while True:
                m = read(i)
                if m["type"] == "event":
                    states[i] = m["state"]
                    if m["kind"] == "action":
                        assert m["action"]["text"] == action
                        break
        assert read(turn) == {"type": "ack", "v": states[turn]["table"]["version"], "id": 7}
    seats[1].send(json.dumps({"type": "chat", "text": "hola", "id": "c"}))
    for i in range(3):
        m = read(i)
        assert (m["kind"], m["text"], m["name"]) == ("chat", "hola", "Bea")
    for i, log in enumerate(logs):
        numbers = [m["v"] for m in log if m["type"] == "event"]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), i
    hands = [{c for m in log if m.get("state") for c in m["state"]["view"]["hand"]} for log in logs]
    assert hands[0] and hands[1] and not hands[0] & hands[1] and not hands[2]
    # The owner counts the connections that came through the other processes.
    owner = _get(one, "/healthz")
    assert owner["connections"] == 3 and owner["connections_from_other_processes"] == 2
    assert _get(two, "/healthz")["forwarded_connections"] == 1
    stack.close()


def _closed(base: str, table_id: str) -> bool:
    """The table is closed within 5 s, as this process says: gone (410), or, asked of its owner, closed (the
    close follows the command's acknowledgement)."""
    deadline = time.monotonic() + 5
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/tables/{table_id}", timeout=10) as r:
                if json.load(r)["status"] == "closed":
                    return True
        except urllib.error.HTTPError as exc:
            return exc.code == 410
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def test_leave_resign_and_cancel_through_another_process(servers: list[loadtest.Server]) -> None:
    """A seat's leave and resign reach the table's owner from a connection to another process; so does its
    creator's cancel, asked of a third."""
    from websockets.sync.client import connect

    one, two, three = (s.base for s in servers)

    def ask(table_id: str, token: str, what: str) -> dict[str, Any]:
        with connect(f"ws{two[4:]}/ws/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            ws.send(json.dumps({"type": what, "id": what}))
            while True:
                m: dict[str, Any] = json.loads(ws.recv(timeout=10))
                if m.get("id") == what:
                    return m

    left = _post(one, "/api/tables", {"players": 4, "name": "Ana", "bot_delay": 0})
    assert ask(left["table_id"], left["token"], "leave")["type"] == "ack"
    assert _closed(three, left["table_id"])  # nobody sat at it any more

    cancelled = _post(one, "/api/tables", {"players": 2, "bot_delay": 0})["table_id"]
    assert _post(three, f"/api/tables/{cancelled}/cancel", {})["status"] == "closed"
    assert _closed(two, cancelled)

    # Ana resigns: the bot's side wins the match, which every process then shows finished and in the history.
    resigned = _post(one, "/api/tables", {"players": 2, "name": "Ana", "bots": {"1": "easy"}, "bot_delay": 0})
    assert ask(resigned["table_id"], resigned["token"], "resign")["type"] == "ack"
    for base in (one, two, three):
        assert _won_by_resignation(base, resigned["table_id"]) == 1


def _won_by_resignation(base: str, table_id: str) -> int | None:
    """The winner of a match ended by resignation, as the history of this process says it within 5 s."""
    deadline = time.monotonic() + 5
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/games/{table_id}", timeout=10) as r:
                winner: int | None = json.load(r)["winner"]
                return winner
        except urllib.error.HTTPError as exc:
            if exc.code != 404 or time.monotonic() > deadline:
                raise
        time.sleep(0.1)


def test_a_hint_is_searched_by_the_owner_wherever_it_is_asked(servers: list[loadtest.Server]) -> None:
    """A practice table's hint asked of a process that does not run the table: its owner searches the seat's view
    and the answer comes back; a wrong token is refused there too, and a rated table gives none."""
    one, two, _three = (s.base for s in servers)
    made = _post(one, "/api/tables", {"players": 2, "name": "Ana", "bots": {"1": "normal"}, "bot_delay": 0,
                                      "seed": 7})
    path = f"/api/tables/{made['table_id']}/hint"
    ends = time.monotonic() + 20
    while True:  # until the deal is made and it is Ana's turn (she never plays: it stays hers)
        try:
            hint = _post(two, path, {"token": made["token"]})["hint"]
            break
        except urllib.error.HTTPError as exc:
            assert exc.code == 409 and time.monotonic() < ends, exc.read()
            time.sleep(0.2)
    state = _get(one, f"/api/tables/{made['table_id']}")
    assert state["status"] == "playing" and hint["text"] and 0 <= hint["win"] <= 1 and hint["worlds"] >= 1
    with pytest.raises(urllib.error.HTTPError) as refused:
        _post(two, path, {"token": "not-a-token"})
    assert refused.value.code == 403
    rated = _post(one, "/api/tables", {"players": 2, "name": "Bea", "bots": {"1": "normal"}, "bot_delay": 0})
    with pytest.raises(urllib.error.HTTPError) as refused:
        _post(two, f"/api/tables/{rated['table_id']}/hint", {"token": rated["token"]})
    assert refused.value.code == 403


def test_kill_9_of_the_owner_loses_and_doubles_nothing(redis_url: str, pg_url: str, tmp_path: Path) -> None:
    tables = 12
    # About 35 s on a quiet 2-core machine; the deadlines leave room for a busy one.
    run = loadtest.durability(tables, db=pg_url, pace=0.03, kill_after=1.0, kills=2, deadline=90.0,
                              workdir=tmp_path, processes=3, redis=redis_url)
    report: dict[str, Any] = asyncio.run(asyncio.wait_for(run, 150))
    assert report["problems"] == []
    assert (report["lost"], report["duplicated"], report["misplaced"]) == (0, 0, 0)
    first, second = report["kills"]
    # Each kill took a process that ran tables mid-game; the others had them all within a few seconds.
    assert first["tables_owned"] >= 1 and second["tables_owned"] >= 1
    assert first["tables_mid_game"] == tables
    assert first["takeover_s"] < 15 and second["takeover_s"] < 15
    assert 0 < first["acked_before"] < second["acked_before"] < report["acked_checked"]
    # Clients came back (to other processes), every match ended on the two processes left, every record replays.
    assert report["reconnects"] >= 2
    assert report["records_replayed"] == tables
    assert report["acked_checked"] + report["kept_unanswered_past_a_hand"] == report["actions_in_records"]
    assert report["broadcasts_checked"] >= 2 * report["actions_in_records"] - 4 * tables
    assert report["ok"]


def test_a_lost_lease_refuses_the_write(redis_url: str, pg_url: str) -> None:
    """The fence: once another process holds a table's lease, the first one's writes to it fail, and change
    nothing; a lease is taken only when it ended or its holder is dead."""
    import sqlalchemy as sa

    from brisca.server.app import Manager
    from brisca.server.cluster import ClusterManager, LeaseLost, Leases
    from brisca.server.store import SeatInfo, Store, TableState

    async def scenario() -> None:
        store = Store(pg_url)
        try:
            first = ClusterManager(Manager(store), redis_url)
            first.loop = asyncio.get_running_loop()
            other = Leases(store.engine, "other-process", 30.0)
            state = TableState(id="fence1", preset="spanish", options={}, players=2, seed=1, bot_delay=0,
                               status="waiting", version=0, seats=[SeatInfo(0), SeatInfo(1)])
            store.create_table(state)
            epoch = first.leases.acquire("fence1")
            assert epoch == 1
            first.epochs["fence1"] = epoch
            await store.write(store.set_version, "fence1", 1)
            # Held and running: another process cannot take it, unless it knows the holder is dead.
            assert other.acquire("fence1") is None
            assert other.holder("fence1") == (first.node, True)
            # Ended, but within its grace (a process cut off from the database a while renews it then): kept.
            with store.engine.begin() as c:
                c.execute(sa.text("UPDATE brisca_leases SET expires_at = now() - interval '1 second'"))
            assert other.acquire("fence1") is None
            assert other.holder("fence1") == (first.node, True)
            with store.engine.begin() as c:
                c.execute(sa.text("UPDATE brisca_leases SET expires_at = now() - interval '31 seconds'"))
            assert other.holder("fence1") == (first.node, False)
            assert other.acquire("fence1") == 2
            with pytest.raises(LeaseLost):
                await store.write(store.set_version, "fence1", 2)
            assert store.load("fence1").version == 1  # type: ignore[union-attr]
            assert first.leases.acquire("fence1") is None
            assert first.leases.acquire("fence1", dead=["other-process"]) == 3
            # Each write is fenced by its writer's epoch: an actor of an earlier lease of this very process (being
            # stopped while a newer one loads the table) cannot write, and the newer one keeps the table.
            first.epochs["fence1"] = 3
            await store.write(store.set_version, "fence1", 3, lease=3)
            assert first.leases.acquire("fence1") == 4
            first.epochs["fence1"] = 4
            with pytest.raises(LeaseLost):
                await store.write(store.set_version, "fence1", 4, lease=3)
            await asyncio.sleep(0.1)
            assert store.load("fence1").version == 3 and first.epochs["fence1"] == 4  # type: ignore[union-attr]
            await store.write(store.set_version, "fence1", 4, lease=4)
            assert store.load("fence1").version == 4  # type: ignore[union-attr]
        finally:
            store.dispose()

    asyncio.run(asyncio.wait_for(scenario(), 30))


def _play_two_seats(base: str, ws_base: str, moves: int, context: ssl.SSLContext | None = None,
                    origin: str | None = None) -> int:
    """A two-person table through ``base``: created, joined, and ``moves`` actions played over WebSockets."""
    from websockets.sync.client import connect

    headers = {"Content-Type": "application/json"} | ({"Origin": origin} if origin else {})

    def post(path: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
        with urllib.request.urlopen(request, timeout=10, context=context) as r:
            return json.load(r)

    made = post("/api/tables", {"players": 2, "name": "Ana", "bot_delay": 0})
    joined = post(f"/api/tables/{made['table_id']}/join", {"name": "Bea"})
    acks = 0
    with connect(f"{ws_base}/ws/{made['table_id']}", ssl=context) as one, \
            connect(f"{ws_base}/ws/{made['table_id']}", ssl=context) as two:
        conns = [one, two]
        states: list[dict[str, Any]] = [{}, {}]
        for ws, token in zip(conns, [made["token"], joined["token"]], strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        for i, ws in enumerate(conns):
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            states[i] = json.loads(ws.recv(timeout=10))["state"]
        for _ in range(moves):
            turn = states[0]["view"]["turn"]
            conns[turn].send(json.dumps({"type": "play", "action": states[turn]["view"]["legal"][0]["text"]}))
            for i, ws in enumerate(conns):
                while True:
                    m = json.loads(ws.recv(timeout=10))
                    if m["type"] == "ack":
                        acks += 1
                    if m["type"] == "event" and m["kind"] == "action":
                        states[i] = m["state"]
                        break
            if json.loads(conns[turn].recv(timeout=10))["type"] == "ack":
                acks += 1
    return acks


def test_behind_nginx_with_tls(servers: list[loadtest.Server], tmp_path: Path) -> None:
    """docs/hosting/nginx-brisca.conf as it is (ports and certificate paths changed): TLS, the WebSockets, and
    the requests spread over three processes."""
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    openssl = shutil.which("openssl")
    if nginx is None or openssl is None:
        if REQUIRE_NGINX:
            pytest.fail("BRISCA_REQUIRE_NGINX=1: nginx or openssl missing (apt-get install nginx openssl)")
        pytest.skip("no nginx here (apt-get install nginx)")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=brisca",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(tmp_path / "key.pem"),
                    "-out", str(tmp_path / "cert.pem")], check=True, capture_output=True)
    https, http = loadtest.free_port(), loadtest.free_port()
    site = NGINX_SITE.read_text()
    for old, server in zip(("127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"), servers, strict=True):
        site = site.replace(old, f"127.0.0.1:{server.port}")
    site = (site.replace("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
            .replace("listen 80;", f"listen 127.0.0.1:{http};")
            .replace("/etc/letsencrypt/live/brisca.example.org/fullchain.pem", str(tmp_path / "cert.pem"))
            .replace("/etc/letsencrypt/live/brisca.example.org/privkey.pem", str(tmp_path / "key.pem")))
    (tmp_path / "brisca.conf").write_text(site)
    temp = "".join(f"{kind}_temp_path {tmp_path}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi",
                                                                          "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(
        f"worker_processes 1;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\n"
        f"events {{ worker_connections 256; }}\nhttp {{\naccess_log off;\n{temp}include {tmp_path}/brisca.conf;\n}}\n")
    proxy = subprocess.Popen([nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", https)) == 0:
                    break
            assert proxy.poll() is None, proxy.stdout.read().decode() if proxy.stdout else "nginx exited"
            time.sleep(0.05)
        context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        base = f"https://127.0.0.1:{https}"
        pids = set()
        for _ in range(9):
            with urllib.request.urlopen(base + "/healthz", timeout=10, context=context) as r:
                health = json.load(r)
            assert health["ok"] and health["redis"]
            pids.add(health["pid"])
        assert pids <= {s.proc.pid for s in servers if s.proc is not None} and len(pids) >= 2
        # Plain HTTP is sent to HTTPS.
        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any) -> None:
                return None

        with pytest.raises(urllib.error.HTTPError) as moved:
            urllib.request.build_opener(Stay).open(f"http://127.0.0.1:{http}/healthz", timeout=10)
        assert moved.value.code == 301 and moved.value.headers["Location"] == "https://127.0.0.1/healthz"
        # A table over HTTPS (a POST from the site's own origin passes the Origin check) and secure WebSockets.
        assert _play_two_seats(base, f"wss://127.0.0.1:{https}", 6, context, origin=base) == 6
    finally:
        proxy.terminate()
        proxy.wait(10)


def test_a_stopped_process_hands_its_tables_over_at_once(servers: list[loadtest.Server]) -> None:
    """SIGTERM (a restart, an upgrade): the process gives its leases up as it stops, another process runs its
    tables within a few seconds, with the move clock as it was, and a seat forwarded through a third process is
    closed, reconnects with its last event number, and plays on. (The last test of the module: it stops one of its
    processes.)"""
    from websockets.sync.client import connect

    first, second, third = servers
    made = _post(third.base, "/api/tables", {"players": 2, "name": "Ana", "bots": {"1": "easy"}, "bot_delay": 0})
    table_id = made["table_id"]
    url = f"ws{first.base[4:]}/ws/{table_id}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        sync = json.loads(ws.recv(timeout=10))
        last, state = sync["v"], sync["state"]
        while state["view"]["turn"] != 0:  # the bot's move, if it is its turn: then Ana's clock runs
            m = json.loads(ws.recv(timeout=10))
            last, state = m["v"], m.get("state", state)
        due = state["table"]["clock"]["deadline"]
        assert state["table"]["clock"]["seat"] == 0 and due is not None
        before = [_get(s.base, "/healthz")["tables_owned"] for s in (first, second)]
        stopped = time.monotonic()
        third.stop()
        # The forwarded connection is closed (the page reconnects)...
        with pytest.raises(Exception):  # noqa: B017 (websockets' ConnectionClosed, after what was sent before)
            while True:
                m = json.loads(ws.recv(timeout=10))
                if m["type"] == "event":
                    last, state = m["v"], m.get("state", state)
    # ... and the table runs on another process within a few seconds.
    while sum(_get(s.base, "/healthz")["tables_owned"] for s in (first, second)) < sum(before) + 1:
        assert time.monotonic() - stopped < 10, "nobody took the table over"
        time.sleep(0.1)
    clock = _get(second.base, f"/api/tables/{table_id}")["clock"]
    assert (clock["seat"], clock["deadline"]) == (0, due)  # the deadline stored, not a timer of the process gone
    with connect(f"ws{second.base[4:]}/ws/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": made["token"], "last": last}))
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        while (m := json.loads(ws.recv(timeout=10)))["type"] != "pong":  # the events missed, if any
            assert m["type"] == "event" and m["v"] == last + 1
            last, state = m["v"], m.get("state", state)
        while state["view"]["turn"] != 0:  # the bot's move, if it is its turn
            m = json.loads(ws.recv(timeout=10))
            assert m["type"] == "event" and m["v"] == last + 1
            last, state = m["v"], m.get("state", state)
        ws.send(json.dumps({"type": "play", "action": state["view"]["legal"][0]["text"], "id": 1}))
        while (m := json.loads(ws.recv(timeout=10)))["type"] != "ack":
            assert m["type"] == "event" and m["v"] == last + 1
            last = m["v"]
        assert m["id"] == 1


def test_the_rates_are_the_sites_in_redis(redis_url: str) -> None:
    """Two processes' limiters share each address's bucket in Redis; without Redis each keeps its own."""
    from brisca.server.limits import Limits, Rate, RedisLimiter

    limits = Limits(rate_login=Rate(6, 3))  # 3 at once, then one every 10 s
    prefix = f"brisca:test-rate:{uuid.uuid4().hex}"
    one, two = (RedisLimiter(limits, redis_url, prefix=prefix) for _ in range(2))
    assert one.retry_after("login", "10.0.0.1") is None
    assert two.retry_after("login", "10.0.0.1") is None
    assert one.retry_after("login", "10.0.0.1") is None
    wait = two.retry_after("login", "10.0.0.1")
    assert wait is not None and 9.0 < wait <= 10.0
    assert one.retry_after("login", "10.0.0.1") is not None
    assert one.retry_after("login", "10.0.0.2") is None  # another address, its own bucket
    assert one.retry_after("join", "10.0.0.1") is None  # another kind, its own bucket
    assert one.shared and two.shared and not one.buckets  # nothing was counted in the process
    # Forgotten once full again: the key expires after the time a bucket takes to fill.
    ttl = one.redis.ttl(f"{prefix}:login:10.0.0.1")
    assert 0 < ttl <= 30

    # Redis out of reach (a closed port): each process limits on its own, and says so.
    lost = RedisLimiter(limits, "redis://127.0.0.1:1/0", prefix=prefix)
    assert [lost.retry_after("login", "10.0.0.1") is None for _ in range(4)] == [True, True, True, False]
    assert not lost.shared


def test_a_process_of_a_site_limits_with_redis(redis_url: str, pg_url: str) -> None:
    from brisca.server.app import create_app
    from brisca.server.limits import RedisLimiter

    assert isinstance(create_app(pg_url, redis_url=redis_url).state.limiter, RedisLimiter)
    assert not isinstance(create_app(pg_url).state.limiter, RedisLimiter)
    # The logins to one account are counted by the site, whichever process each reaches.
    assert isinstance(create_app(pg_url, redis_url=redis_url).state.account_limiter, RedisLimiter)


def test_an_accounts_login_rate_is_the_sites_in_redis(redis_url: str) -> None:
    from brisca.server.limits import Limits, Rate, RedisLimiter

    limits = Limits(rate_account=Rate(2, 2))
    prefix = f"brisca:test-account:{uuid.uuid4().hex}"
    one, two = (RedisLimiter(limits, redis_url, prefix=prefix) for _ in range(2))
    assert one.retry_after("account", "ana") is None and two.retry_after("account", "ana") is None
    wait = one.retry_after("account", "ana")
    assert wait is not None and 29.0 < wait <= 30.0
    assert two.retry_after("account", "bea") is None  # another account, its own bucket


def test_the_bus_drops_a_message_read_twice_and_reports_one_missed() -> None:
    """The messages to a process are numbered: a publish tried again after Redis had taken it is read once; a
    skipped number (a message lost on the way) is reported, so that the connections between the two processes start
    over rather than wait for it."""
    from brisca.server.cluster import Bus

    handled: list[tuple[str, list[dict[str, Any]], list[str]]] = []
    bus = Bus("redis://127.0.0.1:1/0", "me", lambda sender, ops, texts: handled.append((sender, ops, texts)),
              lambda node: None)
    gaps: list[str] = []
    bus.gap = gaps.append

    def message(seq: int, text: str) -> bytes:
        ops = [{"op": "d", "items": [[1, 0]]}]
        return (json.dumps({"from": "other", "seq": seq, "ops": ops}) + "\n" + text).encode()

    for seq, text in ((1, "a"), (2, "b"), (2, "b"), (4, "d"), (5, "e")):
        bus._read(message(seq, text))
    assert [texts for _, _, texts in handled] == [["a"], ["b"], ["d"], ["e"]]
    assert gaps == ["other"]
    # Numbered per sending process: another one's first message is no gap.
    bus._read(json.dumps({"from": "third", "seq": 7, "ops": []}).encode())
    assert gaps == ["other"] and handled[-1][0] == "third"


def test_a_forwarded_connection_left_unanswered_starts_over() -> None:
    """A connection forwarded to another process's table: while the owner answers, it stays; once a command has had
    no word back for FORWARD_TIMEOUT seconds (the owner gone or stuck without that being noticed), it is closed, so
    that its client reconnects and catches up, and the owner is told to forget it."""
    from brisca.server import cluster
    from brisca.server.table import CLOSE, Act, Connection, Hello

    class FakeBus:
        up = True

        def __init__(self) -> None:
            self.sent: list[tuple[str, dict[str, Any]]] = []

        def send(self, node: str, op: dict[str, Any]) -> None:
            self.sent.append((node, op))

    class FakeCluster:
        def __init__(self) -> None:
            self.bus, self.local, self.keys = FakeBus(), {}, 0

        def new_key(self) -> int:
            self.keys += 1
            return self.keys

    async def run() -> None:
        site = FakeCluster()
        route = cluster.RemoteTable(site, "t1", "owner")  # type: ignore[arg-type]
        quiet, answered = Connection(), Connection()
        route.submit(Hello(quiet, "token-a", None))
        route.submit(Hello(answered, "token-b", None))
        start = asyncio.get_running_loop().time()
        (key_quiet, _), (key_answered, _) = [(k, c) for k, (c, _) in site.local.items()]
        route.asked.pop(key_answered)  # what the owner's answer does (ClusterManager._receive)
        route.unanswered(start + cluster.FORWARD_TIMEOUT / 2)
        assert route.keys.keys() == {quiet, answered} and quiet.outbox.empty()
        route.unanswered(start + cluster.FORWARD_TIMEOUT + 1)
        assert quiet.outbox.get_nowait() is CLOSE and quiet not in route.keys and key_quiet not in site.local
        assert answered in route.keys and answered.outbox.empty()  # nothing of it waits for an answer
        assert site.bus.sent[-1] == ("owner", {"op": "leave", "t": "t1", "c": key_quiet})
        route.submit(Act(answered, "1O", 7))  # a command waits again: its clock starts now
        assert site.bus.sent[-1][1]["op"] == "act" and route.asked[key_answered] >= start

    asyncio.run(run())


def test_a_process_started_while_redis_is_down_serves_and_joins_when_it_answers(pg_url: str, redis_url: str,
                                                                                 tmp_path: Path) -> None:
    """Redis down at start (its proxy cut): the process says so in one line, serves its own tables (``/healthz``
    200, ``"redis": false``), and joins the cluster once Redis answers (``"redis": true``), without a restart."""
    from faultproxy import FaultProxy

    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    with FaultProxy(port) as proxy:
        proxy.cut()
        server = loadtest.Server(pg_url, loadtest.free_port(), tmp_path / "server.log",
                                 redis=f"redis://127.0.0.1:{proxy.port}/0")
        server.start()
        try:
            asyncio.run(asyncio.wait_for(server.ready(), 60))
            log = server.log_path.read_text()
            assert log.count(f"brisca: Redis at redis://127.0.0.1:{proxy.port}/0 does not answer") == 1, log
            assert "Traceback" not in log and "serving on" in log
            health = _get(server.base, "/healthz")
            assert health["ok"] is True and health["redis"] is False
            made = _post(server.base, "/api/tables", {"bots": {"1": "easy"}})
            assert _get(server.base, f"/api/tables/{made['table_id']}")["status"] in ("waiting", "playing")
            proxy.restore()
            end = time.monotonic() + 30
            while not _get(server.base, "/healthz")["redis"]:
                assert time.monotonic() < end, "the process did not join when Redis answered"
                time.sleep(0.2)
            assert "Redis answers again" in server.log_path.read_text()
        finally:
            server.stop()


def test_a_page_that_comes_back_while_the_bus_is_down_is_held_not_refused_again() -> None:
    """The bus down, a page's hello through a process that cannot forward it: refused and closed the first time (a
    balancer that spreads the pages sends it elsewhere), held open when it comes back (a sticky balancer), each time
    longer, and closed when the bus is up again; its pings are answered, its moves told ``unavailable``."""
    from brisca.server import cluster
    from brisca.server.table import CLOSE, Act, Connection, Hello, Ping

    class FakeBus:
        up = False

    class FakeCluster:
        def __init__(self) -> None:
            self.bus, self.local, self.held, self.refused = FakeBus(), {}, {}, {}

        let_held_go = cluster.ClusterManager.let_held_go

    def drained(conn: Connection) -> list[Any]:
        out = []
        while not conn.outbox.empty():
            out.append(conn.outbox.get_nowait())
        return out

    async def run() -> None:
        site = FakeCluster()
        route = cluster.RemoteTable(site, "t1", "owner")  # type: ignore[arg-type]
        first, again = Connection(), Connection()
        route.submit(Hello(first, "token-a", None))
        told = drained(first)
        assert told[0]["code"] == "unavailable" and told[-1] is CLOSE and first not in site.held
        route.submit(Hello(again, "token-a", 4))
        told = drained(again)
        assert [m["code"] for m in told] == ["unavailable"] and site.held == {again: route}
        route.submit(Ping(again, 1))
        route.submit(Act(again, "1O", 2))
        told = drained(again)
        assert [m.get("type") for m in told] == ["pong", "error"] and told[1]["id"] == 2
        assert site.refused == {("t1", "token-a"): 2}
        site.let_held_go(again)  # type: ignore[arg-type]  # its time is up: closed, its page comes back later
        assert drained(again) == [CLOSE] and not site.held

    asyncio.run(run())


def test_the_migration_builds_exactly_the_models_on_postgresql() -> None:
    """Every migration, the move clock's too, on PostgreSQL (a schema of its own, dropped after)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from brisca.server.db import Base
    from brisca.server.store import Store

    for url in _schema_url():
        store = Store(url)
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        store.dispose()


def test_a_table_is_read_in_one_snapshot_whatever_commits_meanwhile() -> None:
    """A move committed between two of the load's statements (a write left running through a stall lands just then)
    is wholly in the table read or wholly out of it: the version read and the actions read agree."""
    import sqlalchemy as sa

    from brisca.server.store import SeatInfo, Store, TableState

    for url in _schema_url():
        store = Store(url)
        try:
            store.create_table(TableState("snap1", "spanish", {}, 2, 1, 0.0, "playing", 0,
                                          [SeatInfo(0), SeatInfo(1)]))
            landed: list[int] = []

            def between(conn: Any, cursor: Any, statement: str, *_: Any, landed: list[int] = landed,
                        store: Store = store) -> None:
                if "FROM brisca_actions" in statement and not landed:
                    landed.append(1)  # before the write, whose statements come here too
                    store.write_action("snap1", 0, 0, 0, {"play": "1O"}, 1)

            sa.event.listen(store.engine, "before_cursor_execute", between)
            try:
                state = store.load("snap1")
            finally:
                sa.event.remove(store.engine, "before_cursor_execute", between)
            assert landed, "the move was not committed in the middle of the load"
            assert state is not None and (state.version, state.actions) == (0, [])
            again = store.load("snap1")
            assert again is not None and (again.version, again.actions) == (1, [(0, 0, {"play": "1O"})])
        finally:
            store.dispose()


def test_a_slow_table_asleep_is_nobodys_orphan_until_its_deadline() -> None:
    """A slow table let go (asleep) has no lease: the processes of a site leave it be until its deadline, then one
    takes it over (its clock ran out); any other open table without a lease is taken at once."""
    import sqlalchemy as sa

    from brisca.server.clock import Clock
    from brisca.server.cluster import Leases
    from brisca.server.store import SeatInfo, Store, TableState

    for url in _schema_url():
        store = Store(url)
        leases = Leases(store.engine, "node-a", 30.0)

        def table(table_id: str, clock: Clock, status: str, due: float | None, store: Store = store) -> None:
            store.create_table(TableState(table_id, "spanish", {}, 2, 1, 0.0, "waiting", 0,
                                          [SeatInfo(0), SeatInfo(1)], clock=clock))
            with store.engine.begin() as c:
                c.execute(sa.text("UPDATE brisca_tables SET status = :s, clock_deadline = :d WHERE id = :t"),
                          {"s": status, "d": due, "t": table_id})

        now = time.time()
        days, live = Clock(86400, 0), Clock(15, 60)
        table("slowwaiting", days, "waiting", None)
        table("slowasleep", days, "playing", now + 3600)
        table("slowdue", days, "playing", now - 60)
        table("livetable", live, "playing", now + 3600)
        assert set(leases.take_orphans([])) == {"slowdue", "livetable"}
        assert set(store.awake_table_ids(now)) == {"slowdue", "livetable"}
        assert store.due_slow(now) == ["slowdue"]
        store.dispose()
