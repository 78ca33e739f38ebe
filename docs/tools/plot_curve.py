"""Plot a training run's curve (``curve.jsonl`` of ``brisca train``) for the docs: the network's score against each
yardstick, by self-play hands, with its 95% interval; and the policy's entropy.

    python docs/tools/plot_curve.py docs/curves/net-two-player.jsonl docs/img/net-two-player.svg

Needs matplotlib (the ``docs`` extra).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def plot(rows: list[dict[str, Any]], out: Path, title: str = "") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "brisca"  # the same file for the same curve
    evals: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if "eval" in r:
            evals[(r["preset"], r["eval"])].append(r)
    updates = [r for r in rows if "entropy" in r and "eval" not in r]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7.5, 6.0), sharex=True, height_ratios=(3, 1),
                                      layout="constrained")
    for (preset, opponent), points in sorted(evals.items()):
        x = [p["games"] / 1000 for p in points]
        top.errorbar(x, [p["score"] for p in points],
                     yerr=[[p["score"] - p["low"] for p in points], [p["high"] - p["score"] for p in points]],
                     marker="o", capsize=3, label=f"{preset} vs {opponent} ({points[0]['eval_games']} games)")
    top.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    top.set_ylabel("score (95% interval)")
    top.set_ylim(0, 1)
    top.legend(fontsize="small", loc="lower right")
    if title:
        top.set_title(title)
    bottom.plot([r["games"] / 1000 for r in updates], [r["entropy"] for r in updates], linewidth=0.8)
    bottom.set_ylabel("policy entropy")
    bottom.set_xlabel("self-play hands (thousands)")
    fig.savefig(out, metadata={"Date": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("curve", type=Path, help="a run's curve.jsonl")
    ap.add_argument("out", type=Path, help="the picture to write (.svg or .png)")
    ap.add_argument("--title", default="")
    args = ap.parse_args(argv)
    plot(read(args.curve), args.out, args.title)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
