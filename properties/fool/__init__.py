"""Fool (Friedemann Friese's FOOL!, 4-8 players) stated as properties.

Read from rules.md §1 and protocol.md §4 "fool" without the reference engine.
Every player sheds cards into tricks; the highest card of the lead colour
wins and leads next, and the player(s) of the worst card(s) become the fool(s)
and sit out the next trick.  A round ends after the first trick that empties a
hand: +10 for going out, 0 for going out as a fool of that trick, minus the
cards left (a 1 costs 5) otherwise.  The game ends at -80 (net total, or gross
penalties with ``loss: gross``) or on a sixth +10; the highest total wins.

Covered: FOOL-SETUP-1..6, FOOL-DEAL-1, FOOL-TURN-1/2, FOOL-LEAD-1,
FOOL-COLOUR-1, FOOL-WILD-1/2, FOOL-FOLLOW-1/2, FOOL-OFF-1, FOOL-WIN-1/2,
FOOL-WORST-1..4, FOOL-SIT-1..3, FOOL-END-1, FOOL-SCORE-1..4, FOOL-GAME-1/2 and
the invariants FOOL-INV-1..11.  The deck per player count is computed here from
the ``deck`` option (A-FOOL-DECK table, or an explicit deck object).

Every transition is judged from the engine's own state: the trick is the cards
the engine collected, its fools and next leader are the ones it names, a round
is scored against the fools it reports.  One deviation (a wrong fool, a seat
skipped) is reported where it happens and switches no later check off.

Left open by the contract, so never failed here: when ``dealer`` moves between
rounds (only the dealer named after each deal is checked), ``leader`` on an
empty trick (null or the seat to act), where the final trick's cards lie
between rounds (``trick`` or ``played``), the order of cards in a hand, and
whether empty zones are present.

The package:

- the model of the rules: ``cards`` (the box, the round deck P(n), k(n), the lead colour, the worst-card
  order, the winner, the cards a hand may play, as pure functions); ``worst`` (which rule a wrong set of
  fools breaks, by the smallest misreading);
- what the checks of a step share: ``trick`` (the trick the engine completed, resolved by the rules,
  and the cards the seat to act may play, worked out once), ``conservation`` (FOOL-INV-1 on one
  state), ``reporting`` (findings built only when they fail);
- what to draw and send: ``strategies`` (setups, explicit decks, the steering towards a sixth +10 and
  a shared win), ``probes`` (moves the rules forbid), ``props`` (``FoolProperties``: the kit's hooks);
- the checks, by rule section: ``check_deck``, ``check_deal``, ``check_play``, ``check_turn``,
  ``check_trick``, ``check_end``, ``check_score``, ``check_game`` and ``check_legal``.
"""

from __future__ import annotations

# the checks register on ``props.checks`` as imported, in this order (not the alphabet's): a step's
# findings are reported in it, so a trick or round-end finding comes before the legal-moves one
# isort: off
from ruleproof.properties.fool import check_deck  # noqa: F401 - imported to register its checks
from ruleproof.properties.fool import check_deal  # noqa: F401
from ruleproof.properties.fool import check_play  # noqa: F401
from ruleproof.properties.fool import check_turn  # noqa: F401
from ruleproof.properties.fool import check_trick  # noqa: F401
from ruleproof.properties.fool import check_end  # noqa: F401
from ruleproof.properties.fool import check_score  # noqa: F401
from ruleproof.properties.fool import check_game  # noqa: F401
from ruleproof.properties.fool import check_legal  # noqa: F401

# isort: on
from ruleproof.properties.fool.cards import (
    ASSUMED_2018,
    deck_cards,
    deck_size,
    hand_size,
    lead_colour,
    profile,
    winner_index,
    worst_order,
)
from ruleproof.properties.fool.props import FoolProperties
from ruleproof.properties.fool.strategies import arranged, explicit_deck, favourites
from ruleproof.properties.fool.trick import Trick
from ruleproof.properties.fool.worst import misjudged

__all__ = [
    "ASSUMED_2018",
    "FoolProperties",
    "Trick",
    "arranged",
    "deck_cards",
    "deck_size",
    "explicit_deck",
    "favourites",
    "hand_size",
    "lead_colour",
    "misjudged",
    "profile",
    "winner_index",
    "worst_order",
]
