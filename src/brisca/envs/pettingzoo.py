"""Brisca as a PettingZoo AEC environment, for every preset and player count (``pip install 'brisca[rl]'``).

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers); ``players=None`` (the
default) is the preset's smallest player count. One episode is one hand.
Importing this module registers the environment with PettingZoo's registry::

    import pettingzoo
    import brisca.envs.pettingzoo  # registers brisca/brisca-v0 and brisca/<preset>-v0

    env = pettingzoo.make("aec", "brisca/briscola-v0", players=4)
    env = brisca.envs.pettingzoo.env(preset="spanish", players=2, reward="dense")

Like PettingZoo's classic environments, :func:`env` wraps :class:`raw_env` in
``TerminateIllegalWrapper`` (an illegal action ends the hand with reward -1 for
its author), ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``; the raw
environment raises ``ValueError`` on an illegal action.

- Observation: ``{"observation": float32 vector, "action_mask": int8 vector}``;
  the vector is :class:`~brisca.envs.encode.ObservationEncoder`'s encoding of the
  agent's :class:`~brisca.game.View` (see that module for the layout), the mask is
  over the :class:`~brisca.envs.actions.ActionCodec` ids and is all zero off turn.
  The mask is also in ``infos[agent]["action_mask"]``, and :meth:`raw_env.action_masks`
  gives the acting agent's (for maskable PPO).
- Actions: ``Discrete(codec.size)``: the 111 core ids, and for the presets with an auction, discards or
  declarations their blocks after them (:mod:`brisca.envs.actions`).
- Rewards: ``reward="win"`` (default), ``"points"`` or ``"dense"``: see :mod:`brisca.envs`.
- Seeding: ``reset(seed)`` makes the environment's one ``random.Random``; each later
  ``reset()`` deals from it. ``dealer=None`` draws the dealer from it too; an int fixes it.
- ``reset(options={"deck": [...], "dealer": d})`` deals a given deck (top card first)
  and dealer, e.g. for duplicate play; other option keys are ignored.
- ``render_mode="ansi"`` returns the table as text, ``"human"`` prints it (every hand shown: a referee's view).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from brisca.cards import Card
from brisca.envs import check_reward, render_table, step_rewards, unavailable
from brisca.envs.actions import ActionCodec
from brisca.envs.encode import ObservationEncoder
from brisca.errors import IllegalActionError
from brisca.game import Game
from brisca.rules import Rules, make_rules, variant_names

_MISSING: ImportError | None = None
if TYPE_CHECKING:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from numpy.typing import NDArray
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
else:
    try:
        import numpy as np
        from gymnasium import spaces
        from gymnasium.utils import EzPickle
        from pettingzoo import AECEnv
        from pettingzoo.utils import wrappers
    except ImportError as _exc:  # the 'rl' extra is missing: importable (for doctest collection), not usable
        _MISSING = _exc
        AECEnv, EzPickle = unavailable("AECEnv"), unavailable("EzPickle")

__all__ = ["ENV_IDS", "env", "raw_env", "render_table"]

Obs = dict[str, "NDArray[Any]"]


class raw_env(AECEnv[str, Obs, int], EzPickle):
    """The AEC environment (see the module docs). ``options`` override the preset's rules by name."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class attribute
        "render_modes": ["human", "ansi"],
        "name": "brisca_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        preset: Rules | str = "spanish",
        players: int | None = None,
        *,
        options: Mapping[str, object] | None = None,
        reward: str = "win",
        dealer: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if _MISSING is not None:
            raise ImportError(f"brisca.envs.pettingzoo needs the 'rl' extra: pip install 'brisca[rl]' ({_MISSING})")
        EzPickle.__init__(self, preset, players, options=options, reward=reward, dealer=dealer,
                          render_mode=render_mode)
        super().__init__()
        self.rules = rules = make_rules(preset, options)
        if players is None:
            players = min(rules.player_counts)
        rules.check_players(players)
        if dealer is not None and not (type(dealer) is int and 0 <= dealer < players):
            raise ValueError(f"dealer must be a seat from 0 to {players - 1}, or None, not {dealer!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.players = players
        self.reward = check_reward(reward)
        self.dealer = dealer
        self.render_mode = render_mode
        self.encoder = ObservationEncoder(rules, players)
        self.codec: ActionCodec = self.encoder.codec
        self.possible_agents: list[str] = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
        })
        # The same space objects on every call (their seeding depends on it).
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._rng: random.Random | None = None
        self.game: Game | None = None
        self._zeros: NDArray[np.int8] = np.zeros(self.codec.size, np.int8)

    # ----------------------------------------------------------------- spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ cycle

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        rng = self._rng
        n = self.players
        opts = options or {}
        dealer = opts.get("dealer", self.dealer)
        if dealer is None:
            dealer = rng.randrange(n)
        deck: Sequence[Card | str] | None = opts.get("deck")
        self.game = game = Game(self.rules, n, dealer=dealer, deck=deck, seed=None if deck is not None else rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {a: {"action_mask": self._zeros.copy()} for a in self.agents}
        self.infos = infos
        turn = game.turn
        assert turn is not None
        self.agent_selection = self.agents[turn]
        self.infos[self.agent_selection] = {"action_mask": self._legal_mask(game)}
        self._skip_agent_selection = None

    def _legal_mask(self, game: Game) -> NDArray[np.int8]:
        mask = np.zeros(self.codec.size, np.int8)
        ids = self.codec.ids
        mask[[ids[a] for a in game.legal_actions()]] = 1
        return mask

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for an agent whose hand is over")
        index = int(action)
        if not 0 <= index < self.codec.size:
            raise ValueError(f"action {action!r} is outside 0..{self.codec.size - 1}")
        act = self.codec.actions[index]
        before = game.side_points
        try:
            game.apply(act)
        except IllegalActionError as exc:
            raise ValueError(f"illegal action {index} ({act}) for {agent}: {exc}") from None
        self._cumulative_rewards[agent] = 0.0
        paid = step_rewards(game, self.reward, before)
        agents = self.agents
        if paid is None:
            self._clear_rewards()
        else:
            self.rewards = {a: paid[i] for i, a in enumerate(agents)}
        self.infos[agent] = {"action_mask": self._zeros.copy()}
        if game.is_over():
            self.terminations = dict.fromkeys(agents, True)
            result = game.result()
            assert result is not None
            for a in agents:
                self.infos[a] = {
                    "action_mask": self._zeros.copy(),
                    "winner": result.winner,
                    "side_points": result.side_points,
                    "scores": result.scores,
                }
            self.agent_selection = agents[(self._seat[agent] + 1) % len(agents)]
        else:
            turn = game.turn
            assert turn is not None
            self.agent_selection = nxt = agents[turn]
            self.infos[nxt] = {"action_mask": self._legal_mask(game)}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Obs:
        game = self.game
        assert game is not None, "call reset() first"
        view = game.view(self._seat[agent])
        return {"observation": self.encoder.encode(view), "action_mask": self.encoder.mask(view)}

    def action_masks(self) -> NDArray[np.bool_]:
        """The acting agent's legal actions as booleans (the ``action_masks()`` of maskable PPO)."""
        mask: NDArray[np.bool_] = self.infos[self.agent_selection]["action_mask"].astype(bool)
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = render_table(self.game) if self.game is not None else "(no hand dealt: call reset())"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv[str, Obs, int]:
    """:class:`raw_env` with PettingZoo's classic wrappers (illegal action: -1 and the hand ends)."""
    out: AECEnv[str, Obs, int] = raw_env(**kwargs)
    out = wrappers.TerminateIllegalWrapper(out, illegal_reward=-1)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    out = wrappers.OrderEnforcingWrapper(out)
    return out


#: The ids registered with PettingZoo: the generic one (``preset=`` keyword) and one per preset.
ENV_IDS: tuple[str, ...] = ("brisca/brisca-v0", *(f"brisca/{name}-v0" for name in variant_names()))


def _register() -> None:
    import pettingzoo

    registry = getattr(pettingzoo, "aec_registry", None)
    register = getattr(pettingzoo, "register", None)
    if registry is None or register is None:  # an older PettingZoo without a registry: use env()/raw_env()
        return
    for env_id in ENV_IDS:
        if env_id in registry:
            continue
        name = env_id.split("/")[1][:-3]
        kwargs = {} if name == "brisca" else {"preset": name}
        register("aec", env_id, entry_point="brisca.envs.pettingzoo:env", kwargs=kwargs)


if _MISSING is None:
    _register()
