"""Rulesets as `GET /api/v1/rulesets` lists them."""

import pytest

from scorekeeper.engine import RuleViolation, configure, get_ruleset, rulesets


def test_rulesets_lists_five_handed_schmier_exactly_as_api_md():
    assert rulesets()[0].describe() == {
        "id": "five-handed-schmier",
        "name": "Five-Handed Schmier",
        "players": {"min": 5, "max": 5},
        "target": 21,
        "teams": None,
        "house_rules": {
            "partner_breaks_ties": {"values": [True, False], "default": True},
            "unresolved_tie": {"values": ["play_on", "shared"], "default": "play_on"},
            "joker_callable": {"values": [True, False], "default": False},
        },
    }


def test_get_ruleset_finds_a_ruleset_by_id():
    assert get_ruleset("five-handed-schmier").name == "Five-Handed Schmier"


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Five-Handed-Schmier", id="wrong-case"),
        pytest.param("schmier", id="unknown"),
        pytest.param("", id="empty"),
    ],
)
def test_get_ruleset_refuses_an_unknown_id_naming_ruleset(name):
    with pytest.raises(RuleViolation) as info:
        get_ruleset(name)
    assert set(info.value.problems) == {"ruleset"}


def test_five_handed_entry_fields_are_api_md_fields():
    rules = get_ruleset("five-handed-schmier")
    table = configure(rules.id, ["Ann", "Bob", "Cy", "Di", "Ed"], 0)
    assert {field.name for field in rules.entry_fields(table)} == {
        "bidder",
        "bid",
        "trump",
        "called_card",
        "partner",
        "auction",
        "high",
        "low",
        "jack",
        "off_jack",
        "joker",
        "game_points",
        "game",
        "thrown_in",
    }


@pytest.mark.parametrize("rules", rulesets(), ids=lambda rules: rules.id)
def test_player_extras_give_each_player_exactly_the_counts_the_ruleset_declares(rules):
    config = configure(rules.id, [f"P{n}" for n in range(rules.max_players)], 0)
    extras = rules.player_extras(config, [])
    assert len(extras) == config.seats
    for seat_extras in extras:
        assert dict(seat_extras) == {extra.key: 0 for extra in rules.extras}
    # Only the four Shmear games count something beside the score: each player's smucks.
    shmear = rules.id in {"shmear", "shmear-high-low", "shmear-partners", "shmear-kitty"}
    assert [extra.key for extra in rules.extras] == (["smucks"] if shmear else [])
    for extra in rules.extras:
        assert (extra.words.one, extra.words.other) == ("%(num)s smuck", "%(num)s smucks")


def test_an_entry_fields_choice_is_found_by_its_value_and_none_otherwise():
    for ruleset in rulesets():
        players = [f"P{n}" for n in range(ruleset.max_players)]
        config = configure(ruleset=ruleset.id, players=players, first_dealer=0)
        for field in ruleset.entry_fields(config):
            for choice in field.choices:
                assert field.choice(choice.value) is choice
            assert field.choice("no such value") is None
