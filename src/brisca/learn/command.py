"""``brisca train`` (and ``python -m brisca.learn.train``): the trainer's options with their defaults, and its
errors as one line (``brisca train: error: ...``, exit status 2) before any file is written."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from brisca.errors import BriscaError

EPILOG = """\
The run's folder (--out) holds curve.jsonl (a JSON line an update, and the
evaluations), net.npz (the network: brisca arena "net[weights=OUT/net.npz]"
plays it), league/ (past selves) and the checkpoints --resume reads. The run
prints where it starts and for how long, then a line a minute.

  brisca train --out runs/net --minutes 10 --workers 2
"""


class _Defaults(argparse.RawDescriptionHelpFormatter):
    """Help with each option's default, where it has one worth saying (not None, not a flag's False); the
    description and the epilog as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if default is None or default is False or default == argparse.SUPPRESS or not action.option_strings \
                or "default" in text.lower():
            return text
        shown = f"{default:,}" if isinstance(default, int) and not isinstance(default, bool) else f"{default:g}" \
            if isinstance(default, float) else str(default)
        return f"{text} (default: {shown})" if text else f"default: {shown}"


def _number(kind: Callable[[str], float], low: float, *, above: bool = False, high: float | None = None
            ) -> Callable[[str], float]:
    """An option's type: a ``kind`` number at least ``low`` (more than it, with ``above``), at most ``high``."""

    def read(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {'a whole number' if kind is int else 'a number'}"
                                             ) from None
        if value != value or (value <= low if above else value < low) or (high is not None and value > high):
            bound = f"more than {low:g}" if above else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"{text} is not {bound}" + (f" and at most {high:g}" if high else ""))
        return value

    return read


COUNT = _number(int, 1)  #: a positive whole number
NATURAL = _number(int, 0)  #: zero or more
POSITIVE = _number(float, 0, above=True)  #: a number above zero
SHARE = _number(float, 0, high=1)  #: a share, 0 to 1


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="brisca train", formatter_class=_Defaults, epilog=EPILOG,
                                 description="Self-play PPO training of the net player: a run of --minutes, resumed\n"
                                             "from its folder with --resume.")
    ap.add_argument("--out", required=True, help="the run's folder: curve.jsonl, net.npz, league, checkpoints")
    ap.add_argument("--presets", default="spanish,briscola", help="presets, comma-separated")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5, 6),
                    help="seats: 2 or 3 each alone, 4 or 6 in two partnerships, 5 in Briscola Chiamata's hidden"
                         " partnership (the presets must allow it)")
    ap.add_argument("--minutes", type=POSITIVE, default=60.0,
                    help="this invocation stops within this long: no update or evaluation starts that would not "
                         "end by then, an evaluation the limit reaches is cut")
    ap.add_argument("--updates", type=NATURAL, default=1_000_000, help="stop at this many updates (in all)")
    ap.add_argument("--workers", type=COUNT, default=2, help="self-play processes (with --ray: tasks an update)")
    ap.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                    help="play the self-play on a Ray cluster (local: start one here; else its address)")
    ap.add_argument("--games", type=COUNT, default=64, help="hands a worker plays an update")
    ap.add_argument("--lanes", type=NATURAL, default=None,
                    help="hands a worker plays at once, in lockstep (brisca.envs.batch); 0: one at a time. "
                         "By default up to 1,024 where the batch covers the presets and numba is installed")
    ap.add_argument("--hidden", type=COUNT, default=None,
                    help="units in each hidden layer (by default 256, or --init's; more than --init's widens it)")
    ap.add_argument("--lr", type=POSITIVE, default=3e-4, help="the learning rate (Adam)")
    ap.add_argument("--epochs", type=COUNT, default=3, help="passes over an update's samples")
    ap.add_argument("--entropy", type=_number(float, 0), default=0.01,
                    help="the entropy bonus's weight (less after an imitation, which starts from a sure policy)")
    ap.add_argument("--minibatch", type=COUNT, default=4096, help="samples a step of the update")
    ap.add_argument("--gae", type=SHARE, default=0.95, help="GAE lambda (the reward comes at the end of the hand)")
    ap.add_argument("--critic", default="view", choices=("view", "full"),
                    help="the values that give the advantages: the network's own (view), or a critic's that sees "
                         "every hand, the stock's order, a talon and the discards (full; training only, lockstep "
                         "self-play)")
    ap.add_argument("--critic-warmup", type=NATURAL, default=10,
                    help="with --critic full: updates at its start in which the critic alone learns")
    ap.add_argument("--critic-lr", type=POSITIVE, default=None,
                    help="the critic's learning rate (by default --lr's)")
    ap.add_argument("--critic-minibatch", type=COUNT, default=1024,
                    help="the critic's minibatch (smaller than the policy's: more steps for the same work)")
    ap.add_argument("--league", type=SHARE, default=0.3, help="share of hands against a past self")
    ap.add_argument("--opponent", metavar="AGENT", default="heuristic",
                    help="the fixed player of --opponent-share's hands (a level, as brisca arena names them)")
    ap.add_argument("--opponent-share", type=SHARE, default=0.0,
                    help="share of hands in which every side but the learner's is --opponent (the rest: self-play "
                         "and the league)")
    ap.add_argument("--snapshot", type=COUNT, default=10, help="updates between league snapshots")
    ap.add_argument("--league-size", type=COUNT, default=20, help="past selves kept in the league")
    ap.add_argument("--eval-every", type=NATURAL, default=50, help="updates between evaluations (0: none)")
    ap.add_argument("--eval-deals", type=NATURAL, default=100, help="duplicate deals against heuristic a preset")
    ap.add_argument("--expert-deals", type=NATURAL, default=25, help="duplicate deals against expert-v1 a preset")
    ap.add_argument("--checkpoint-every", type=COUNT, default=10, help="updates between checkpoints")
    ap.add_argument("--backend", default="auto", choices=("auto", "torch", "numpy"),
                    help="the learner (auto: torch where it is installed)")
    ap.add_argument("--device", default="auto", help="torch device (auto: cuda when there is one)")
    ap.add_argument("--threads", type=COUNT, default=1,
                    help="the torch learner's CPU threads: more pay only on cores nothing else uses (on a 2-core "
                         "machine busy with another run, two threads learnt 4.5 times slower than one)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (the hands, the league's draws, the network)")
    ap.add_argument("--resume", action="store_true",
                    help="continue the run in --out from its checkpoint (a fresh run where it has none)")
    ap.add_argument("--init", help="start from this network (.npz) instead of a fresh one")
    ap.add_argument("--advisor", metavar="AGENT",
                    help="the network reads this player's choice as an input (say heuristic)")
    ap.add_argument("--cues", action="store_true",
                    help="the network reads the cues after its other inputs (brisca.envs.encode.cues); with --init "
                         "from a network without them, they start at zero weight")
    ap.add_argument("--imitate", metavar="AGENT",
                    help="a fresh run first imitates this player (say heuristic); played whole, its time counts "
                         "in --minutes")
    ap.add_argument("--imitate-hands", type=COUNT, default=4000, help="hands of AGENT to imitate")
    ap.add_argument("--imitate-epochs", type=COUNT, default=8, help="passes over them")
    ap.add_argument("--imitate-minibatch", type=COUNT, default=1024,
                    help="the minibatch of the imitation and of the search's choices (a classification: many small "
                         "steps learn it better than PPO's few large ones)")
    ap.add_argument("--search-every", type=NATURAL, default=0, metavar="K",
                    help="every K updates, learn the search's choices too (expert iteration; 0: never)")
    ap.add_argument("--search-hands", type=COUNT, default=64, help="hands the search plays at every seat each time")
    ap.add_argument("--search-sims", type=COUNT, default=50, help="worlds the search plays a move")
    ap.add_argument("--search-epochs", type=COUNT, default=2, help="passes over its choices")
    return ap


def main(argv: Sequence[str] | None = None) -> int:
    """``brisca train``: 0 when the run stops as asked, 2 with one line on bad input or a missing dependency, 130
    on Ctrl-C."""
    started = time.monotonic()  # --minutes counts from here, the imports of the trainer included
    args = parser().parse_args(argv)
    words = ["brisca", "train", *(sys.argv[1:] if argv is None else argv)]
    try:
        import numpy  # noqa: F401
    except ImportError:
        print("brisca train: error: training needs numpy (and numba to be fast): pip install 'brisca[fast]'",
              file=sys.stderr)
        return 2
    from brisca.learn.run import train

    try:
        train(args, " ".join(words), time.monotonic, started)
    except BriscaError as exc:  # an unknown agent, an unreachable cluster: one line, not a traceback
        print(f"brisca train: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # (the run has said where it stopped)
        return 130
    return 0
