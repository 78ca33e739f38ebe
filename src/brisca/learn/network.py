"""The network's arrays as the trainer holds them: fresh, widened, reading more inputs, and the samples the
self-play and the demonstrations hand the learners.

A network is a plain dict of numpy arrays (``w1``, ``b1``, ``w2``, ``b2``, ``wp``, ``bp``, ``wv``, ``bv``): what
:class:`brisca.agents.net.Net` plays and saves, what the worker processes receive, what the learners step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

Arrays = dict[str, Any]


def init_arrays(inputs: int, actions: int, hidden: int, seed: int) -> Arrays:
    """A fresh network: uniform weights of scale 1/sqrt(fan-in) (the policy head 100 times smaller: near-uniform
    play at first), zero biases."""
    rng = np.random.default_rng(seed)

    def layer(n_in: int, n_out: int, scale: float = 1.0) -> tuple[Any, Any]:
        bound = scale / math.sqrt(n_in)
        return rng.uniform(-bound, bound, (n_in, n_out)).astype(np.float32), np.zeros(n_out, np.float32)

    w1, b1 = layer(inputs, hidden)
    w2, b2 = layer(hidden, hidden)
    wp, bp = layer(hidden, actions, 0.01)
    wv, bv = layer(hidden, 1)
    return {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "wp": wp, "bp": bp, "wv": wv, "bv": bv}


def widen(arrays: Arrays, hidden: int, seed: int) -> Arrays:
    """``arrays`` with ``hidden`` units in each hidden layer, computing the very same function: the new units'
    incoming weights small and random, their outgoing weights zero (and no old unit reads a new one), so that
    training goes on from the network as it was with room to learn more."""
    rng = np.random.default_rng(seed)
    n_in, width = arrays["w1"].shape
    extra = hidden - width

    def small(rows: int, cols: int) -> Any:
        bound = 0.5 / math.sqrt(rows)
        return rng.uniform(-bound, bound, (rows, cols)).astype(np.float32)

    w2 = np.zeros((hidden, hidden), np.float32)
    w2[:width, :width] = arrays["w2"]
    w2[:, width:] = small(hidden, extra)
    zeros = np.zeros(extra, np.float32)
    return {"w1": np.concatenate([arrays["w1"], small(n_in, extra)], 1), "b1": np.concatenate([arrays["b1"], zeros]),
            "w2": w2, "b2": np.concatenate([arrays["b2"], zeros]),
            "wp": np.concatenate([arrays["wp"], np.zeros((extra, arrays["wp"].shape[1]), np.float32)]),
            "bp": arrays["bp"].copy(), "wv": np.concatenate([arrays["wv"], np.zeros((extra, 1), np.float32)]),
            "bv": arrays["bv"].copy()}


def shape(presets: Sequence[str], players: int = 2, advisor: bool = False, cues: bool = False) -> tuple[int, int]:
    """The network's inputs and action ids for ``presets`` (they must share the encoder's layout), with an
    advisor's choice among the inputs or not, and the :func:`~brisca.envs.encode.cues` or not."""
    from brisca.envs.encode import ObservationEncoder, cue_size

    encs = [ObservationEncoder(p, players) for p in presets]
    if len({(e.size, e.codec.size) for e in encs}) != 1:
        raise ValueError(f"{', '.join(presets)} do not share one encoding; train them apart")
    actions = encs[0].codec.size
    return encs[0].size + len(presets) + (actions if advisor else 0) + (cue_size(players) if cues else 0), actions


def with_cues(arrays: Arrays, players: int) -> Arrays:
    """``arrays`` reading the :func:`~brisca.envs.encode.cues` after its other inputs, computing the very same
    function: their weights start at zero, so that training goes on from the network as it was and learns what
    the cues are worth."""
    from brisca.envs.encode import cue_size

    return with_inputs(arrays, cue_size(players))


def with_presets(arrays: Arrays, enc_size: int, old: Sequence[str], new: Sequence[str]) -> Arrays:
    """``arrays`` (a network of the presets ``old``) reading one input a preset of ``new`` instead: a preset it
    knew keeps its weights, one new to it starts with the weights of ``old[0]``, so that it plays the new
    preset at first as it played the first it knew, and training learns where they differ (4-player
    ``briscola`` from the 4-player ``spanish`` network). ``enc_size``: the inputs before the presets'."""
    w1 = arrays["w1"]
    rows = [w1[enc_size + (old.index(p) if p in old else 0)] for p in new]
    return {**arrays, "w1": np.concatenate([w1[:enc_size], np.stack(rows), w1[enc_size + len(old):]])}


def with_actions(arrays: Arrays, old: Sequence[Any], new: Sequence[Any]) -> Arrays:
    """``arrays`` (a network whose action ids are ``old``, each id's action in order) choosing among ``new``: an
    action it knew keeps its policy weights, one new to it starts with none and the lowest bias the network has
    (it plays at first as it did; training learns the new action's worth), one it knew that ``new`` lacks is
    dropped. Bixkla's codec is 4-player Briscola's with one more signal."""
    at = {action: i for i, action in enumerate(old)}
    wp, bp = arrays["wp"], arrays["bp"]
    low = np.float32(bp.min()) if len(bp) else np.float32(0.0)
    cols = [wp[:, at[a]] if a in at else np.zeros(wp.shape[0], wp.dtype) for a in new]
    bias = [bp[at[a]] if a in at else low for a in new]
    return {**arrays, "wp": np.stack(cols, axis=1).astype(wp.dtype), "bp": np.asarray(bias, bp.dtype)}


def with_inputs(arrays: Arrays, extra: int) -> Arrays:
    """``arrays`` reading ``extra`` more inputs after its own, computing the very same function (their weights
    start at zero): the cues, and the full-information critic starting from the network's own value."""
    w1 = arrays["w1"]
    return {**arrays, "w1": np.concatenate([w1, np.zeros((extra, w1.shape[1]), np.float32)])}


def task_meta(task: dict[str, Any]) -> dict[str, Any]:
    """The network metadata a worker needs from its task: what the network reads."""
    return {"presets": task["presets"], "players": task.get("players", 2), "advisor": task.get("advisor"),
            "cues": bool(task.get("cues"))}


def merge(parts: Sequence[dict[str, Any]], keys: Sequence[str] = ("obs", "mask", "act", "logp", "adv", "ret"),
          floats: bool = True) -> dict[str, Any]:
    """The workers' samples as one batch for a learner: ``keys`` concatenated, the encoded views (kept as bytes,
    a quarter of the floats' size, to cross between processes) read back as floats; with ``floats`` false left as
    bytes, for a learner to read a minibatch at a time (a long imitation's millions of views would not fit in
    memory as floats)."""
    batch = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    for k in ("obs", "priv"):
        if k in batch and floats:
            batch[k] = batch[k].astype(np.float32)
            batch[k] /= 255.0
    return batch
