"""The ``net`` player: a policy and value network trained by self-play, played with numpy alone.

The network reads a seat's :class:`~brisca.game.View` through the research encoder
(:class:`brisca.envs.encode.ObservationEncoder`, which cannot see a hidden card) plus one input a
preset it was trained on, and gives a score (logit) for every action id of the
:class:`~brisca.envs.actions.ActionCodec` and a value: the hand's expected reward for the seat
(:func:`reward`). The player plays the legal action the network scores highest.

The weights ship in the package (``brisca/agents/nets/*.npz``, a few hundred KB); they were trained by
``brisca train`` (:mod:`brisca.learn`; the command is in the file's metadata, :attr:`Net.meta`). Where no network
covers the game (another preset, other options, another number of players, or numpy not installed) the
player plays its ``fallback`` (``hard-v1``: the heuristic with the learned linear card choice).

    >>> from brisca import Game
    >>> game = Game("spanish", 2, seed=4)
    >>> agent = NetAgent()
    >>> agent.act(game.view(game.turn)) in game.legal_actions()
    True
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brisca.actions import Action
from brisca.agents.exact import exact_choice, last_draw_choice
from brisca.agents.registry import make_agent
from brisca.game import Game, View
from brisca.rules import Rules, make_rules

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from brisca.envs.encode import ObservationEncoder
else:
    try:
        import numpy as np
    except ImportError:  # the network needs numpy ('fast' or 'rl' extra); without it the fallback plays
        np = None

#: The networks that ship with the package, by file, with their sha256 (checked by the tests). Each file's metadata
#: holds the commands that trained it (:attr:`Net.meta`); docs/strength.md gives them with the curves.
#:
#: - ``two_player.npz``: 2-player ``spanish`` and ``briscola``; 6,706,912 self-play hands in 2,018 updates, about 25
#:   minutes on a 16-core machine with a GPU and 85 on a 2-core one (curve: docs/curves/net-two-player.jsonl).
#: - ``four_player.npz``: 4-player ``spanish``, reading the cues (:func:`brisca.envs.encode.cues`); the imitation of
#:   ``heuristic`` over 20,000 hands, then 1,310,720 self-play hands in 640 updates, an hour on a 2-core machine
#:   (curve: docs/curves/net-four-player.jsonl).
#: - ``two_player_family.npz``: 2-player ``mariaje`` and ``tuscan`` (``meta["serves"]``; it read ``mexican`` and
#:   ``lombard`` too in training, where it plays worse than ``hard-v1``): ``two_player.npz`` with each new preset
#:   starting as ``spanish``, then 81,920 self-play hands in 40 updates on a 2-core machine.
#: - ``two_player_muerte_scoperta.npz``: 2-player ``muerte-al-tres`` and ``scoperta``: ``two_player.npz`` with each
#:   starting as ``spanish``, then 450,560 self-play hands in 220 updates on a 2-core machine.
#: - ``two_player_mexican.npz``: 2-player ``mexican`` (the fewest points win): ``two_player.npz`` taught to play as
#:   ``heuristic`` over 20,000 hands, then 327,680 self-play hands in 160 updates on a 2-core machine.
#: - ``four_player_briscola.npz``: 4-player ``briscola``, reading the cues: ``four_player.npz`` with ``briscola``
#:   starting as ``spanish``, then 409,600 self-play hands in 200 updates on a 2-core machine (curve:
#:   docs/curves/net-four-player-briscola.jsonl). Alone it scores 0.55-0.56 against ``hard-v1``; with the
#:   sampled-worlds endgame (``endgame=worlds``) about 0.62.
#: - ``four_player_bixkla.npz``: 4-player ``bixkla``, reading the cues: the 4-player ``briscola`` run's network of
#:   update 220 with its signal added (:func:`brisca.learn.network.with_actions`), then 409,600 self-play hands in
#:   200 updates on a 2-core machine (curve: docs/curves/net-bixkla.jsonl).
#: - ``six_player.npz``: 6-player ``spanish`` (two sides of three), reading the cues: a fresh network taught to play
#:   as ``heuristic`` over 12,000 hands, then 778,240 self-play hands in 380 updates on a 2-core machine beside two
#:   other runs (curve: docs/curves/net-six-player.jsonl). Alone it scores about 0.54 against ``hard-v1``; with the
#:   sampled-worlds endgame (``endgame=worlds``, ``many=8``) about 0.59-0.60.
#: - ``three_player.npz``: 3-player ``spanish``: a fresh network taught to play as ``heuristic`` over 20,000 hands,
#:   167 self-play updates, then 213 updates more (436,224 hands) with ``hard-v1`` at the other two seats in half
#:   the hands (``--opponent-share 0.5``), on a 2-core machine (curve: docs/curves/net-three-player.jsonl). Alone
#:   it scores about 0.545 against ``hard-v1``, with the sampled-worlds endgame 0.56-0.58: below the 0.58 goal, and
#:   above ``hard-v1``.
SHIPPED: dict[str, str] = {
    "two_player.npz": "ab1bb975bba7662aa53995b7e575d2e4a16655af226ce286c942d03cb06d9073",
    "four_player.npz": "c9c0ccf9207c46f9e43b01fc0d033896eb18e47f59d388a3d0d572837c59275c",
    "two_player_family.npz": "ffcb2f829f9369fb3d6f1011a3a73789c3d41f1a73b3dbf548250e7f3232d28e",
    "two_player_muerte_scoperta.npz": "a66ae71d5e86e2c882ceb3f412bc7d1f274c6678fc48cc0c563ce6c882d84a81",
    "two_player_mexican.npz": "bc9d1aecc55b12ed53db64d2bcc0350071ab9921e838b075b51f18e9676f7a2b",
    "four_player_briscola.npz": "629c0d0446dee5a0a30448c17c78555c6d86b49101328b30bc4b94c8c685f95c",
    "four_player_bixkla.npz": "3800b990ae46d361678714c7c12901532385801ece77cad582e7a34bc231ec26",
    "six_player.npz": "473933e63aa5f251000e17ebe539282b462eae6dbedaa86c13997064b9942c83",
    "three_player.npz": "5cf301550c0451bda14befc8fd4d91c587039659b7acf5cde038dc91bc5403a9",
}

#: The shipped networks the expert's search reads (its early moves, the values of its worlds): those measured
#: against ``expert-v1`` in their games (docs/strength.md). The others play ``hard`` alone.
SEARCHED = ("two_player.npz", "four_player.npz")

#: The parameter arrays of a network, in order: two hidden layers, the policy head, the value head.
LAYERS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


def reward(game: Game, seat: int) -> float:
    """The reward the network learns for ``seat`` at the end of a hand: +1 a win, -1 a loss, 0 a draw, plus a
    quarter of the point margin over 240 (a tie-breaker: 30 points are worth 0.03 of a win), the margin over the
    best other side, counted the way the hand is won (fewer points are the lead where the fewest win).

    A hand played for a contract pays the seat's team (the declarer and his called partner, or the defenders):
    in Briscola Chiamata half the seat's match points (the declarer +1 or -1, +2 or -2 alone, his partner and
    each defender a half), in a solo contract +1 to the team that won it and -1 to the other; plus a quarter of
    how many card points more than the contract's side needed the team took (fewer, for the defenders), over
    240. A hand everybody passed pays 0."""
    result = game.result()
    assert result is not None
    if game.rules.contract != "off":
        c = result.contract
        if c is None:
            return 0.0
        team = c.side()
        took = sum(result.side_points[s] for s in team)  # (a contract's totals are the seats')
        lead = took - c.points if seat in team else c.points - took
        if game.rules.contract == "called":
            assert result.scores is not None
            return result.scores[seat] / 2 + 0.25 * lead / 240
        took_it = (seat in team) == (result.reason == "made")
        return (1.0 if took_it else -1.0) + 0.25 * lead / 240
    side = game.side_of(seat)
    pts = result.side_points
    others = [p for i, p in enumerate(pts) if i != side]
    lead = min(others) - pts[side] if game.rules.hand_winner == "least" else pts[side] - max(others)
    won = 0.0 if result.winner is None else (1.0 if result.winner == side else -1.0)
    return won + 0.25 * lead / 240


class Net:
    """A trained network: ``forward`` from encoded inputs to logits and values; numpy only."""

    def __init__(self, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
        if np is None:
            raise ImportError("the network needs numpy: pip install 'brisca[fast]'")
        self.arrays = {k: np.ascontiguousarray(arrays[k], dtype=np.float32) for k in LAYERS}
        self.meta = meta
        self.presets: tuple[str, ...] = tuple(meta["presets"])
        #: The presets it plays (``meta["serves"]``, by default every one it reads): a network trained on several
        #: plays only those where it measured stronger than what it replaces.
        self.serves: frozenset[str] = frozenset(meta.get("serves", self.presets))
        self.players: int = int(meta.get("players", 2))
        self._rules = {make_rules(p): i for i, p in enumerate(self.presets)}
        self._encoders: dict[int, ObservationEncoder] = {}
        a = self.arrays
        self.inputs = int(a["w1"].shape[0])
        #: The player whose choice the network reads as an input (``meta["advisor"]``, say ``heuristic``), or
        #: ``None``. It reads the same view: the network learns when to follow it and when not.
        self.advisor: str | None = meta.get("advisor")
        self._advisor = make_agent(self.advisor) if self.advisor else None
        #: Whether the input ends with the :func:`~brisca.envs.encode.cues` (``meta["cues"]``).
        self.cues: bool = bool(meta.get("cues"))
        self._batch: Any = None  # (the lockstep batch that replays worlds for :meth:`likelihoods`)

    @classmethod
    def load(cls, path: str | Path) -> Net:
        """The network saved at ``path`` (an ``.npz`` with the :data:`LAYERS` arrays and a ``meta`` JSON text);
        ``ValueError`` with one line where the file is not one."""
        try:
            with np.load(path) as data:
                files = set(data.files)
                arrays = {k: data[k] for k in LAYERS if k in files}
                text = str(data["meta"]) if "meta" in files else None
        except (OSError, EOFError, ValueError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path} is not a brisca network (an .npz the trainer writes): {exc}") from None
        missing = [k for k in ("meta", *LAYERS) if k not in files]
        if missing or text is None:
            raise ValueError(f"{path} is not a brisca network: it lacks {', '.join(missing)}")
        try:
            meta = json.loads(text)
        except ValueError:
            raise ValueError(f"{path} is not a brisca network: its meta is not JSON") from None
        return cls(arrays, meta)

    def save(self, path: str | Path) -> None:
        arrays: dict[str, Any] = dict(self.arrays)
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta, sort_keys=True)), **arrays)

    def preset(self, rules: Rules, players: int) -> int | None:
        """The index of the preset these rules are (with its default options), or ``None``: the network
        was trained on those games only."""
        if players != self.players:
            return None
        index = self._rules.get(rules)
        return index if index is not None and self.presets[index] in self.serves else None

    def covers(self, rules: Rules, players: int) -> bool:
        return self.preset(rules, players) is not None

    def pick(self, rules: Rules, players: int) -> Net | None:
        """This network where it covers the game, else ``None`` (as :meth:`Shelf.pick`)."""
        return self if self.covers(rules, players) else None

    def encoder(self, preset: int) -> ObservationEncoder:
        enc = self._encoders.get(preset)
        if enc is None:
            from brisca.envs.encode import ObservationEncoder

            enc = self._encoders[preset] = ObservationEncoder(self.presets[preset], self.players)
        return enc

    def features(self, view: View, preset: int, out: NDArray[np.float32] | None = None) -> NDArray[np.float32]:
        """The network's input for ``view``: the encoder's vector, one input a preset, with an advisor one input
        an action id, set for the action the advisor chooses (none where the seat has no choice to make), and with
        ``cues`` the :func:`~brisca.envs.encode.cues`."""
        enc = self.encoder(preset)
        if out is None:
            out = np.zeros(self.inputs, np.float32)
        enc.encode(view, out[:enc.size])
        out[enc.size:] = 0.0
        out[enc.size + preset] = 1.0
        if self._advisor is not None and view.legal_actions:
            out[enc.size + len(self.presets) + enc.codec.ids[self._advisor.act(view)]] = 1.0
        if self.cues:
            from brisca.envs.encode import cue_size, cues

            cues(view, out[self.inputs - cue_size(self.players):])
        return out

    def forward(self, x: NDArray[np.float32]) -> tuple[NDArray[Any], NDArray[Any]]:
        """Logits (one per action id, before masking) and values, for a batch of inputs ``x``."""
        a = self.arrays
        h = x @ a["w1"]
        h += a["b1"]
        np.maximum(h, 0.0, out=h)
        h2 = h @ a["w2"]
        h2 += a["b2"]
        np.maximum(h2, 0.0, out=h2)
        return h2 @ a["wp"] + a["bp"], (h2 @ a["wv"] + a["bv"])[..., 0]

    def legal_ids(self, view: View, preset: int) -> list[int]:
        ids = self.encoder(preset).codec.ids
        return [ids[a] for a in view.legal_actions]

    def evaluate(self, view: View) -> tuple[list[float], float]:
        """For a covered view: the logits of its legal actions (in ``view.legal_actions``'s order) and its value."""
        preset = self.preset(view.rules, view.players)
        assert preset is not None
        logits, value = self.forward(self.features(view, preset)[None])
        row = logits[0]
        return [float(row[i]) for i in self.legal_ids(view, preset)], float(value[0])

    def value(self, view: View) -> float:
        """The expected :func:`reward` of ``view``'s seat, as the network reckons it."""
        return self.evaluate(view)[1]

    def choose(self, view: View) -> Action:
        """The legal action scored highest (the first of equals)."""
        logits, _value = self.evaluate(view)
        best = max(range(len(logits)), key=logits.__getitem__)
        return view.legal_actions[best]

    def reader(self, floor: float = 0.25, last: int | None = 3) -> Callable[[View, Sequence[Game]], Any]:
        """:meth:`likelihoods` with these settings, as :func:`~brisca.agents.kernel.stock_choice` reads worlds.
        Measured at five hidden cards left in the stock (self-play, 40 positions, six pasts a hand): the opponent's
        true hand got 1.67 times its uniform chance (geometric mean) from its last three choices, 1.12 from its
        last six, 1.38 from its last one."""
        return lambda view, worlds: self.likelihoods(view, worlds, floor, last)

    def likelihoods(self, view: View, worlds: Sequence[Game], floor: float = 0.25,
                    last: int | None = None) -> NDArray[np.float64]:
        """For each world (a complete game that ``view`` allows, past hands included: ``WorldSampler.draw(...,
        past=True)``), the log of the chance that the other seats, each choosing as this network does (its softmax,
        a share ``floor`` of it spread evenly over the legal moves, for players unlike it), made the choices
        ``view`` saw them make. Weighing worlds by it reads the other hands from their play, as a strong player
        does: who kept a trump instead of taking ten points likely has none. Every world is replayed in one
        compiled batch (:class:`~brisca.envs.batch.Batch`), one forward pass for all the choices; zeros where
        the batch does not play the game or numba is missing."""
        out = np.zeros(len(worlds), np.float64)
        preset = self.preset(view.rules, view.players)
        if not worlds or preset is None or self.advisor is not None:
            return out
        from brisca.actions import Signal
        from brisca.envs.batch import COMPILED, Batch, covers, forward

        if not COMPILED or not covers(view.rules, view.players):
            return out
        steps = [j for j, (s, a) in enumerate(view.history) if s != view.seat and not isinstance(a, Signal)]
        if last is not None:
            steps = steps[-last:] if last else []
        if not steps:
            return out
        k, m = len(steps), len(worlds) * len(steps)
        batch = self._batch
        if batch is None or batch.size < m:
            batch = self._batch = Batch(self.presets, self.players, size=max(m, 256), cues=self.cues)
        if batch.inputs != self.inputs:
            return out
        ids = batch.codec.ids
        history = np.array([ids[a] for _s, a in view.history], np.int64)
        lanes = np.arange(m)
        decks = np.repeat(np.array([[c.index for c in w.deck] for w in worlds], np.int64), k, axis=0)
        dealers = np.full(m, view.dealer, np.int64)
        counts = np.tile(np.array(steps, np.int64), len(worlds))
        moves = np.broadcast_to(history, (m, len(history)))
        batch.live[m:] = 0  # (lanes of an earlier, larger call)
        batch.replay(lanes, decks, dealers, moves, counts, np.full(m, preset, np.int64))
        forced = batch.forced
        obs, mask, rows, seats = batch.observe()
        keep = np.ones(m, np.bool_)
        if batch.forced != forced:  # a world where a choice seen was forced there: it tells nothing of that world
            batch.replay(lanes, decks, dealers, moves, counts, np.full(m, preset, np.int64))
            keep = np.array([len(batch.legal_ids(int(lane))) > 1 for lane in lanes])
            obs, mask, rows, seats = batch.observe()
        actors = np.array([s for s, _a in view.history], np.int64)
        # Only the rows of the choice seen, made in turn (an exchange out of turn is not the turn's choice).
        chosen = np.flatnonzero(keep[rows] & (seats == actors[counts[rows]]))
        if not len(chosen):
            return out
        obs, mask, rows = obs[chosen], mask[chosen], rows[chosen]
        logits = forward(self.arrays, obs)[0].astype(np.float64)
        logits[~mask] = -np.inf
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        taken = history[counts[rows]]
        legal = mask.sum(axis=1)
        chance = (1.0 - floor) * p[np.arange(len(rows)), taken] + floor / legal
        np.add.at(out, rows // k, np.log(chance))
        return out


class Shelf:
    """Several networks, each trained on its own games (say one for two players, one for four): the one that covers
    a game plays it."""

    def __init__(self, nets: Sequence[Net]) -> None:
        self.nets = tuple(nets)

    def pick(self, rules: Rules, players: int) -> Net | None:
        """The network that covers these games, or ``None``."""
        for net in self.nets:
            if net.covers(rules, players):
                return net
        return None

    def covers(self, rules: Rules, players: int) -> bool:
        return self.pick(rules, players) is not None

    def games(self) -> list[tuple[str, int]]:
        """The presets (with their default options) and numbers of players the networks play."""
        return [(preset, net.players) for net in self.nets for preset in net.presets if preset in net.serves]


def shipped_path(name: str = "two_player.npz") -> Path:
    """Where the shipped network ``name`` (a key of :data:`SHIPPED`) lies in the installed package."""
    return Path(str(resources.files("brisca.agents").joinpath("nets", name)))


def sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _load(path: str) -> Net | None:
    """The network at ``path``, loaded once a version of the file: a file written again (the trainer's
    ``OUT/net.npz`` at each evaluation) is read again, not served from the first reading."""
    if np is None:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return _load_version(path, st.st_ino, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=16)
def _load_version(path: str, _inode: int, _mtime_ns: int, _size: int) -> Net:
    # The inode too: a file replaced within the clock's resolution (os.replace of a new file) is a new version.
    return Net.load(path)


@cache
def _shipped(searched: bool = False) -> Shelf | None:
    names = SEARCHED if searched else tuple(SHIPPED)
    nets = [net for net in (_load(str(shipped_path(name))) for name in names) if net is not None]
    return Shelf(nets) if nets else None


def load_net(weights: str | None = None, *, searched: bool = False) -> Net | Shelf | None:
    """The network at ``weights`` (a path), or when ``None`` the shipped ones (a :class:`Shelf`; with
    ``searched``, those of :data:`SEARCHED` only); ``None`` where numpy or the shipped files are missing. Loaded
    once a path."""
    if weights is None:
        return _shipped(searched)
    if not Path(weights).exists():
        raise ValueError(f"no network at {weights}")
    return _load(str(weights))


class NetAgent:
    """The network (under a millisecond a move); ``fallback`` plays where it does not cover the game.

    ``endgame``: ``net`` plays the network's choice to the last card; ``exact`` plays the exact best move
    (:func:`~brisca.agents.exact.exact_choice`) once the stock is gone and nothing that matters is hidden:
    measured, 0.514 and 0.513 against the network alone over 10,000 games of 2-player ``spanish`` and
    ``briscola`` (docs/strength.md); ``draw`` also plays the last trick of the stock (two players, one hidden card
    left in it) by the average over every world of their exact values
    (:func:`~brisca.agents.exact.last_draw_choice`). ``hidden``: with ``draw``, play so from the trick with at most
    this many hidden cards in the stock (1: its last trick), over every world when there are at most ``worlds``,
    else over that many drawn (:func:`~brisca.agents.kernel.stock_choice`, compiled; the network's move among
    equals). ``weigh``: with ``draw``, ``net`` weighs the opponent's possible hands by the network's chance of its
    last choices (:meth:`Net.likelihoods`), from the stock's last trick on or from ``hidden``; ``uniform`` counts
    them all the same. ``worlds``: what ``draw`` plays, and once the stock is gone at any number of players (the
    other seats' hands the only hidden cards) the move worth most on average over ``worlds`` worlds drawn from the
    view, each solved exactly with partners as a side (:func:`~brisca.agents.kernel.worlds_choice`, compiled; the
    network's move among equals, and where numba is missing or the kernel does not play the rules). ``many``: the
    worlds solved so at five players or more, where each world's tree is tens of times a 4-player one's (six hands
    of three cards); by default ``worlds``. ``tricks``: in the games the kernel does not play (every card dealt,
    duties to follow, vales, contracts), ``worlds`` solves from the moment the seat holds this many cards, by the
    engine's rules in the compiled batch (:func:`~brisca.agents.kernel.ruled_worlds_choice`), and at four players
    or fewer from one card more over ``deeper`` worlds (0: not) where the worlds are drawn as whole decks (no
    hidden discard): a world's tree there is some twenty times the size. Measured in 4-player ``chilean`` on
    ``hard-v1``'s moves against ``hard-v1`` (the same 2,000 games): from three cards 0.552 at 0.6 ms a move,
    from four over eight worlds 0.564 at 1.4 ms (docs/strength.md). In 3-player ``rematada``, whose worlds the
    engine replays one by one, a trick deeper measured the same (0.532 against 0.535) at 2.3 ms a move.
    Where no network covers a dealt-out game, ``worlds`` still solves its endgame so, on the ``fallback``'s moves.
    """

    def __init__(self, seed: int | None = None, weights: str | None = None, fallback: str = "hard-v1",
                 endgame: str = "net", hidden: int = 1, worlds: int = 200, weigh: str = "uniform",
                 many: int | None = None, tricks: int = 3, deeper: int = 8) -> None:
        if endgame not in ("net", "exact", "draw", "worlds"):
            raise ValueError(f"endgame is net, exact, draw or worlds, not {endgame!r}")
        if not isinstance(hidden, int) or hidden < 1:
            raise ValueError(f"hidden is a number of cards, 1 or more, not {hidden!r}")
        if not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"worlds is a number of worlds, 1 or more, not {worlds!r}")
        if many is not None and (not isinstance(many, int) or many < 1):
            raise ValueError(f"many is a number of worlds, 1 or more, not {many!r}")
        if not isinstance(tricks, int) or tricks < 1:
            raise ValueError(f"tricks is a number of cards in hand, 1 or more, not {tricks!r}")
        if not isinstance(deeper, int) or deeper < 0:
            raise ValueError(f"deeper is a number of worlds, 0 or more, not {deeper!r}")
        self.tricks = tricks
        self.deeper = deeper
        if weigh not in ("uniform", "net"):
            raise ValueError(f"weigh is uniform or net, not {weigh!r}")
        self.weigh = weigh
        self.net = load_net(weights)
        self.fallback = make_agent(fallback, seed=seed)
        self.endgame = endgame
        self.hidden = hidden
        self.worlds = worlds
        self.many = worlds if many is None else many
        self.seed = seed or 0

    def covers(self, rules: Rules, players: int) -> bool:
        return self.net is not None and self.net.covers(rules, players)

    def _reach(self, view: View) -> tuple[int, int]:
        """How many worlds the endgame solves, and how many a trick before the rules' own search starts
        (``deeper``, at four players or fewer)."""
        return (self.worlds if view.players <= 4 else self.many), (self.deeper if view.players <= 4 else 0)

    def act(self, view: View) -> Action:
        net = self.net.pick(view.rules, view.players) if self.net is not None and view.legal_actions else None
        if net is None:
            move = self.fallback.act(view)
            if self.endgame == "worlds" and view.rules.dealt_out and len(view.legal_actions) > 1:
                from brisca.agents.kernel import ruled_worlds_choice  # (numba loads only where it solves)

                worlds, deeper = self._reach(view)
                best = ruled_worlds_choice(view, worlds, self.seed + len(view.history), prefer=move,
                                           tricks=self.tricks, deeper=deeper)
                if best is not None:
                    return best
            return move
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        if self.endgame != "net":
            best = exact_choice(view)
            if best is None and self.endgame == "worlds" and not view.stock_count:
                from brisca.agents.kernel import worlds_choice  # (numba loads only where it solves)

                worlds, deeper = self._reach(view)
                best = worlds_choice(view, worlds, self.seed + len(view.history), prefer=net.choose(view),
                                     tricks=self.tricks, deeper=deeper)
            if best is None and self.endgame in ("draw", "worlds"):
                if self.hidden > 1 or self.weigh == "net":
                    from brisca.agents.kernel import stock_choice  # (numba loads only where it solves)

                    best = stock_choice(view, self.hidden, self.worlds, self.seed + len(view.history),
                                        prefer=net.choose(view), reader=net.reader() if self.weigh == "net" else None)
                if best is None:
                    best = last_draw_choice(view)
            if best is not None:
                return best
        return net.choose(view)


def games() -> list[tuple[str, int]]:
    """The presets and numbers of players the shipped networks play; none without numpy."""
    shelf = load_net()
    return shelf.games() if isinstance(shelf, Shelf) else []


__all__ = ["LAYERS", "SEARCHED", "SHIPPED", "Net", "NetAgent", "Shelf", "games", "load_net", "reward", "sha256",
           "shipped_path"]
