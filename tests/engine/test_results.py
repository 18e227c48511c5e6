"""Deal documents as API.md writes them, and outcomes."""

import json

from scorekeeper.engine import DealResult, Outcome

from .builders import deal, result, start

DOCUMENT = {
    "number": 1,
    "dealer": 0,
    "thrown_in": False,
    "bidder": 1,
    "bid": 4,
    "trump": "H",
    "called_card": "KH",
    "partner": 3,
    "auction": None,
    "high": 3,
    "low": 0,
    "jack": 1,
    "off_jack": 2,
    "joker": 1,
    "game_points": {"bidders": 27, "opponents": 18},
    "game": "bidders",
    "bidders": [1, 3],
    "points": {"bidders": 4, "opponents": 2},
    "made": True,
    "deltas": [2, 4, 2, 4, 2],
    "scores": [2, 4, 2, 4, 2],
}
"""API.md's example deal document, as deal 1 dealt by Ann."""


def test_deal_document_has_api_md_fields_in_order_and_values():
    doc = result(start(), deal()).to_document()
    assert list(doc) == list(DOCUMENT)
    assert doc == DOCUMENT
    assert json.loads(json.dumps(doc)) == doc


def test_thrown_in_deal_document_is_null_but_for_number_dealer_auction_deltas_scores():
    doc = result(start(first_dealer=4), {"thrown_in": True, "auction": [None] * 5}).to_document()
    assert doc == {
        **dict.fromkeys(DOCUMENT),
        "number": 1,
        "dealer": 4,
        "thrown_in": True,
        "auction": [None] * 5,
        "deltas": [0] * 5,
        "scores": [0] * 5,
    }


def test_deal_result_rebuilds_from_its_stored_document():
    done = result(start(), deal(auction=[4, None, None, None, None]))
    stored = json.loads(json.dumps(done.to_document()))
    assert DealResult.from_document(stored) == done


def test_outcome_is_finished_unless_in_progress():
    assert not Outcome("in_progress", (), None, "Nobody has reached 21 yet.").finished
    assert Outcome("won", (1,), "highest", "Bob wins.").finished
    assert Outcome("shared", (1, 2), "shared", "Bob and Cy share.").finished
