"""The arena: duplicate deals, intervals, ratings, processes, the command line."""

from __future__ import annotations

import contextlib
import json
import math
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from brisca.arena import ArenaResult, DealResult, bradley_terry, format_table, play_deal, run_arena, wilson
from brisca.errors import BriscaError
from brisca.rules import find_variant


def test_wilson_interval() -> None:
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(1.0, 10)[1] == 1.0 and wilson(0.0, 10)[0] == 0.0
    assert wilson(0.5, 0) == (0.0, 1.0)


def test_bradley_terry_orders_agents() -> None:
    deals = [DealResult(("a", "b"), d, [1.0, 1.0, 1.0, 0.0]) for d in range(20)]
    deals += [DealResult(("b", "c"), d, [1.0, 0.0, 1.0, 1.0]) for d in range(20)]
    r = bradley_terry(["a", "b", "c"], deals)
    assert r["a"] > r["b"] > r["c"]
    assert abs(sum(r.values())) < 1e-6


def test_a_deal_is_played_in_both_seatings() -> None:
    result = play_deal(("greedy", "greedy"), 5, "spanish", 2, {}, 1, None)
    # The same player on both sides of the same deal: the two seatings mirror each other.
    assert len(result.scores) == 2
    assert result.scores[0] + result.scores[1] == pytest.approx(1.0)


def test_partnership_seatings_give_each_agent_a_side() -> None:
    result = play_deal(("greedy", "random"), 2, "spanish", 4, {}, 1, None)
    assert len(result.scores) == 2
    assert set(result.moves) == {"greedy", "random"}
    assert result.moves["greedy"] == result.moves["random"] == 40


def test_runs_are_reproducible_and_processes_agree() -> None:
    one = run_arena(["greedy", "random"], games=6, seed=2, jobs=1)
    two = run_arena(["greedy", "random"], games=6, seed=2, jobs=2)
    assert [d.scores for d in one.deals] == [d.scores for d in two.deals]
    assert one.games == 12


def test_greedy_beats_random_as_a_sanity_check() -> None:
    result = run_arena(["greedy", "random"], games=200, seed=1)
    row = result.pair_table()[0]
    assert row["a"] == "greedy" and 0.72 <= row["score"] <= 0.86, row


def test_three_agents_get_ratings() -> None:
    result = run_arena(["greedy", "random", "heuristic"], games=20, seed=4)
    data = result.to_json()
    assert set(data["elo"]) == {"greedy", "random", "heuristic"}
    for r in data["elo"].values():
        assert r["low"] <= r["elo"] <= r["high"]


def test_the_elo_table_keeps_its_columns_with_long_names() -> None:
    names = ["heuristic[policy=learned]", "random", "greedy"]
    text = format_table(run_arena(names, games=4, seed=4))
    rows = text.split("Elo (Bradley-Terry, 95% bootstrap):\n")[1].splitlines()[:3]
    assert sorted(row.split()[0] for row in rows) == sorted(names)
    assert len({row.index("(") for row in rows}) == 1  # the intervals start in one column
    assert len({len(row.split("(")[0]) for row in rows}) == 1


class _Illegal:
    """A bot that claims the rest of the hand, which these rules do not let anyone do."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, view: object) -> object:
        from brisca.actions import Claim

        return Claim()


def test_an_illegal_move_names_the_bot_that_made_it(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from brisca.arena import AgentMoveError

    with pytest.raises(AgentMoveError, match=r"^agent 'test_arena:_Illegal' at seat \d played claim, which these rules"
                                             r" refuse \(deal 0, seed 0\): "):
        run_arena(["test_arena:_Illegal", "random"], games=1)
    (tmp_path / "mybots.py").write_text("from test_arena import _Illegal as Bad\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(__file__).parent)])}
    out = subprocess.run([sys.executable, "-m", "brisca", "arena", "mybots:Bad", "random", "--games", "1"],
                         capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "agent 'mybots:Bad' at seat" in out.stderr


def test_command_line_json_and_errors() -> None:
    out = subprocess.run([sys.executable, "-m", "brisca", "arena", "greedy", "random", "--games", "5", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"] == 10 and data["pairs"][0]["games"] == 10
    bad = subprocess.run([sys.executable, "-m", "brisca", "arena", "greedy", "nosuch"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(("variant", "players"), [("rematada", 3), ("chiamata", 5)])
def test_contract_games_score_by_match_points(variant: str, players: int) -> None:
    """No side wins a contract hand: a seating goes to the agent whose seats took more match points."""
    for deal in range(3):
        result = play_deal(("heuristic", "random"), deal, variant, players, {}, 1, None)
        assert len(result.scores) == len(result.points) == 2 * players  # agent 0 alone at each seat, then agent 1
        for score, (mine, theirs) in zip(result.scores, result.points, strict=True):
            assert score == (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    arena = run_arena(["heuristic", "random"], variant, players, games=8, seed=3)
    points = arena.match_points()
    assert set(points) == {"heuristic", "random"} and points["heuristic"] > points["random"]
    assert arena.pair_table()[0]["score"] > 0.6
    assert arena.to_json()["match_points"] == points


def test_partnership_dealt_out_game_scores_by_winning_side() -> None:
    result = play_deal(("heuristic", "random"), 1, "chilean", 4, {}, 1, None)
    assert len(result.scores) == 2 and result.points == []
    assert run_arena(["greedy", "random"], "chilean", 4, games=2, seed=1).match_points() == {}


def test_paired_differences_are_taken_deal_by_deal() -> None:
    # "new" beats x on deals 0 and 1 and loses deal 2; "old" (seated second in its pair) wins only deal 0.
    deals = [DealResult(("new", "x"), 0, [1.0, 1.0]), DealResult(("new", "x"), 1, [1.0, 0.0]),
             DealResult(("new", "x"), 2, [0.0, 0.0]),
             DealResult(("x", "old"), 0, [0.0, 0.0]), DealResult(("x", "old"), 1, [1.0, 1.0]),
             DealResult(("x", "old"), 2, [1.0, 1.0]), DealResult(("x", "old"), 3, [0.0, 0.0])]
    result = ArenaResult(["new", "old", "x"], "spanish", 2, deals, 1.0)
    (row,) = [r for r in result.paired() if r["opponent"] == "x"]
    assert (row["a"], row["b"], row["deals"]) == ("new", "old", 3)  # deal 3 only "old" played: left out
    diffs = [0.0, 0.5, 0.0]  # per deal: new's mean score minus old's
    assert row["difference"] == pytest.approx(sum(diffs) / 3)
    sd = math.sqrt(sum((d - 1 / 6) ** 2 for d in diffs) / 2)
    assert row["high"] - row["difference"] == pytest.approx(1.96 * sd / math.sqrt(3))
    assert row["difference"] - row["low"] == pytest.approx(row["high"] - row["difference"])


def test_paired_rows_of_a_real_run_match_the_scores_and_the_report() -> None:
    result = run_arena(["heuristic", "greedy", "random"], games=30, seed=5)
    table = {(r["a"], r["b"]): r["score"] for r in result.pair_table()}
    rows = {(r["a"], r["b"], r["opponent"]): r for r in result.paired()}
    assert set(rows) == {("heuristic", "greedy", "random"), ("heuristic", "random", "greedy"),
                         ("greedy", "random", "heuristic")}
    row = rows[("heuristic", "greedy", "random")]
    # Every pair played the same 30 deals, so the mean of the differences is the difference of the scores.
    assert row["deals"] == 30
    assert row["difference"] == pytest.approx(table[("heuristic", "random")] - table[("greedy", "random")])
    assert row["low"] < row["difference"] < row["high"]
    assert result.to_json()["paired"] == result.paired()
    assert "score of heuristic - score of greedy, against random: " in format_table(result)


def test_one_deal_gives_no_paired_row() -> None:
    result = run_arena(["heuristic", "greedy", "random"], games=1, seed=5)
    assert result.paired() == []
    json.dumps(result.to_json(), allow_nan=False)  # every number in the report is a JSON number


def test_a_gauntlet_plays_each_agent_against_the_opponent_only() -> None:
    result = run_arena(["heuristic", "greedy"], games=6, seed=5, versus="random")
    assert result.agents == ["heuristic", "greedy", "random"]
    assert {d.pair for d in result.deals} == {("heuristic", "random"), ("greedy", "random")}
    # The same deals as the round robin's games against random: the same scores, deal by deal.
    robin = run_arena(["heuristic", "greedy", "random"], games=6, seed=5)
    ours = {(d.pair, d.deal): d.scores for d in result.deals}
    assert ours == {(d.pair, d.deal): d.scores for d in robin.deals if d.pair[1] == "random"}
    (row,) = result.paired()
    assert (row["a"], row["b"], row["opponent"], row["deals"]) == ("heuristic", "greedy", "random", 6)


def test_a_gauntlet_opponent_cannot_be_one_of_the_agents() -> None:
    with pytest.raises(BriscaError, match="cannot also be one of the agents"):
        run_arena(["greedy", "random"], games=1, versus="random")


def test_the_cli_runs_a_gauntlet() -> None:
    out = subprocess.run([sys.executable, "-m", "brisca", "arena", "heuristic", "greedy", "--versus", "random",
                          "--games", "3"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "score of heuristic against random: " in out.stdout
    assert "score of greedy against random: " in out.stdout
    assert "heuristic against greedy" not in out.stdout
    assert "score of heuristic - score of greedy, against random: " in out.stdout
    one = subprocess.run([sys.executable, "-m", "brisca", "arena", "greedy", "--versus", "random", "--games", "2"],
                         capture_output=True, text=True, timeout=120)
    assert one.returncode == 0 and "score of greedy against random: " in one.stdout
    bad = subprocess.run([sys.executable, "-m", "brisca", "arena", "greedy", "--versus", "greedy"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.count("\n") == 1 and "cannot also be one of the agents" in bad.stderr


def test_a_game_points_match_is_scored_in_game_points() -> None:
    """Rematada's preset counts game points (one to the declarer who makes the bid, one to each opponent when
    it is set): the arena compares those, not the bid's points, and says so in its report."""
    assert find_variant("rematada").match == "game_points"
    for deal in range(3):
        result = play_deal(("heuristic", "random"), deal, "rematada", 3, {}, 1, None)
        assert all(0 <= p <= 1 for pair in result.points for p in pair)
        assert any(p > 0 for pair in result.points for p in pair)
        by_points = play_deal(("heuristic", "random"), deal, "rematada", 3, {"match": "target_points"}, 1, None)
        assert all(p == 0 or p >= 25 for pair in by_points.points for p in pair)  # half a bid of 100 or more
        assert any(p > 1 for pair in by_points.points for p in pair)
    arena = run_arena(["heuristic", "random"], "rematada", 3, games=2, seed=3)
    assert arena.unit == "game points" and "game points per seat and hand" in format_table(arena)
    assert run_arena(["heuristic", "random"], "chiamata", 5, games=1, seed=3).unit == "match points"


def test_an_unreachable_ray_address_is_one_line_at_once() -> None:
    """``ray.init`` waits minutes for an address that never answers: the address is tried first, briefly."""
    from brisca.arena import check_ray_address

    t0 = time.monotonic()
    with pytest.raises(BriscaError, match=r"cannot reach the Ray cluster at '127.0.0.1:1' within 2 s"):
        check_ray_address("127.0.0.1:1", timeout=2)
    assert time.monotonic() - t0 < 10  # a refused connection is at once; ray.init alone waits minutes
    with pytest.raises(BriscaError, match="an address is host:port"):
        check_ray_address("nowhere")
    check_ray_address("auto")  # found by Ray itself, on this machine


def _listener(answer: bytes | None) -> tuple[socket.socket, threading.Thread]:
    """A server on 127.0.0.1 that takes one connection and reads it: then says ``answer`` or nothing."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(10)

    def run() -> None:
        with contextlib.suppress(OSError):
            conn, _ = server.accept()
            with conn:
                conn.settimeout(5)
                conn.recv(64)
                if answer is not None:
                    conn.sendall(answer)
                else:
                    time.sleep(3)  # silent, longer than the check waits

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return server, thread


def test_a_silent_ray_address_is_one_line_within_the_timeout() -> None:
    """An address that accepts connections and never answers (ray.init would wait 32 s): refused in time; one
    that answers HTTP/2's settings, as Ray's gRPC servers do, passes."""
    from brisca.arena import check_ray_address

    server, thread = _listener(None)
    with server:
        port = server.getsockname()[1]
        t0 = time.monotonic()
        with pytest.raises(BriscaError, match=rf"'127.0.0.1:{port}' accepted a connection but did not answer "
                                              r"within 1 s"):
            check_ray_address(f"127.0.0.1:{port}", timeout=1)
        assert time.monotonic() - t0 < 15  # (ray.init would wait 32 s; a busy machine is slow, not that slow)
    thread.join(5)
    settings = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
    server, thread = _listener(settings)
    with server:
        check_ray_address(f"127.0.0.1:{server.getsockname()[1]}", timeout=5)
    thread.join(5)
