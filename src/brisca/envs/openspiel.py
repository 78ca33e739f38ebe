"""Brisca as an OpenSpiel game: ``brisca`` for ``pyspiel`` (``pip install 'brisca[openspiel]'``).

Importing this module registers the Python game ``brisca``::

    import pyspiel
    import brisca.envs.openspiel  # registers "brisca"

    game = pyspiel.load_game("brisca", {"players": 4, "preset": "bixkla"})
    game = pyspiel.load_game("brisca(players=3,preset=briscola,reward=points)")

Parameters (with their defaults): ``players=2``, ``preset="spanish"``,
``reward="win"`` (``"win"`` or ``"points"``, see :mod:`brisca.envs`; OpenSpiel
returns are terminal), ``options=""`` (rule overrides, ``"deck:48;follow:suit"``,
see :func:`parse_options`), ``dealer=-1`` (the last seat deals, so seat 0 leads). The
:class:`pyspiel.GameInfo` (players, utilities, game length, action count) is built
per instance from them.

- Chance: the shuffle is explicit, one chance node per card of the deck, top card
  first; outcome ``k`` is the card with :attr:`~brisca.cards.Card.index` ``k``, each
  remaining card equally likely. Then the hand is played.
- Actions: the :class:`~brisca.envs.actions.ActionCodec` ids (the 111 core ids, and the auction's,
  discards' and declarations' blocks for the presets that have them).
- Observations come from the seat's :class:`~brisca.game.View` only: the tensors are
  :class:`~brisca.envs.encode.ObservationEncoder` encodings (the information state
  adds the ``order`` plane), the strings list the same facts, the information-state
  string with every visible action since the deal. Public-only observers
  (``private_info=NONE``) encode the spectator's view; private-only ones the hand
  and the known cards.
- :meth:`BriscaState.resample_from_infostate` and :func:`resampler` draw a full
  state consistent with what a seat knows (for IS-MCTS): see :func:`sample_deck`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from brisca.actions import ASK_SIGNALS, SIGNAL_SETS, Action
from brisca.cards import Card
from brisca.envs import check_reward, hand_returns, render_table, return_bounds, unavailable
from brisca.envs.actions import ActionCodec
from brisca.envs.encode import ObservationEncoder
from brisca.errors import IllegalActionError
from brisca.game import Game, View
from brisca.rules import Rules, make_rules
from brisca.worlds import sample_world

_MISSING: ImportError | None = None
if TYPE_CHECKING:
    import numpy as np
    import pyspiel
    from numpy.typing import NDArray
else:
    try:
        import numpy as np
        import pyspiel
    except ImportError as _exc:  # the 'openspiel' extra is missing: importable (for doctest collection), not usable
        _MISSING = _exc
        pyspiel = SimpleNamespace(Game=unavailable("Game"), State=unavailable("State"))

__all__ = [
    "SHORT_NAME", "BriscaGame", "BriscaObserver", "BriscaState", "parse_options", "resampler", "sample_deck",
]

SHORT_NAME = "brisca"
MAX_PLAYERS = 6
DEFAULTS: dict[str, Any] = {"players": 2, "preset": "spanish", "reward": "win", "options": "", "dealer": -1}


def parse_options(text: str | Mapping[str, object]) -> dict[str, object]:
    """Rule overrides from the ``options`` game parameter: ``"deck:48;follow:suit"``.

    Each ``name:value`` value is read as JSON when it can be (``48``, ``true``),
    else taken as text (``suit``, ``1 3 12 11 10 7 6 5 4 2``). The text avoids
    ``,``, ``=`` and parentheses, which OpenSpiel's game strings reserve, so a
    game with options survives ``serialize_game_and_state``. A JSON object
    (``'{"points": {"1": 11}}'``) is read too, for the options that need one,
    but only through ``load_game(name, dict)``: its commas do not serialize.
    """
    if isinstance(text, Mapping):
        return dict(text)
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        out = json.loads(text)
        if not isinstance(out, dict):
            raise ValueError(f"options must be a JSON object, not {text!r}")
        return out
    opts: dict[str, object] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"options are name:value pairs separated by ';', not {part!r}")
        try:
            opts[name.strip()] = json.loads(value)
        except ValueError:
            opts[name.strip()] = value.strip()
    return opts


class _Config:
    """What every state of one game instance shares (never copied with a state)."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = {k: params.get(k, v) for k, v in DEFAULTS.items()}
        self.players = players = int(self.params["players"])
        self.rules: Rules = make_rules(str(self.params["preset"]), parse_options(self.params["options"]))
        self.rules.check_players(players)
        self.reward = check_reward(str(self.params["reward"]))
        if self.reward == "dense":
            raise ValueError("OpenSpiel returns are terminal: reward is 'win' or 'points'")
        dealer = int(self.params["dealer"])
        self.dealer = players - 1 if dealer < 0 else dealer
        if self.dealer >= players:
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}, or -1")
        self.deck: tuple[Card, ...] = self.rules.deck_cards(players)
        self.codec = ActionCodec.for_rules(self.rules, players)

    def key(self) -> str:
        return json.dumps(self.params, sort_keys=True)


_CONFIGS: dict[str, _Config] = {}


def _config(params: Mapping[str, Any]) -> _Config:
    cfg = _Config(params)
    return _CONFIGS.setdefault(cfg.key(), cfg)


class _Core:
    """A state's Python side: the cards dealt so far, then the engine's game."""

    __slots__ = ("cfg", "dealt", "game")

    def __init__(self, cfg: _Config, dealt: list[int] | None = None, game: Game | None = None) -> None:
        self.cfg = cfg
        self.dealt: list[int] = dealt if dealt is not None else []
        self.game = game

    def __deepcopy__(self, memo: object) -> _Core:
        return _Core(self.cfg, self.dealt[:], None if self.game is None else self.game.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        ids = () if self.game is None else tuple(self.cfg.codec.ids[a] for _s, a in self.game.history)
        return (_restore, (self.cfg.params, tuple(self.dealt), ids))

    def deal(self, index: int) -> None:
        self.dealt.append(index)
        cfg = self.cfg
        if len(self.dealt) == len(cfg.deck):
            deck = [Card.from_index(i) for i in self.dealt]
            self.game = Game(cfg.rules, cfg.players, dealer=cfg.dealer, deck=deck)


def _restore(params: Mapping[str, Any], dealt: Sequence[int], ids: Sequence[int]) -> _Core:
    core = _Core(_config(params))
    for i in dealt:
        core.deal(i)
    if core.game is not None:
        for i in ids:
            core.game.apply(core.cfg.codec.actions[i])
    return core


def _game_type() -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Brisca and its family (Briscola, Bixkla, Mariaje...)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )


def _auction_length(rules: Rules, players: int) -> int:
    """The most actions besides cards and signals: bids and passes, discard, trump or call, declarations."""
    out = 0
    if rules.bidding == "points":
        out += (rules.max_bid - rules.min_bid) // rules.bid_step + 1 + players
    elif rules.bidding == "low_card":
        out += players
    if rules.auction:
        out += 1 + (1 if rules.talon else 0) + (1 if rules.talon and rules.trump_from == "named" else 0)
    if rules.declarations != "off":
        out += 4
    if rules.declarations == "vales":  # after each card, the seats whose card is down may be asked to mark one
        out += len(rules.deck_cards(players)) * (players - 1)
    if rules.deal == "cutter_chooses":  # the cutter's choice of the deal
        out += 1
    return out


def _signals_a_turn(rules: Rules) -> int:
    """The most signals one turn may hold: each of the set at most once, made or (combination) said aloud."""
    offered = [s for s in SIGNAL_SETS[rules.signal_set] if rules.signal_asks or s not in ASK_SIGNALS]
    return len(offered) * (2 if rules.signals == "combination" else 1)


class BriscaGame(pyspiel.Game):
    """The ``brisca`` game for one configuration (see the module docs for the parameters)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        if _MISSING is not None:
            raise ImportError(f"brisca.envs.openspiel needs the 'openspiel' extra: pip install 'brisca[openspiel]' "
                              f"({_MISSING})")
        self.cfg = cfg = _config(dict(params or {}))
        rules, n = cfg.rules, cfg.players
        low, high = return_bounds(rules, n, cfg.reward)
        cards = len(cfg.deck)
        signals = rules.signals != "off" and rules.sides(n) < n
        exchanges = 0 if rules.trump_exchange == "off" or rules.trump_rotation else len(rules.exchange_with) + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.codec.size,
            max_chance_outcomes=48,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=cards * (1 + _signals_a_turn(rules) if signals else 1) + exchanges
            + _auction_length(rules, n),
        )
        # An empty ``options`` is left out of the parameters (and of the game's string), as older
        # OpenSpiel releases cannot read an empty value back.
        super().__init__(_TYPE, info, {k: v for k, v in cfg.params.items() if v != "" or k != "options"})

    def new_initial_state(self, *args: Any) -> BriscaState:
        """The state before the shuffle (a chance node)."""
        if args:
            raise ValueError("the brisca game starts only from the shuffle")
        return BriscaState(self)

    def max_chance_nodes_in_history(self) -> int:
        return len(self.cfg.deck)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> BriscaObserver:
        """An observer (the default: a seat's observation without perfect recall)."""
        return BriscaObserver(self.cfg, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class BriscaState(pyspiel.State):
    """A state: the shuffle card by card, then the hand (the engine's :class:`~brisca.game.Game`)."""

    def __init__(self, game: BriscaGame) -> None:
        super().__init__(game)
        self._core = _Core(game.cfg)

    @property
    def game(self) -> Game | None:
        """The engine's game once the deck is dealt (engine-level access: observers use views)."""
        return self._core.game

    def current_player(self) -> int:
        game = self._core.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        turn = game.turn
        assert turn is not None
        return turn

    def _legal_actions(self, player: int) -> list[int]:
        game = self._core.game
        if game is None or game.is_over() or game.turn != player:
            return []
        return self._core.cfg.codec.encode_all(game.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        if core.game is not None:
            raise ValueError("not a chance node")
        dealt = set(core.dealt)
        left = [c.index for c in core.cfg.deck if c.index not in dealt]
        p = 1.0 / len(left)
        return [(i, p) for i in left]

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.game is None:
            if action in core.dealt or Card.from_index(action) not in core.cfg.deck:
                raise ValueError(f"card {action} cannot be dealt now")
            core.deal(action)
            return
        try:
            core.game.apply(core.cfg.codec.actions[action])
        except IllegalActionError as exc:
            raise ValueError(f"illegal action {action}: {exc}") from None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{Card.from_index(action)}"
        return str(self._core.cfg.codec.actions[action])

    def is_terminal(self) -> bool:
        game = self._core.game
        return game is not None and game.is_over()

    def returns(self) -> list[float]:
        game = self._core.game
        if game is None:
            return [0.0] * self._core.cfg.players
        return list(hand_returns(game, self._core.cfg.reward))

    def __str__(self) -> str:
        core = self._core
        if core.game is None:
            return f"dealing {len(core.dealt)}/{len(core.cfg.deck)}: " + " ".join(
                str(Card.from_index(i)) for i in core.dealt
            )
        game = core.game
        stock = " ".join(map(str, game.stock()))
        return f"{render_table(game)}\nstock: {stock or '-'}"

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> BriscaState:
        """A state drawn among those ``player`` cannot tell from this one (see :func:`sample_deck`)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return _resample(self, player, rng)


# ----------------------------------------------------------------- resampling


def sample_deck(game: Game, seat: int, rng: random.Random) -> list[Card]:
    """A deck (top card first) for a deal that ``seat`` cannot tell from the one of ``game``, drawn with ``rng``.

    It is the deck of :func:`brisca.worlds.sample_world` on the seat's view: the seat's own
    cards where it received them, what it saw where it saw it, duties of play and signals
    honoured, the cards it never saw dealt at random. It depends on the seat's view only.
    """
    return list(sample_world(game.view(seat), rng).deck)


def resample_game(game: Game, seat: int, rng: random.Random) -> tuple[Game, list[Action]]:
    """A game ``seat`` cannot tell from ``game``, and the actions replayed on it (the seat's visible history)."""
    world = sample_world(game.view(seat), rng)
    return world, [a for _s, a in world.history]


def _resample(state: BriscaState, player: int, rng: random.Random) -> BriscaState:
    game = state.game
    if game is None or game.is_over():
        raise ValueError("resampling needs a state where the hand is being played")
    world, history = resample_game(game, player, rng)
    out: BriscaState = state.get_game().new_initial_state()
    for c in world.deck:
        out.apply_action(c.index)
    codec = state._core.cfg.codec
    for a in history:
        out.apply_action(codec.ids[a])
    return out


def resampler(seed: int | None = None) -> Any:
    """A resampler for OpenSpiel's Python IS-MCTS: ``bot.set_resampler(resampler(seed))``."""
    rng = random.Random(seed)

    def resample(state: BriscaState, player: int) -> BriscaState:
        return _resample(state, player, rng)

    return resample


# ----------------------------------------------------------------- observers


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards)) or "-"


def _known(view: View) -> str:
    return " ".join(f"{s}:{c}" for s, c in sorted(view.known, key=lambda k: (k[0], k[1].index))) or "-"


class BriscaObserver:
    """OpenSpiel's Python observer: tensors and strings from a seat's :class:`~brisca.game.View` only.

    ``perfect_recall=True`` is the information state (with the ``order`` plane and
    the whole visible history); ``private_info=NONE`` observes the spectator's view;
    ``public_info=False`` only the seat's hand and known cards.
    """

    def __init__(self, cfg: _Config, iig_obs_type: pyspiel.IIGObservationType,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {dict(params)}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("brisca observers show one seat's information (private_info SINGLE_PLAYER or NONE)")
        self.cfg = cfg
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if not self.public and not self.private:
            raise ValueError("an observer shows public or private information, or both")
        self.encoder = ObservationEncoder(cfg.rules, cfg.players, history=self.recall)
        self._full: NDArray[np.float32] = np.zeros(self.encoder.size, np.float32)
        if self.public:
            self.tensor: NDArray[np.float32] = np.zeros(self.encoder.size, np.float32)
            self.dict: dict[str, NDArray[np.float32]] = self.encoder.split(self.tensor)
        else:
            hand, known = self.encoder.field("hand"), self.encoder.field("known")
            self.tensor = np.zeros(hand.size + known.size, np.float32)
            self.dict = {
                "hand": self.tensor[:hand.size],
                "known": self.tensor[hand.size:].reshape(known.shape),
            }
            self._private_slices = ((hand.offset, hand.size), (known.offset, known.size))

    def _view(self, state: BriscaState, player: int) -> View | None:
        game = state._core.game
        if game is None:
            return None
        return game.view(player if self.private else None)

    def set_from(self, state: BriscaState, player: int) -> None:
        view = self._view(state, player)
        if view is None:
            self.tensor.fill(0.0)
            return
        if self.public:
            self.encoder.encode(view, self.tensor, seat=player)
            return
        full = self.encoder.encode(view, self._full, seat=player)
        at = 0
        for offset, size in self._private_slices:
            self.tensor[at:at + size] = full[offset:offset + size]
            at += size

    def string_from(self, state: BriscaState, player: int) -> str:
        core = state._core
        view = self._view(state, player)
        if view is None:
            dealt = len(core.dealt)
            return f"p{player} dealing {dealt}/{len(core.cfg.deck)}"
        if not self.public:
            return f"p{player} hand {_cards(view.hand)} known {_known(view)}"
        parts = [f"p{player}"]
        if self.private:
            parts.append(f"hand {_cards(view.hand)}")
            if self.recall:
                parts.append("received " + (" ".join(map(str, view.received)) or "-"))
        parts.append(f"known {_known(view)}")
        trump = view.trump.letter if view.trump is not None else "-"
        parts.append(f"trump {trump} face-up {view.face_up or '-'} stock {view.stock_count}")
        if view.rules.auction:
            parts.append(f"phase {view.phase} bids " + (" ".join(f"{s}:{a}" for s, a in view.bids) or "-"))
            if view.contract is not None:
                c = view.contract
                parts.append(f"contract {c.declarer}:{c.points}" + (f" call {c.called}" if c.called else "")
                             + (f" partner {c.partner}" if c.partner is not None else ""))
            if view.talon:
                parts.append(f"talon {_cards(view.talon)}")
            if view.discards and self.private:
                parts.append(f"discards {_cards(view.discards)}")
        if view.shown:
            parts.append("shown " + " ".join(f"{s}:{c}" for s, c in view.shown))
        if view.declarations:
            parts.append("declared " + " ".join(f"{s}:{suit.letter}" for s, suit in view.declarations))
        parts.append(f"dealer {view.dealer} turn {'-' if view.turn is None else view.turn}")
        if self.recall:
            parts.append("history " + (" ".join(f"{s}:{a}" for s, a in view.history) or "-"))
        else:
            parts.append(f"trick {' '.join(map(str, view.trick)) or '-'} led by {view.leader}")
            parts.append(f"played {_cards(view.played_cards())}")
            parts.append("points " + " ".join(map(str, view.seat_points)))
            if view.signals:
                parts.append("signals " + " ".join(f"{s}:{name}" for s, name in view.signals))
            if view.arrastro:
                parts.append("arrastro")
        return " | ".join(parts)


if _MISSING is None:
    _TYPE = _game_type()
    if SHORT_NAME not in {t.short_name for t in pyspiel.registered_games()}:
        pyspiel.register_game(_TYPE, BriscaGame)
