"""Three-Player Moon (domino trick-taking, 3 players) stated as properties.

Read from rules.md §3 and protocol.md §4 "moon" without the reference engine:
the 22-tile set (no blank suit but the [0-0]), the deal of 7/7/7 and a widow,
one round of bidding from the first-bidder seat (which moves one seat
clockwise every hand, void all-pass hands included) with strictly increasing
bids from {4, 5, 6, 7, 21} and 21 closing the auction, the all-pass rule
(redeal or forced bid), the widow exchange, the trump choice (0-6, doubles if
allowed, none), leading and following (a trump lead calls for trumps, else the
led tile's higher end names the suit and any non-trump tile carrying it
follows), the trick winner (highest trump, else highest of the led suit; a
double heads its suit unless doubles are trump, doubles as trump by pips), the
seven tricks, the scoring of the declarer and the opponents, the shoot-the-moon
bid and the end rule with ties.  Clauses: MOON-SETUP-1/2, MOON-DEAL-1,
MOON-BID-1..6, MOON-WIDOW-1, MOON-TRUMP-1..4, MOON-RANK-1..3, MOON-LEAD-1..3,
MOON-FOLLOW-1..3, MOON-WIN-1/2, MOON-SCORE-1..3, MOON-END-1/2 and the
invariants MOON-INV-1..10.

Every transition is judged from the engine's own state: the declarer, the bids, the contract, the
first bidder and the tricks taken are read from the state before the move, never from a record of
the kit's, so one wrong declarer is one MOON-BID-5 and not a wrong widow, lead and score after it.
A wrong list of plays or a wrong trick winner is filed under the one reading of §3.2 that explains
it (a led double calling the doubles, a trump keeping its other suit, the first trump winning:
``follow_readings``, ``winner_readings``); one that two rules' readings explain alike is left to the
positions that tell them apart.  A trick put on the wrong won stack is also MOON-INV-6 (tiles out of
place), a tile wrongly listed and played MOON-INV-5, an action the rules forbid applied MOON-INV-3.

The package:

- the model: ``tiles`` (the constants and the rules of the tiles, rules.md §3.2, as pure functions),
  ``state`` (the engine's state read: declarer, bids, hands, won stacks, the trick a play completes;
  the conservation of the tiles), ``moves`` (the moves the kit builds);
- ``readings``: which rule a wrong list of plays or a wrong trick winner breaks (``follow_readings``,
  ``winner_readings``, ``follow_clause``, ``winner_clause``, ``resolve``);
- ``listing``: a fixture's legal-move difference read by the same rules (``listing_clause``);
- what to draw and send: ``strategies`` (setups, bids, the play policy of a hand), ``probes`` (moves
  the rules forbid), ``props`` (``MoonProperties``: the kit's hooks and what a game's checks share);
- the checks, by rule section: ``check_tiles``, ``check_deal``, ``check_bidding``, ``check_widow``,
  ``check_follow``, ``check_trick`` and ``check_score``.
"""

from __future__ import annotations

# the checks register on ``props.checks`` as imported and run on every step in that order: the order of
# the rules' sections (and of the single module they were), kept out of the import sorter's hands
# isort: off
from ruleproof.properties.moon import check_tiles  # noqa: F401 - imported to register its checks
from ruleproof.properties.moon import check_deal  # noqa: F401
from ruleproof.properties.moon import check_bidding  # noqa: F401
from ruleproof.properties.moon import check_widow  # noqa: F401
from ruleproof.properties.moon import check_follow  # noqa: F401
from ruleproof.properties.moon import check_trick  # noqa: F401
from ruleproof.properties.moon import check_score  # noqa: F401

# isort: on
from ruleproof.properties.moon.props import MoonProperties

__all__ = ["MoonProperties"]
