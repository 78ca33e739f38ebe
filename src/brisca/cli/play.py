"""Placeholder replaced by the terminal game."""

from __future__ import annotations

import argparse


def run_play(args: argparse.Namespace, options: dict[str, object]) -> int:
    raise NotImplementedError
