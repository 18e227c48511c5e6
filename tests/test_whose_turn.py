"""Whose turn: every game page says who deals, who bids first and what the dealer prepares."""

import html
import re

from tests.conftest import DEAL


def words(page_html):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page_html)).split())


def deal_entry(page_html, section="deal-entry"):
    return re.search(rf'<section id="{section}".*?</section>', page_html, re.S).group(0)


def test_the_editors_deal_form_starts_with_whose_turn_and_the_deal(client, api):
    game = api.create()
    client.get(f"/games/{game['id']}/edit/{game['edit_token']}")
    entry = deal_entry(client.get(f"/games/{game['id']}").get_data(as_text=True))
    head = words(entry[: entry.index("<form")])
    assert "Deal 1 Ann deals · Bob bids first" in head
    assert "What the dealer prepares" in head
    assert "Take every 2 and 3 out of a 52-card pack and add one joker: 45 cards." in head
    assert "the dealer keeps the other 15 as a stock" in head
    assert re.search(r'<details class="deal-setup" open>', entry)  # open before deal 1


def test_a_phone_that_follows_the_game_is_told_too_and_live(client, api):
    game = api.create(ruleset="five-handed-euchre")
    shown = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert 'id="deal-entry"' not in shown  # no deal entry, and no form
    entry = deal_entry(shown, "following")
    assert "<form" not in entry
    said = words(entry)
    assert "Ann deals · Bob bids first" in said
    assert "Deal five cards to each player; the other five form the kitty." in said
    api.add(game, {"bidder": 1, "trump": "H", "called_card": "AH", "partner": 3, "tricks": 5})
    live = client.get(f"/games/{game['id']}/live", headers={"HX-Request": "true"})
    part = live.get_data(as_text=True)
    oob = re.search(r'<section id="following"[^>]*hx-swap-oob="true".*?</section>', part, re.S)
    assert oob, "the live answer does not bring whose turn"
    assert "Bob deals · Cy bids first" in words(oob.group(0))
    assert '<details class="deal-setup">' in oob.group(0)  # folded after the first deal


def test_whose_turn_in_the_pages_language(client, api):
    game = api.create(ruleset="shmear-kitty", players=["Ann", "Bob", "Cy"])
    said = words(
        client.get(f"/games/{game['id']}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    )
    assert "Ann gibt · Bob bietet zuerst" in said
    assert "Was der Geber vorbereitet" in said
    assert "drei kommen in den Stock" in said


def test_nobody_deals_once_the_game_is_won(client, api):
    game = api.create(target=4)
    api.add(game, DEAL)
    said = words(client.get(f"/games/{game['id']}").get_data(as_text=True))
    assert "bids first" not in said and "What the dealer prepares" not in said
