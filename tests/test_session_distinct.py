"""CONTRACT-MOVES-1 (each legal move listed once) is judged by a cheaper key first; it must still catch
every duplicate that ``move_key`` would (moves compare after sorting card lists)."""

from __future__ import annotations

from typing import Any

from ruleproof.model.findings import Setup
from ruleproof.properties import properties_for
from ruleproof.properties.base import Ledger
from ruleproof.properties.contract import CONTRACT_DISTINCT
from ruleproof.reference import ReferenceEngine
from ruleproof.run.session import Session, _surely_distinct
from ruleproof.transport.checked import CheckedEngine


def test_distinct_moves_are_recognised_without_move_keys() -> None:
    passes = ({"type": "pass", "cards": ["AS", "KS", "QS"]}, {"type": "pass", "cards": ["AS", "KS", "JS"]})
    assert _surely_distinct(passes)
    assert _surely_distinct(({"type": "play", "tile": "6-6"}, {"type": "play", "tile": "6-5"}))


def test_moves_equal_by_move_key_are_never_called_distinct() -> None:
    assert not _surely_distinct(
        ({"type": "pass", "cards": ["AS", "KS", "QS"]}, {"type": "pass", "cards": ["QS", "AS", "KS"]})
    )
    assert not _surely_distinct(({"cards": ["2C"], "type": "play"}, {"type": "play", "cards": ["2C"]}))
    # fields the cheap key leaves out make it ask move_key (which tells these apart)
    assert not _surely_distinct(({"type": "bid", "value": 4}, {"type": "bid", "value": 5}))
    # a field that cannot be hashed or sorted: ask move_key
    assert not _surely_distinct(({"type": "x", "card": ["a"]}, {"type": "x", "card": ["b"]}))
    assert not _surely_distinct(({"type": "x", "cards": [1, "a"]}, {"type": "x", "cards": ["b"]}))


class ListsAPassTwice(ReferenceEngine):
    """Lists its first pass again with the cards in another order."""

    def legal_moves(self) -> list[Any]:
        moves = super().legal_moves()
        if moves and moves[0].get("type") == "pass":
            return [*moves, {"type": "pass", "cards": list(reversed(moves[0]["cards"]))}]
        return moves


def test_a_pass_listed_twice_in_another_card_order_fails_contract_moves_1() -> None:
    game = "black-maria"
    props = properties_for(game)
    engine = CheckedEngine(ListsAPassTwice())
    found: list[str] = []
    session = Session(engine, props, Ledger(), lambda finding, _: found.append(finding.clause))
    snap = session.start(Setup(game, 4, 0, {"scoring": "standard", "target": 100}))
    deck = list(snap.zone("deck"))
    session.apply({"type": "deal", "hands": [deck[i * 13 : (i + 1) * 13] for i in range(4)]})
    assert CONTRACT_DISTINCT in found
