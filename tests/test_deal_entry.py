"""scorekeeper/deal_entry.py, the deal form's reading that the pages and the phone share.

The fields as the page posts them (name → values) read into the API entry, with no, one
and many shape problems; counts typed, tapped in the card counter, or both; an auction in
which everyone passed; a card chosen by rank and suit or by a special choice; a flag's
button. Then the pages' deal form, bound to a post or filled from a stored entry, reads what
the phone reads; the answers built on the reading (previews, refusals) are compared in
tests/test_phone.py.
"""

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from scorekeeper import deal_entry, engine
from scorekeeper.deal_entry import (
    COUNTS_MISSING,
    NOT_A_NUMBER,
    NOT_OFFERED,
    NUMBER_UNREADABLE,
    PASSED_WITH_A_BID,
    DealControls,
    counts_contradicted,
)
from scorekeeper.web.forms import deal_form
from scorekeeper.web.i18n import TRANSLATIONS
from tests.quick import sample
from tests.test_pages_rulesets import GAMES, form_fields


def controls(ruleset, players):
    config = engine.configure(
        ruleset=ruleset, players=players, first_dealer=0, target=None, house_rules={}
    )
    return DealControls.of(config)


def taps(**fields):
    """Return fields as posted: `game_points__0` names the box `game_points-0`."""
    return {name.replace("__", "-"): [str(value)] for name, value in fields.items()}


SHMEAR = controls("shmear", ["Ann", "Bob", "Cy"])
SCHMIER = controls("five-handed-schmier", ["Ann", "Bob", "Cy", "Di", "Ed"])
EUCHRE = controls("five-handed-euchre", ["Ann", "Bob", "Cy", "Di", "Ed"])

SHMEAR_DEAL = taps(
    number=4,
    auction__0="none",
    auction__1="3",
    bidder="1",
    bid="3",
    trump="H",
    high="1",
    low="0",
    jack="none",
    game="none",
    game_points__0="5",
    game_points__1="9",
    game_points__2="6",
)


def test_a_whole_deal_reads_into_the_api_entry_with_no_problem():
    read = SHMEAR.read(SHMEAR_DEAL)
    assert read.problems == {}
    assert read.entry == {
        "number": 4,
        "auction": [None, 3, None],
        "bidder": 1,
        "bid": 3,
        "trump": "H",
        "high": 1,
        "low": 0,
        "game": "none",  # a choice of the ruleset's own: nobody took game (a tie)
        "game_points": [5, 9, 6],
    }
    # A blank choice (the jack not in play) enters nothing, and is no problem of the form's:
    # the engine decides whether something is missing.
    assert "jack" not in read.entry
    assert read.opened == set(read.entry) - {"number"}


def test_one_problem_is_said_beside_its_field_and_the_rest_is_read():
    read = SHMEAR.read({**SHMEAR_DEAL, "game_points-2": [""]})
    assert read.problems == {"game_points": [COUNTS_MISSING]}
    assert "game_points" not in read.entry and read.entry["bidder"] == 1
    assert "game_points" in read.opened  # a field refused shows open


def test_many_problems_are_said_in_the_forms_order():
    posted = {
        **SHMEAR_DEAL,
        "number": ["4²"],
        "auction_passed": ["y"],
        "game_points-1": ["nine"],
    }
    read = SHMEAR.read(posted)
    assert list(read.problems) == [None, "auction", "game_points-1", "game_points"]
    assert read.problems[None] == [NUMBER_UNREADABLE]
    assert read.problems["auction"] == [PASSED_WITH_A_BID]
    assert read.problems["game_points-1"] == [NOT_A_NUMBER]
    assert read.problems["game_points"] == [COUNTS_MISSING]
    assert "number" not in read.entry and "auction" not in read.entry


@pytest.mark.parametrize("number", ["", "-1", " 4", "٤", "1" * 11, str(2**31)])
def test_a_deal_number_is_ascii_digits_within_what_the_database_holds(number):
    read = SHMEAR.read({**SHMEAR_DEAL, "number": [number]})
    assert "number" not in read.entry
    assert read.problems.get(None) == ([NUMBER_UNREADABLE] if number else None)


def test_counts_tapped_in_the_counter_are_the_counts_when_none_are_typed():
    # The bidders took 10♥ A♥ and the joker (15); the opponents 10♠ K♣ (13).
    cards = {"10H": "0", "AH": "0", "JOKER": "0", "10S": "1", "KC": "1"}
    tapped = {f"game_points_took_{card}": [side] for card, side in cards.items()}
    field = next(f for f in SCHMIER.described if f.name == "game_points")
    assert SCHMIER.counted(field, tapped) == (15, 13)
    assert SCHMIER.read(tapped).entry["game_points"] == {"bidders": 15, "opponents": 13}
    # Typed as tapped: read; typed otherwise: refused, with what the cards add up to.
    agreed = {**tapped, **taps(game_points__0=15, game_points__1=13)}
    assert SCHMIER.read(agreed).problems == {}
    typed = {**tapped, **taps(game_points__0=20, game_points__1=13)}
    assert SCHMIER.read(typed).problems == {"game_points": [counts_contradicted((15, 13))]}
    assert str(counts_contradicted((15, 13))).startswith("The cards tapped add up to 15, 13,")
    # Typed with no card tapped: the counts typed, by the keys the ruleset names.
    alone = SCHMIER.read(taps(game_points__0=20, game_points__1=20)).entry["game_points"]
    assert alone == {"bidders": 20, "opponents": 20}


@pytest.mark.parametrize("side", ["2", "x", "-1", "0 "])
def test_a_side_the_counter_does_not_offer_is_refused(side):
    read = SCHMIER.read({"game_points_took_AS": [side]})
    assert read.problems == {"game_points": [NOT_OFFERED]}
    field = next(f for f in SCHMIER.described if f.name == "game_points")
    with pytest.raises(ValueError):  # the pages catch it as any other bad value
        SCHMIER.counted(field, {"game_points_took_AS": [side]})


def test_an_auction_in_which_everyone_passed():
    passed = SHMEAR.read(taps(auction_passed="y")).entry
    assert passed == {"auction": [None, None, None]}
    assert SHMEAR.read(taps(auction_passed="false")).entry == {}  # the box unticked
    assert SHMEAR.read(taps(auction_passed="y", auction__2="none")).problems == {}
    refused = SHMEAR.read(taps(auction_passed="y", auction__2="moon"))
    assert refused.problems == {"auction": [PASSED_WITH_A_BID]}


def test_an_auction_ends_with_passes_unless_it_ends_with_the_highest_bid():
    assert SHMEAR.read(taps(auction__0="2")).entry["auction"] == [2, None, None]
    assert SHMEAR.read(taps(auction__0="moon")).entry["auction"] == ["moon"]
    assert SHMEAR.read(taps(auction__1="none")).entry["auction"] == [None, None, None]
    # Where there is no "everyone passed" box, the box's name enters nothing.
    assert SCHMIER.read(taps(auction_passed="y")).entry == {}


def test_a_card_is_its_rank_and_suit_or_a_special_choice():
    assert EUCHRE.special_cards == {"called_card": {"2S", "2H"}}
    read = EUCHRE.read(taps(called_card_rank="A", called_card_suit="H"))
    assert read.entry == {"called_card": "AH"}
    assert EUCHRE.read(taps(called_card_rank="2S", called_card_suit="D")).entry == {
        "called_card": "2S"
    }
    assert EUCHRE.read(taps(called_card_rank="none", called_card_suit="D")).entry == {}


def test_a_flag_enters_only_itself_and_the_deal_number():
    posted = {**SHMEAR_DEAL, "forfeit": ["1"], "game_points-1": ["x"]}
    flag = SHMEAR.flag_posted(posted)
    assert flag == "forfeit"
    read = SHMEAR.read(posted, flag)
    assert read.entry == {"number": 4, "forfeit": True}
    assert read.problems == {}
    assert SHMEAR.flag_posted(SHMEAR_DEAL) is None


def test_a_value_the_form_does_not_offer_enters_nothing():
    read = SHMEAR.read(taps(bidder="7", trump="X", bid="9"))
    assert read.entry == {} and read.problems == {}


@pytest.mark.parametrize("language", sorted(p.name for p in TRANSLATIONS.iterdir() if p.is_dir()))
def test_every_refusal_is_translated_in_every_language(language):
    """The refusals are the very msgids the catalogs translate (WTForms' own, a count box's,
    is in WTForms' catalog instead)."""
    path = Path(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    with path.open("rb") as po:
        catalog = read_po(po)
    refusals = [
        value
        for value in vars(deal_entry).values()
        if isinstance(value, engine.Message) and value is not NOT_A_NUMBER
    ]
    refusals.append(counts_contradicted((1, 2)))
    assert len(refusals) == 5
    for refusal in refusals:
        found = catalog.get(refusal.template)
        assert found is not None and found.string, (language, refusal.template)
    assert catalog.get(NOT_A_NUMBER.template) is None


@pytest.mark.parametrize(
    "example", sample(GAMES), ids=[f"{game['ruleset']}: {game['about']}" for game in sample(GAMES)]
)
def test_the_pages_form_reads_as_the_phone_reads_the_same_fields(app, example):
    """Every deal of a worked game: the pages' deal form bound to the fields the page posts,
    and filled from the stored entry (a correction), reads what the phone's reading of those
    fields reads."""
    config = engine.configure(
        ruleset=example["ruleset"],
        players=example["players"],
        first_dealer=example["first_dealer"],
        target=example["target"],
        house_rules=example.get("house_rules") or {},
    )
    shared = DealControls.of(config)
    for number, entry in enumerate(example["deals"], start=1):
        if any(entry.get(flag) for flag in ("thrown_in", "forfeit")):
            continue
        fields = {**form_fields(example["ruleset"], entry), "number": str(number)}
        phone = shared.read({name: [value] for name, value in fields.items()})
        assert phone.problems == {}, entry
        with app.test_request_context(method="POST", data=fields):
            posted = deal_form(config, 0)
            assert posted.to_entry() == phone.entry
            filled = deal_form(config, 0, number=number, fresh=True)
            filled.fill_from(entry)
            assert filled.to_entry() == phone.entry
