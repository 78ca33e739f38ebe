"""The agent interface."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from brisca.actions import Action
from brisca.game import View


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(view) -> Action``; it sees only what its seat may see."""

    def act(self, view: View) -> Action:
        """Choose one of ``view.legal_actions``."""
        ...
