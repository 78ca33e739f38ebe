"""Every option against every preset: a value that changes nothing is refused in one line saying what it needs,
and a value accepted changes the rules the pages state.

Each option states what it needs to have an effect (``Option.counts``, ``Option.needs``); these tests try every
option with each of its other values on every preset, so that an option left out of that statement shows up
here: it is accepted, and the rules written out from it (:func:`brisca.rulebook.rules_lines`) stay the same.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from brisca import RulesError, find_variant
from brisca import rules as R
from brisca.rulebook import rules_lines
from brisca.rules import OPTIONS, Rules, variant_names

#: The values of the options that name one of a few.
CHOICES: dict[str, tuple[str, ...]] = {
    "trump_exchange": R.TRUMP_EXCHANGE_MODES, "follow": R.FOLLOW_MODES, "follow_from": R.FOLLOW_FROM,
    "tie": R.TIE_MODES, "match": R.MATCH_MODES, "partners": R.PARTNER_MODES, "signals": R.SIGNAL_MODES,
    "signal_set": R.SIGNAL_SETS, "hand_winner": R.HAND_WINNER, "card_names": R.CARD_NAMES, "deal": R.DEAL_MODES,
    "cutter": R.CUTTERS, "dealer_draw": R.DEALER_DRAWS, "trump_from": R.TRUMP_FROM, "bidding": R.BIDDING_MODES,
    "call_time": R.CALL_TIMES, "all_pass": R.ALL_PASS, "contract": R.CONTRACT_MODES,
    "declarations": R.DECLARATIONS, "lead_two": R.LEAD_TWO, "capote": R.CAPOTE_MODES,
    "auction_direction": R.AUCTION_DIRECTIONS, "claim_by": R.CLAIM_BY, "face_up_to": R.FACE_UP_TO,
    "reached_together": R.REACHED_TOGETHER,
}


def other_values(rules: Rules, name: str) -> list[Any]:
    """Values of option ``name`` other than the preset's, a few of each kind."""
    current = getattr(rules, name)
    if name in CHOICES:
        values: list[Any] = list(CHOICES[name])
    elif isinstance(current, bool):
        values = [True, False]
    elif name == "deck":
        values = [40, 48]
    elif isinstance(current, int):
        values = [current + 1, current - 1, 11, 0]
    elif name == "rank_order":
        values = [[3, 1, 12, 11, 10, 7, 6, 5, 4, 2]]
    elif name == "points":
        values = [{"1": 11, "3": 10, "12": 5}]
    elif name == "exchange_with":
        values = [{"7": [1, 3]}]
    elif name == "cut_ways":
        values = [["alce", "golpe"]]
    else:
        raise AssertionError(f"no values to try for option {name!r}")
    return [v for v in values if v != current]


def test_every_option_has_values_to_try() -> None:
    spanish = find_variant("spanish")
    assert all(other_values(spanish, name) for name in OPTIONS)


@pytest.mark.parametrize("variant", variant_names())
@pytest.mark.parametrize("name", list(OPTIONS))
def test_an_option_either_counts_or_is_refused(variant: str, name: str) -> None:
    """Each other value is refused in one line, or accepted and then the rules say something else."""
    base = find_variant(variant)
    before = rules_lines(base)
    for value in other_values(base, name):
        try:
            changed = base.with_options({name: value})
        except RulesError as exc:
            assert str(exc) and "\n" not in str(exc)
            continue
        if changed == base:
            continue  # (another spelling of the preset's value)
        assert rules_lines(changed) != before, f"{variant}: {name}={value!r} is accepted and changes nothing"


@pytest.mark.parametrize(("variant", "options", "needs"), [
    ("chiamata", {"trump_exchange": "after_win"}, "a face-up card in the stock"),
    ("chilean", {"trump_exchange": "after_win"}, "a face-up card in the stock"),
    ("rematada", {"trump_exchange": "after_win"}, "a face-up card in the stock"),
    ("spanish", {"trump_rotation": True, "trump_exchange": "any_time"}, "a face-up card in the stock"),
    ("chiamata", {"big_win": True}, "'contract: off'"),
    ("rematada", {"big_win": True}, "'contract: off'"),
    ("mariaje", {"big_win": True}, "'contract: off' and a match counted in hands or game points"),
    ("scoperta", {"partners_look": True}, "a player count played in partnerships and 'open_hands: false'"),
    ("spanish", {"teams": False, "partners_look": True}, "a player count played in partnerships"),
    ("scoperta", {"deal_look": True}, "a player count played in partnerships and 'open_hands: false'"),
    ("chiamata", {"signals": "partner"}, "a player count played in partnerships"),
    ("bixkla", {"signal_asks": True}, "'signals' with 'signal_set: spanish'"),
    ("chiamata", {"tie": "replay"}, "'contract: off'"),
    ("rematada", {"hand_winner": "least"}, "'contract: off'"),
    ("rematada", {"teams": True}, "4 or 6 players"),
])
def test_the_issue_cases_are_refused(variant: str, options: dict[str, Any], needs: str) -> None:
    """Options that change nothing in these presets: no face-up card to exchange (the trump is called, every card
    is dealt, no card is turned), no big win under a contract or a count of card points, nobody to look at under
    open hands or without partners."""
    name = list(options)[-1]
    with pytest.raises(RulesError) as err:
        find_variant(variant).with_options(options)
    assert str(err.value).startswith(f"option {name!r} has no effect here: it counts only with {needs}")


def test_the_command_line_refuses_an_inert_option_in_one_line() -> None:
    """``brisca rules chiamata -r trump_exchange=after_win``: exit status 2, one line, no traceback."""
    out = subprocess.run([sys.executable, "-m", "brisca", "rules", "chiamata", "-r", "trump_exchange=after_win"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().startswith("brisca: error: option 'trump_exchange' has no effect here")
    assert len(out.stderr.splitlines()) == 1


def test_what_counts_is_kept() -> None:
    """The same options where they count are accepted."""
    assert find_variant("spanish").with_options(big_win=True).big_win
    assert find_variant("briscola").with_options(trump_exchange="after_win").trump_exchange == "after_win"
    assert find_variant("briscola").with_options(partners_look=False).partners_look is False
    assert find_variant("scoperta").with_options(open_hands=False, partners_look=True).partners_look
    assert find_variant("mariaje").with_options(match="target_hands", big_win=True).big_win
    assert find_variant("spanish").with_options(claim=True, claim_by="side").claim_by == "side"
    assert find_variant("chiamata").with_options(cutter="right").cutter == "right"  # who cuts the deck


def test_every_option_says_what_it_needs() -> None:
    """An option with a condition names it (the refusal's text), and none names one it does not have."""
    for option in OPTIONS.values():
        assert (option.counts is None) == (option.needs == ""), option.name
