"""Move-by-move analysis of a game record: what each seat could have known, and what it could not.

For every decision of every seat the position is rebuilt from the record and the seat's view alone
(:meth:`~brisca.game.Game.view`: never another seat's hidden cards) is handed to the expert's search
(:meth:`brisca.agents.search.ExpertAgent.appraise`), which values every legal move over the same worlds:
the hand's **win chance** (a drawn hand counts half) and the expected **point margin** (the seat's side's
points over the best other side's; under a contract, the declarer's side's points over the contract, for the
side of the seat), each with its standard error over the worlds. The move taken is compared with the best one,
by the expert's own yardstick (:attr:`Option.score`: the win chance plus :data:`POINT` a point of margin), and
the **loss** is the difference, measured world by world (the luck of a world cancels):

* a **mistake** loses at least :data:`MISTAKE` (a tenth of a win, or ten points of margin in a decided hand),
* a **blunder** at least :data:`BLUNDER`,

in both cases only where the loss is more than :data:`NOISE` standard errors (a loss the worlds cannot tell
from chance marks nothing).

A second reading, **with the cards face up**, values the same moves in the real deal, every hand and the
stock's order known, exactly (alpha-beta, :func:`~brisca.agents.exact.solve`), where the solver reaches: the last
:data:`FACE_UP_KERNEL_CARDS` cards of a hand with the compiled solver, else the last :data:`FACE_UP_CARDS`; before
that there is none. It says what the seat could not have known; it is never mixed into the seat's own reading.

The search draws :data:`WORLDS` worlds a decision, seeded from ``seed``, the hand and the move: the analysis
is the same for the same seed wherever it runs, unless ``think`` seconds (a ceiling per decision) run out
first, which the decision then says (:attr:`Move.cut`). A bid of a point auction is weighed against passing and
the lowest bid over :data:`BID_WORLDS` deals played out by the heuristic player (as ``expert[bid=sim]`` weighs
its bids), and so are the auction's other choices (the cut, a vale, the discard, the trump, the call: each one
where they are few, else a shortlist of the rules' own choice in every suit and the one taken) and a blind
call's first trick; these have no face-up reading. A forced move and a claim are listed without values.

    >>> from brisca import Game
    >>> from brisca.record import Record
    >>> game = Game("spanish", 2, seed=4)
    >>> while not game.is_over():
    ...     game.apply(game.legal_actions()[0])
    >>> report = analyse(Record.from_game(game), worlds=16)
    >>> len(report.moves) == len(game.history)
    True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from brisca.actions import Action, Arrastro, Exchange, Play
from brisca.agents.exact import outcome, solve, team_of
from brisca.agents.search import SOLVE_WEIGHT, Appraisal, ExpertAgent
from brisca.arena import run_tasks
from brisca.cards import LANGS, Lang
from brisca.errors import BriscaError
from brisca.game import Game, View
from brisca.i18n import Messages
from brisca.record import MatchRecord, Record
from brisca.rulebook import title_in
from brisca.rules import make_rules, variant_names

#: Worlds searched a decision (the expert's ``sims``): a fixed number, so that a seed gives one analysis.
WORLDS = 200
#: Seconds a decision at most (the default ``think``): fewer worlds once it runs out.
THINK = 1.0
#: Deals a bid is weighed over, at most (each played out by the heuristic player: slower than a rollout).
BID_WORLDS = 16
#: The value of a point of margin against a whole win: the expert's own (``ExpertAgent.weight``).
POINT = 0.01
#: A move losing this much (win chance plus :data:`POINT` a point of margin) against the best is a mistake ...
MISTAKE = 0.10
#: ... and this much a blunder.
BLUNDER = 0.25
#: A loss marks a move only when it is more than this many standard errors.
NOISE = 2.0
#: The face-up reading (solved exactly) is made when at most this many cards are left in the hands and the stock ...
FACE_UP_CARDS = 12
#: ... or this many with the compiled solver (``fast``) and two players, which it solves through a table of
#: positions, and :data:`FACE_UP_KERNEL_CARDS_MORE` with more (each card more about doubles its work:
#: docs/analysis.md).
FACE_UP_KERNEL_CARDS = 20
FACE_UP_KERNEL_CARDS_MORE = 16
#: The readings made over sampled worlds (each value has a standard error); the others are exact.
SAMPLED = ("sampled", "bidding", "weighed")
#: The point weight the search values with: a power of two, so that a value splits exactly into its result
#: (1, 1/2 or 0) and its margin (any margin below 256 points).
_WEIGHT = 2.0 ** -10


class AnalysisError(BriscaError):
    """A record that cannot be analysed, or settings out of range."""


@dataclass(frozen=True)
class Option:
    """One legal move and what it is worth to the seat: win chance and point margin, with standard errors."""

    action: Action
    win: float
    margin: float
    win_se: float = 0.0
    margin_se: float = 0.0

    @property
    def score(self) -> float:
        """The expert's yardstick: win chance plus :data:`POINT` a point of margin."""
        return self.win + POINT * self.margin

    def to_json(self) -> dict[str, Any]:
        """The option as JSON-ready data (rounded): ``action`` in the record's notation, ``act`` as the table's
        messages give an action (``{"exchange": "2C"}``), ``words`` the move in each language as the terminal
        says it (:func:`move_words`), so that the web page and the terminal name the cards alike."""
        return {"action": str(self.action), "act": self.action.to_json(), "words": _words(self.action),
                "win": round(self.win, 4),
                "win_se": round(self.win_se, 4),
                "margin": round(self.margin, 2), "margin_se": round(self.margin_se, 2)}


@dataclass(frozen=True)
class Reading:
    """The values of a decision's legal moves, from one point of view, and how they were found."""

    options: tuple[Option, ...]
    #: ``exact``, ``every world`` or ``sampled`` (:class:`~brisca.agents.search.Appraisal`), ``bidding``, ``weighed``.
    method: str
    worlds: int
    #: Per world, the score (win plus POINT a point) of every option: what the paired loss is measured on.
    scores: tuple[tuple[float, ...], ...] = field(default=(), repr=False, compare=False)

    def option(self, action: Action) -> Option | None:
        """The option of ``action`` (``None`` if it is not one of the legal moves read)."""
        return next((o for o in self.options if o.action == action), None)

    @property
    def best(self) -> Option:
        """The option worth most (the first of equals, in the order of the legal moves)."""
        return max(self.options, key=lambda o: o.score)

    def loss(self, action: Action) -> tuple[float, float]:
        """How much less ``action`` is worth than the best, and the standard error of that, world by world."""
        best = self.options.index(self.best)
        taken = next(i for i, o in enumerate(self.options) if o.action == action)
        mean, se = _mean_se([row[best] - row[taken] for row in self.scores])
        return mean, se if self.method in SAMPLED else 0.0

    def to_json(self) -> dict[str, Any]:
        """The reading as JSON-ready data: how it was found, the best move, every option."""
        return {"method": self.method, "worlds": self.worlds, "best": str(self.best.action),
                "options": [o.to_json() for o in self.options]}


@dataclass(frozen=True)
class Move:
    """One action of a hand, and its analysis where the expert searches the decision."""

    hand: int
    #: The action's place in the hand (0: the first).
    index: int
    seat: int
    #: The seat's side once the hand is over (under a contract: 0 the declarer's, 1 the defenders').
    side: int
    action: Action
    #: The seat's own reading (from its view only); ``None`` where the decision is not searched.
    reading: Reading | None = None
    #: The exact reading with the cards face up; ``None`` where the solver does not reach, or with the seat's.
    face_up: Reading | None = None
    #: Whether ``think`` ran out before every world was searched (the analysis then depends on the clock).
    cut: bool = False

    @property
    def loss(self) -> float:
        """What the move lost against the best, on the seat's own reading (0 where not searched)."""
        return self.reading.loss(self.action)[0] if self.reading is not None else 0.0

    @property
    def mark(self) -> str:
        """``blunder``, ``mistake`` or ``""``: see :data:`MISTAKE`, :data:`BLUNDER` and :data:`NOISE`."""
        if self.reading is None:
            return ""
        loss, se = self.reading.loss(self.action)
        if loss <= NOISE * se:
            return ""
        return "blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE else ""

    def to_json(self) -> dict[str, Any]:
        """The move as JSON-ready data: with its readings, the move's values, loss and mark."""
        out: dict[str, Any] = {"hand": self.hand, "index": self.index, "seat": self.seat, "side": self.side,
                               "action": str(self.action), "act": self.action.to_json(),
                               "words": _words(self.action)}
        if self.reading is not None:
            loss, se = self.reading.loss(self.action)
            taken = self.reading.option(self.action)
            assert taken is not None
            out.update(taken=taken.to_json(), loss=round(loss, 4), loss_se=round(se, 4), mark=self.mark,
                       cut=self.cut, reading=self.reading.to_json())
        if self.face_up is not None:
            out["face_up"] = self.face_up.to_json()
        return out


@dataclass
class Analysis:
    """The analysis of a record: every move of every hand, in order."""

    variant: str
    players: int
    moves: list[Move]
    seed: int
    worlds: int
    think: float

    @property
    def decisions(self) -> list[Move]:
        """The moves the expert searched."""
        return [m for m in self.moves if m.reading is not None]

    def stats(self) -> dict[int, dict[str, float]]:
        """Per seat: decisions, average loss a decision, mistakes and blunders, and those per hand."""
        hands = len({m.hand for m in self.moves}) or 1
        out: dict[int, dict[str, float]] = {}
        for seat in range(self.players):
            mine = [m for m in self.decisions if m.seat == seat]
            marks = [m.mark for m in mine]
            out[seat] = {"decisions": len(mine),
                         "loss": sum(m.loss for m in mine) / len(mine) if mine else 0.0,
                         "mistakes": marks.count("mistake"), "blunders": marks.count("blunder"),
                         "mistakes_per_hand": marks.count("mistake") / hands,
                         "blunders_per_hand": marks.count("blunder") / hands}
        return out

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (``brisca replay --analyse --json``)."""
        return {"variant": self.variant, "players": self.players, "seed": self.seed, "worlds": self.worlds,
                "think": self.think, "thresholds": {"mistake": MISTAKE, "blunder": BLUNDER, "noise": NOISE,
                                                    "point": POINT},
                "moves": [m.to_json() for m in self.moves],
                "stats": {str(k): v for k, v in self.stats().items()}}


def _mean_se(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if not n:
        return 0.0, 0.0
    mean = sum(xs) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(max(0.0, sum((x - mean) ** 2 for x in xs) / (n - 1)) / n)


def _split(value: float, weight: float) -> tuple[float, float]:
    """A :func:`~brisca.agents.exact.margin` value as its result (1, 1/2 or 0) and its margin in points."""
    won = outcome(value)
    return won, round((value - won) / weight)


def _reading(candidates: Sequence[Action], rows: Sequence[Sequence[float]], weight: float, method: str) -> Reading:
    """The options of ``candidates`` from per-world values (rows of :func:`margin` values, ``weight`` a point)."""
    split = [[_split(v, weight) for v in row] for row in rows]
    sampled = method in SAMPLED  # else the mean over every world (or the one) is the exact value
    options = []
    for i, action in enumerate(candidates):
        win, win_se = _mean_se([row[i][0] for row in split])
        lead, lead_se = _mean_se([row[i][1] for row in split])
        options.append(Option(action, win, lead, win_se if sampled else 0.0, lead_se if sampled else 0.0))
    scores = tuple(tuple(w + POINT * m for w, m in row) for row in split)
    return Reading(tuple(options), method, len(rows), scores)


def read_view(view: View, seed: int = 0, worlds: int = WORLDS, think: float = THINK,
              taken: Action | None = None,
              clock: Callable[[], float] = time.perf_counter) -> tuple[Reading, bool] | None:
    """The values of the legal moves for the seat of ``view`` (to act), from that view alone, by the expert's
    search; and whether ``think`` ran out first. ``None`` where the expert weighs nothing (a forced move, a
    claim). A bid is weighed against passing and the lowest bid, the auction's other choices and a blind call's
    first trick each (or on a shortlist), over :data:`BID_WORLDS` deals; ``taken``: the choice played, weighed
    too. ``think`` is read on ``clock`` (``math.inf``: every world, however long it takes)."""
    wanted = min(worlds, BID_WORLDS) if view.phase != "play" or view.call_pending else worlds
    agent = ExpertAgent(seed=seed, sims=wanted, weight=_WEIGHT, net="off", clock=clock)
    appraisal: Appraisal | None = agent.appraise(view, clock() + think, taken)
    if appraisal is None or not appraisal.values:
        return None
    cut = appraisal.method in SAMPLED and len(appraisal.values) < wanted
    return _reading(appraisal.candidates, appraisal.values, appraisal.weight, appraisal.method), cut


def read_face_up(game: Game, candidates: Sequence[Action]) -> Reading | None:
    """The exact values of ``candidates`` for the seat to act in ``game`` with every card known (the hands and the
    stock's order), where the solver reaches: :data:`FACE_UP_KERNEL_CARDS` cards left with the compiled solver
    (:meth:`brisca.agents.kernel.Kernel.solve`, where it covers the rules; :data:`FACE_UP_KERNEL_CARDS_MORE` with
    more than two players), else :data:`FACE_UP_CARDS`;
    ``None`` before that (an estimate there would read as a fact)."""
    seat = game.turn
    assert seat is not None
    left = sum(len(game.hand(s)) for s in range(game.players)) + game.stock_count
    side = team_of(game, seat)
    if left <= (FACE_UP_KERNEL_CARDS if game.players == 2 else FACE_UP_KERNEL_CARDS_MORE):
        from brisca.agents.kernel import kernel_for  # numba loads only where the kernel is used

        fast = kernel_for(game.rules, game.players)
        if fast is not None:
            try:
                values, _nodes = fast.solve([fast.encode(game)], candidates, [side], game, SOLVE_WEIGHT)
            except ValueError:  # a move the kernel does not play (an arrastro): the Python solver, if near enough
                pass
            else:
                return _reading(candidates, [[float(v) for v in values[0]]], SOLVE_WEIGHT, "exact")
    if left > FACE_UP_CARDS:
        return None
    row = []
    for action in candidates:
        child = game.clone()
        child.apply(action)
        row.append(solve(child, side))
    return _reading(candidates, [row], SOLVE_WEIGHT, "exact")


#: One decision to analyse: the hand's record (its deal number set), the hand, the action's index, the seed, the
#: worlds and the seconds.
Task = tuple[Record, int, int, int, int, float]


def analyse_task(task: Task) -> tuple[Reading | None, Reading | None, bool]:
    """The seat's reading, the face-up reading and whether the clock cut the search short, for the action at
    ``index`` of a hand (a worker's job: :func:`brisca.arena.run_tasks`)."""
    record, hand, index, seed, worlds, think = task
    game = record.replay(index, hand=hand)
    seat, action = record.actions[index]
    if game.turn != seat:  # out of turn (an exchange where the rules allow it): no decision of the seat's
        return None, None, False
    found = read_view(game.view(seat), decision_seed(seed, hand, index), worlds, think, action)
    if found is None or found[0].option(action) is None:
        return None, None, False
    reading, cut = found
    if reading.method in ("bidding", "weighed"):  # the auction face up is not searched: no second reading
        return reading, None, cut
    return reading, read_face_up(game, [o.action for o in reading.options]), cut


def _hands(record: Record | MatchRecord) -> tuple[list[Record], list[Game]]:
    """The hands of ``record``, each with its deal number, and each replayed to its end (checking the record)."""
    match = MatchRecord.of(record)
    games = match.replay()
    hands = [Record(h.variant, h.players, h.dealer, h.deck, list(h.actions), dict(h.rules), g.deal_number)
             for h, g in zip(match.hands, games, strict=True)]
    return hands, games


def analyse(record: Record | MatchRecord, seed: int = 0, worlds: int = WORLDS, think: float = THINK,
            jobs: int = 1, ray: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Analyse every decision of ``record`` (see the module's text); ``jobs`` processes, or Ray at ``ray``."""
    return analyse_many([record], seed, worlds, think, jobs, ray, progress)[0]


def analyse_many(records: Sequence[Record | MatchRecord], seed: int = 0, worlds: int = WORLDS,
                 think: float = THINK, jobs: int = 1, ray: str | None = None,
                 progress: Callable[[int, int], None] | None = None) -> list[Analysis]:
    """:func:`analyse` for many records, their decisions shared out among the workers together."""
    if worlds < 1 or not think > 0:
        raise AnalysisError(f"the analysis needs at least one world and some time a decision, not {worlds} worlds"
                            f" and {think} s")
    plans = [_hands(r) for r in records]
    tasks: list[Task] = [(h, k, i, seed, worlds, think)
                         for hands, _games in plans for k, h in enumerate(hands) for i in range(len(h.actions))]
    results = iter(run_tasks(analyse_task, tasks, jobs, ray, progress))
    out = []
    for record, (hands, games) in zip(records, plans, strict=True):
        moves = []
        for k, (hand, game) in enumerate(zip(hands, games, strict=True)):
            for i, (seat, action) in enumerate(hand.actions):
                reading, face_up, cut = next(results)
                side = team_of(game, seat) if game.is_over() else game.side_of(seat)
                moves.append(Move(k, i, seat, side, action, reading, face_up, cut))
        out.append(Analysis(record.variant, record.players, moves, seed, worlds, think))
    return out


def move_words(action: Action, lang: Lang = "en") -> str:
    """A move as a card player says it, in ``lang``: the card's name (``"two of cups"``), an exchange
    (``"exchange: two of cups"``); an auction's choice in its notation."""
    msg = Messages(lang)
    if isinstance(action, Exchange):
        return msg("an_exchange", card=action.card.name(lang))
    if isinstance(action, Arrastro):
        return msg("an_arrastro", card=action.card.name(lang))
    if isinstance(action, Play):
        return action.card.name(lang)
    return str(action)


def format_text(analysis: Analysis, names: Sequence[str] | None = None, lang: Lang = "en") -> str:
    """The analysis as a table for the terminal, in ``lang``: every searched decision, its best move and the loss,
    the players by ``names`` (else "Seat 1", ...) and the moves in words (:func:`move_words`)."""
    msg = Messages(lang)
    name = (lambda s: names[s]) if names else (lambda s: msg("seat", n=s + 1))
    title = title_in(make_rules(analysis.variant), lang) if analysis.variant in variant_names() else analysis.variant
    lines = [msg("an_title", title=title, players=analysis.players, decisions=len(analysis.decisions),
                 worlds=analysis.worlds, seed=analysis.seed),
             "  " + msg("an_legend_win"), "  " + msg("an_legend_loss", point=POINT)]
    rows: list[tuple[int, list[str]]] = []
    for m in analysis.moves:
        if m.reading is None:
            continue
        taken = m.reading.option(m.action)
        assert taken is not None
        best = m.reading.best
        up = m.face_up
        face = "" if up is None else f"{move_words(up.best.action, lang)} {up.best.win:.0%}"
        mark = msg(f"an_{m.mark}") if m.mark else ""
        rows.append((m.hand, [f"{m.index + 1}", name(m.seat), move_words(m.action, lang),
                              f"{taken.win:.0%} ±{taken.win_se:.0%}", f"{taken.margin:+.1f} ±{taken.margin_se:.1f}",
                              move_words(best.action, lang), f"{best.win:.0%}", f"{m.loss:.3f}",
                              mark + (" " + msg("an_clock") if m.cut else ""), face]))
    header = ["#", msg("an_col_player"), msg("an_col_move"), msg("an_col_win"), msg("an_col_margin"),
              msg("an_col_best"), msg("an_col_win"), msg("an_col_loss"), "", msg("an_col_face_up")]
    widths = [max([len(header[i])] + [len(r[i]) for _h, r in rows]) for i in range(len(header))]
    right = {0, 3, 4, 6, 7}

    def line(cells: Sequence[str]) -> str:
        return "  " + " ".join(c.rjust(w) if i in right else c.ljust(w)
                               for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    hand = -1
    for k, cells in rows:
        if k != hand:
            hand = k
            lines.append(msg("hand_title", hand=hand + 1))
            lines.append(line(header))
        lines.append(line(cells))
    lines.append(msg("an_per_player"))
    stats = analysis.stats()
    width = max(len(name(s)) for s in stats) if stats else 0
    for seat, st in stats.items():
        lines.append(f"  {name(seat):{width}} {int(st['decisions']):>3} {st['loss']:.3f}"
                     f" {int(st['mistakes']):>3} {int(st['blunders']):>3}")
    return "\n".join(lines)


def _words(action: Action) -> dict[str, str]:
    """The move in words in every language (:func:`move_words`): what the analysis JSON carries to its readers."""
    return {lang: move_words(action, lang) for lang in LANGS}


def decision_seed(seed: int, hand: int, index: int) -> int:
    """The search's seed for the action at ``index`` of hand ``hand``: every decision its own, wherever it runs."""
    return (seed * 1_000_003 + hand * 10_007 + index) & 0x7FFFFFFF


__all__ = ["BID_WORLDS", "BLUNDER", "FACE_UP_CARDS", "FACE_UP_KERNEL_CARDS", "FACE_UP_KERNEL_CARDS_MORE",
           "MISTAKE", "NOISE", "POINT", "THINK", "WORLDS", "Analysis", "AnalysisError", "Move", "Option", "Reading",
           "analyse", "analyse_many", "analyse_task", "decision_seed", "format_text", "move_words", "read_face_up",
           "read_view"]
