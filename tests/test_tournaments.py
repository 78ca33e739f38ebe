"""A tournament's pairings and standings (brisca.server.tournaments), without a server: nobody twice in a round,
a round robin meets everyone, Swiss avoids repeated meetings where it can, partners change, bots fill the last
table, and the tie-breaks order the standings."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brisca.server.tournaments import (
    BOT_SCORE,
    Layout,
    Pairing,
    Result,
    circle,
    met_pairs,
    partner_pairs,
    plan,
    round_robin,
    standings,
    swiss_round,
)

LAYOUTS = [Layout(2, 2), Layout(3, 3), Layout(4, 2), Layout(4, 4), Layout(6, 2)]


def _check_round(tables: list[Pairing], entrants: int, layout: Layout) -> None:
    """Every entrant once, tables of the layout's size, bots only at the last table and only where the entrants
    do not fill the tables."""
    seated = [e for t in tables for e in t.people]
    assert sorted(seated) == list(range(entrants))
    assert all(len(t.seats) == layout.players for t in tables)
    assert len(tables) == layout.tables(entrants)
    assert all(None not in t.seats for t in tables[:-1])
    assert tables[-1].seats.count(None) == len(tables) * layout.players - entrants


def _play(tables: list[Pairing], layout: Layout, rng: random.Random) -> list[Result]:
    out = []
    for t in tables:
        winner = rng.choice([*range(layout.sides), None])
        out.append(Result(t.seats, winner, True, tuple(rng.randrange(121) for _ in range(layout.sides))))
    return out


class TestCircle:
    @given(st.integers(2, 16))
    def test_each_meets_each_exactly_once(self, n: int) -> None:
        rounds = circle(n)
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        for tables in rounds:
            _check_round(tables, n, Layout(2, 2))
        met = met_pairs(t for r in rounds for t in r)
        assert set(met) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
        assert set(met.values()) == {1}

    def test_an_odd_number_gives_each_a_bot_once(self) -> None:
        bots = Counter(e for r in circle(5) for t in r if None in t.seats for e in t.people)
        assert bots == Counter({e: 1 for e in range(5)})

    def test_seats_alternate(self) -> None:
        first = Counter(t.seats[0] for r in circle(6) for t in r)
        assert max(first.values()) - min(first.values()) <= 2


class TestRoundRobin:
    @settings(max_examples=60, deadline=None)
    @given(st.sampled_from(LAYOUTS), st.integers(2, 13))
    def test_everyone_meets_everyone_and_nobody_sits_twice_in_a_round(self, layout: Layout, n: int) -> None:
        schedule = round_robin(n, layout, 40)
        assert schedule is not None
        for tables in schedule:
            _check_round(tables, n, layout)
        met = met_pairs(t for r in schedule for t in r)
        assert set(met) == {frozenset(p) for p in itertools.combinations(range(n), 2)}
        assert len(schedule) <= max(n - 1 + n % 2, 1)

    def test_too_few_rounds_is_none_and_plans_swiss(self) -> None:
        assert round_robin(8, Layout(2, 2), 6) is None
        assert plan(8, 6, Layout(2, 2)) == ("swiss", None)
        system, schedule = plan(8, 7, Layout(2, 2))
        assert system == "round_robin" and schedule is not None and len(schedule) == 7

    def test_tables_of_four_take_fewer_rounds(self) -> None:
        schedule = round_robin(8, Layout(4, 2), 10)
        assert schedule is not None and len(schedule) <= 4

    def test_partners_change(self) -> None:
        layout = Layout(4, 2)
        schedule = round_robin(8, layout, 10)
        assert schedule is not None
        partners = partner_pairs((t for r in schedule for t in r), layout)
        assert max(partners.values()) == 1


class TestSwiss:
    @settings(max_examples=80, deadline=None)
    @given(st.sampled_from(LAYOUTS), st.integers(2, 14), st.integers(1, 5), st.randoms(use_true_random=False))
    def test_nobody_twice_in_a_round(self, layout: Layout, n: int, rounds: int, rng: random.Random) -> None:
        results: list[Result] = []
        for _ in range(rounds):
            tables = swiss_round(n, results, layout)
            _check_round(tables, n, layout)
            results += _play(tables, layout, rng)

    @settings(max_examples=80, deadline=None)
    @given(st.integers(2, 10), st.integers(1, 6), st.randoms(use_true_random=False))
    def test_no_repeat_where_a_round_without_one_exists(self, n: int, rounds: int, rng: random.Random) -> None:
        layout = Layout(2, 2)
        results: list[Result] = []
        for _ in range(rounds):
            tables = swiss_round(n, results, layout)
            met = met_pairs(results)
            repeats = sum(met[frozenset(t.people)] > 0 for t in tables if len(t.people) == 2)
            if repeats:
                assert not _repeat_free_round_exists(n, met)
            results += _play(tables, layout, rng)

    @pytest.mark.parametrize("seed", range(3))
    def test_a_large_field_meets_nobody_twice_in_its_first_rounds(self, seed: int) -> None:
        """64 entrants at tables of 4: five rounds (each meets 15 of 63) without a repeated meeting, the search
        bounded (SEARCH_BUDGET steps a round)."""
        layout, rng = Layout(4, 2), random.Random(seed)
        results: list[Result] = []
        for _ in range(5):
            tables = swiss_round(64, results, layout)
            _check_round(tables, 64, layout)
            assert not any(met_pairs(results)[frozenset(p)] for t in tables
                           for p in itertools.combinations(t.people, 2))
            results += _play(tables, layout, rng)

    def test_the_first_round_is_top_half_against_bottom_half(self) -> None:
        assert [t.seats for t in swiss_round(8, [], Layout(2, 2))] == [(0, 4), (1, 5), (2, 6), (3, 7)]
        # At tables of 4, one of each quarter, the first and the last of them partners.
        tables = swiss_round(8, [], Layout(4, 2))
        assert [sorted(t.people) for t in tables] == [[0, 2, 4, 6], [1, 3, 5, 7]]
        assert tables[0].seats[0::2] == (0, 6) and tables[0].seats[1::2] == (2, 4)

    def test_equal_scores_meet(self) -> None:
        layout = Layout(2, 2)
        first = swiss_round(4, [], layout)
        results = [Result(first[0].seats, 0), Result(first[1].seats, 0)]
        winners = {first[0].seats[0], first[1].seats[0]}
        second = swiss_round(4, results, layout)
        assert {frozenset(t.people) for t in second} == {frozenset(winners),
                                                          frozenset(set(range(4)) - winners)}

    def test_the_bot_goes_to_the_lowest_placed_who_had_none(self) -> None:
        layout = Layout(2, 2)
        first = swiss_round(3, [], layout)
        assert first[-1].seats.count(None) == 1
        had_bot = first[-1].people[0]
        pair = first[0]
        results = [Result(pair.seats, 0), Result(first[-1].seats, 0)]  # the bot table's person won too
        second = swiss_round(3, results, layout)
        assert had_bot not in second[-1].people
        assert second[-1].people == (pair.seats[1],)  # the loser: lowest placed, no bot yet


def _repeat_free_round_exists(n: int, met: Counter[frozenset[int]]) -> bool:
    """Brute force: a round of tables of 2 (one person with a bot when ``n`` is odd) where nobody meets again."""

    def pairs(left: list[int]) -> bool:
        if len(left) <= 1:
            return True
        first = left[0]
        return any(not met[frozenset((first, b))] and pairs([e for e in left[1:] if e != b]) for b in left[1:])

    if n % 2 == 0:
        return pairs(list(range(n)))
    return any(pairs([e for e in range(n) if e != alone]) for alone in range(n))


class TestStandings:
    def test_swiss_tie_breaks(self) -> None:
        layout = Layout(2, 2)
        # Round 1: 0 beats 1, 2 beats 3. Round 2: 0 beats 2, 1 beats 3. 0: 2; 1: 1; 2: 1; 3: 0.
        results = [Result((0, 1), 0, points=(70, 50)), Result((2, 3), 0, points=(61, 59)),
                   Result((0, 2), 0, points=(80, 40)), Result((1, 3), 0, points=(90, 30))]
        table = standings(4, results, layout, "swiss")
        assert [s.entrant for s in table] == [0, 1, 2, 3]
        by = {s.entrant: s for s in table}
        # Buchholz: 1 met 0 (2) and 3 (0): 2; 2 met 3 (0) and 0 (2): 2. Sonneborn-Berger: 1 beat 3 (0): 0;
        # 2 beat 3 (0): 0. Points taken: 1 took 50 + 90, 2 took 61 + 40: 1 is ahead.
        assert by[1].tiebreaks["buchholz"] == by[2].tiebreaks["buchholz"] == 2
        assert by[1].tiebreaks["sonneborn_berger"] == by[2].tiebreaks["sonneborn_berger"] == 0
        assert (by[1].rank, by[2].rank) == (2, 3)
        assert by[1].tiebreaks["points"] == 140 and by[2].tiebreaks["points"] == 101

    def test_round_robin_head_to_head_then_points(self) -> None:
        layout = Layout(2, 2)
        # 0 beats 1 and 2, loses to 3; 1 beats 2 and 3; 2 beats 3. Scores 2, 2, 1, 1: 0 beat 1 and 2 beat 3 (head
        # to head), though 1 and 3 took more card points.
        results = [Result((0, 1), 0, points=(61, 59)), Result((0, 2), 0, points=(61, 59)),
                   Result((3, 0), 0, points=(61, 59)), Result((1, 2), 0, points=(110, 10)),
                   Result((1, 3), 0, points=(110, 10)), Result((2, 3), 0, points=(61, 59))]
        table = standings(4, results, layout, "round_robin")
        assert [s.entrant for s in table] == [0, 1, 2, 3]
        assert [s.tiebreaks["head_to_head"] for s in table] == [1, 0, 1, 0]
        # A tie head to head (each beat the other once, or a triangle) goes to the card points.
        triangle = [Result((0, 1), 0, points=(61, 59)), Result((1, 2), 0, points=(100, 20)),
                    Result((2, 0), 0, points=(70, 50))]
        table = standings(3, triangle, layout, "round_robin")
        assert [s.score for s in table] == [1, 1, 1]
        assert [s.entrant for s in table] == [1, 0, 2]  # card points 159, 111, 90

    def test_a_level_match_is_half_and_a_closed_table_nothing(self) -> None:
        layout = Layout(2, 2)
        table = standings(4, [Result((0, 1), None), Result((2, 3), None, finished=False)], layout, "swiss")
        by = {s.entrant: s.score for s in table}
        assert by == {0: 0.5, 1: 0.5, 2: 0.0, 3: 0.0}

    def test_partners_score_their_side_and_a_bot_has_no_standing(self) -> None:
        layout = Layout(4, 2)
        table = standings(3, [Result((0, 1, 2, None), 1)], layout, "swiss")
        by = {s.entrant: s for s in table}
        assert {e: s.score for e, s in by.items()} == {0: 0.0, 1: 1.0, 2: 0.0}
        # 1's opponents: 0 (0 points) and 2 (0); 0's: 1 (1) and the bot (BOT_SCORE a round).
        assert by[1].tiebreaks["buchholz"] == 0
        assert by[0].tiebreaks["buchholz"] == pytest.approx((1 + BOT_SCORE) / 2, abs=1e-3)

    def test_equal_in_everything_share_a_rank(self) -> None:
        table = standings(2, [Result((0, 1), None)], Layout(2, 2), "swiss")
        assert [s.rank for s in table] == [1, 1]
