"""``brisca train`` (and ``python -m brisca.learn.train``): the trainer's options, and its errors as one line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from brisca.errors import BriscaError


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="brisca train", description="Self-play PPO training of the net player.")
    ap.add_argument("--out", required=True, help="run folder: curve.jsonl, net.npz, checkpoints")
    ap.add_argument("--presets", default="spanish,briscola", help="presets of two sides, comma-separated")
    ap.add_argument("--players", type=int, default=2, choices=(2, 4), help="seats (4: two partnerships)")
    ap.add_argument("--minutes", type=float, default=60.0, help="stop after this long (this invocation)")
    ap.add_argument("--updates", type=int, default=1_000_000, help="stop at this many updates (in all)")
    ap.add_argument("--workers", type=int, default=2, help="self-play processes (with --ray: tasks an update)")
    ap.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help="play the self-play on a Ray cluster (local: start one here; else its address)")
    ap.add_argument("--games", type=int, default=64, help="hands a worker plays an update")
    ap.add_argument("--lanes", type=int, default=None,
                    help="hands a worker plays at once, in lockstep (brisca.envs.batch); 0: one at a time. "
                         "Default: up to 1,024 where the batch covers the presets and numba is installed")
    ap.add_argument("--hidden", type=int, default=None,
                    help="units in each hidden layer (default 256, or --init's; more than --init's widens it)")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--entropy", type=float, default=0.01,
                    help="the entropy bonus's weight (less after an imitation, which starts from a sure policy)")
    ap.add_argument("--minibatch", type=int, default=4096)
    ap.add_argument("--gae", type=float, default=0.95, help="GAE lambda (the reward comes at the end of the hand)")
    ap.add_argument("--critic", default="view", choices=("view", "full"),
                    help="the values that give the advantages: the network's own (view), or a critic's that sees "
                         "every hand and the stock's order (full; training only, lockstep self-play)")
    ap.add_argument("--critic-warmup", type=int, default=10,
                    help="with --critic full: updates at its start in which the critic alone learns")
    ap.add_argument("--critic-lr", type=float, default=None, help="the critic's learning rate (default: --lr)")
    ap.add_argument("--critic-minibatch", type=int, default=1024,
                    help="the critic's minibatch (smaller than the policy's: more steps for the same work)")
    ap.add_argument("--league", type=float, default=0.3, help="share of hands against a past self")
    ap.add_argument("--snapshot", type=int, default=10, help="updates between league snapshots")
    ap.add_argument("--league-size", type=int, default=20)
    ap.add_argument("--eval-every", type=int, default=50, help="updates between evaluations (0: none)")
    ap.add_argument("--eval-deals", type=int, default=100, help="duplicate deals against heuristic a preset")
    ap.add_argument("--expert-deals", type=int, default=25, help="duplicate deals against expert-v1 a preset")
    ap.add_argument("--checkpoint-every", type=int, default=10)
    ap.add_argument("--backend", default="auto", choices=("auto", "torch", "numpy"))
    ap.add_argument("--device", default="auto", help="torch device (auto: cuda when there is one)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true", help="continue the run in --out")
    ap.add_argument("--init", help="start from this network (.npz) instead of a fresh one")
    ap.add_argument("--advisor", metavar="AGENT",
                    help="the network reads this player's choice as an input (say heuristic)")
    ap.add_argument("--cues", action="store_true",
                    help="the network reads the cues after its other inputs (brisca.envs.encode.cues); with --init "
                         "from a network without them, they start at zero weight")
    ap.add_argument("--imitate", metavar="AGENT", help="a fresh run first imitates this player (say heuristic)")
    ap.add_argument("--imitate-hands", type=int, default=4000, help="hands of AGENT to imitate")
    ap.add_argument("--imitate-epochs", type=int, default=8, help="passes over them")
    ap.add_argument("--imitate-minibatch", type=int, default=1024,
                    help="the minibatch of the imitation and of the search's choices (a classification: many small "
                         "steps learn it better than PPO's few large ones)")
    ap.add_argument("--search-every", type=int, default=0, metavar="K",
                    help="every K updates, learn the search's choices too (expert iteration; 0: never)")
    ap.add_argument("--search-hands", type=int, default=64, help="hands the search plays at every seat each time")
    ap.add_argument("--search-sims", type=int, default=50, help="worlds the search plays a move")
    ap.add_argument("--search-epochs", type=int, default=2, help="passes over its choices")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    words = ["brisca", "train", *(sys.argv[1:] if argv is None else argv)]
    from brisca.learn.run import train

    try:
        train(args, " ".join(words))
    except BriscaError as exc:  # an unknown agent, an unreachable cluster: one line, not a traceback
        print(f"brisca train: error: {exc}", file=sys.stderr)
        return 2
    return 0
