"""A fixture's listing difference is filed by the listing checks' rule logic (``listing_clause``), not
under the clause its step cites: one bug reads as one clause whichever found it (issue 28 item 4)."""

from __future__ import annotations

from ruleproof.model.findings import Finding
from ruleproof.model.fixtures import bundled
from ruleproof.properties import properties_for
from ruleproof.properties.base import Ledger
from ruleproof.reference import ReferenceEngine
from ruleproof.reference.idiot import Cards, Idiot, IdiotOptions
from ruleproof.run.fixtures import run_fixture
from ruleproof.transport.checked import CheckedEngine


class FiveBelowFour(Idiot):
    """A 5 may not go on a 4: a comparison the properties hold back until the other way round (a 4 on a 5) is
    seen, since an order of the ranks (4 above 5) explains it as well as a rule of its own."""

    def may_play_on(self, card_rank: str, pile: Cards, options: IdiotOptions) -> bool:
        if self.effective_top(pile) == "4" and card_rank == "5":
            return False
        return super().may_play_on(card_rank, pile, options)


def _run(fixture_id: str, engine: Idiot) -> list[Finding]:
    fx = next(f for f in bundled("idiot") if f.id == fixture_id)
    seen: list[Finding] = []
    run_fixture(
        fx, CheckedEngine(ReferenceEngine([engine])), properties_for("idiot"), Ledger(), lambda f, _: seen.append(f)
    )
    return seen


def test_a_scripted_listing_is_filed_under_the_rank_rule_it_breaks() -> None:
    # I-D5 expects 5C listed on the 4 that followed a 2 (its step cites IDIOT-TWO-2, the follow-up): the engine
    # leaves it out, a comparison of two ranks that the properties hold back (seen one way only); the fixture
    # cannot wait, and files it as an applied move is filed: seen one way only, a rule of its own (a 4 that
    # caps, a 5 refused) is the smaller difference than a new order, IDIOT-PLAY-2
    seen = _run("I-D5-two-on-ace-then-four", FiveBelowFour())
    assert [(f.clause, f.signature.split(":")[0]) for f in seen] == [("IDIOT-PLAY-2", "fixture")], [
        (f.clause, f.message) for f in seen
    ]


def test_a_listing_the_properties_have_no_reading_of_keeps_the_fixtures_clause() -> None:
    # the reference lists what the rules allow: the fixture passes, nothing is filed
    assert _run("I-D5-two-on-ace-then-four", Idiot()) == []
