"""Share a game: view and edit links with QR codes, the live scoreboard, revoking edit rights.

A game has two links. The view link is the game's own address: anyone holding it follows
the game read-only. The edit link carries the edit token; opening it stores the token in
this browser's signed session cookie and redirects to the plain game address, so the
token leaves the address bar. Every change re-checks the stored token against the game's
hash, so making a new token (rotating) revokes every older link, session and API client
at once.
"""

import ipaddress
import json
import socket
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from markupsafe import Markup
from werkzeug.http import quote_etag

from scorekeeper import devices, games, keyring, store
from scorekeeper.forms import SUIT_NAMES, ConfirmForm, card_words
from scorekeeper.htmx import wants_fragment

bp = Blueprint("sharing", __name__)

POLL_INTERVAL = "2s"
# Side of a QR code in CSS pixels: about 5 cm on a phone, readable across a table.
QR_PIXELS = 300
# Private addresses a UDP socket is "connected" to (no packet is sent) to learn which
# interface leads to the local network, so a laptop opened at 127.0.0.1 shares its LAN address.
_PROBES = ("10.255.255.254", "172.31.255.254", "192.168.255.254")
_NO_STORE = "no-store"


# --- views -----------------------------------------------------------------------------


@bp.get("/games/<game_id>/edit/<token>")
def join(game_id, token):
    """Let this browser edit the game when the token is right, then drop the token from the URL."""
    game = _load(game_id)
    g.carries_token = True
    if not store.check_edit_token(game, token):
        page = render_template("games/edit_link_invalid.html", game_id=game.id)
        return page, 403
    games.grant_edit(game.id, token)
    games.remember(game.id)
    flash(_("This device can now enter and correct deals."))
    return redirect(url_for("games.show", game_id=game.id), 303)


@bp.post("/games/<game_id>/edit-link")
def rotate(game_id):
    """Make a new edit token: every older edit link, session and API token stops working."""
    game = _load(game_id)
    games.require_edit(game)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    token = store.rotate_edit_token(game)
    games.grant_edit(game.id, token)
    flash(
        _(
            "New edit link made. Old edit links and API tokens no longer work; "
            "share the new link with whoever should keep entering deals."
        )
    )
    return redirect(url_for("games.show", game_id=game.id, _anchor="share"), 303)


@bp.get("/games/<game_id>/live")
def live(game_id):
    """Answer the poll of an open game page: 304 while nothing changed, else the new parts.

    The page sends the ETag of what it shows in `If-None-Match` (set by `hx-headers`), so
    an unchanged game costs one small query and no rendering.
    """
    if not wants_fragment():
        return redirect(url_for("games.show", game_id=game_id), 303)
    game = _load(game_id, deals=False)
    can_edit = games.can_edit(game)
    etag = live_etag(game.version, can_edit)
    if request.if_none_match.contains(etag):
        return _live_headers(make_response("", 304), etag)
    # The page was an editor's and this browser's token no longer works: say so where
    # the deal form is, or its next save would silently fail.
    revoked = not can_edit and request.headers.get("If-None-Match", "").endswith('-e"')
    game = _load(game_id)
    context = games.game_context(game)
    response = make_response(render_template("games/_live.html", revoked=revoked, **context))
    return _live_headers(response, etag)


# --- template helpers ------------------------------------------------------------------


def live_etag(version, can_edit):
    """Return the ETag (unquoted) of a game page's live parts: they vary by version and rights."""
    return f"{version}-{'e' if can_edit else 'v'}"


@bp.app_template_global()
def live_attributes(game_id, version, can_edit):
    """Return the htmx attributes that make the scoreboard poll for changes."""
    headers = json.dumps({"If-None-Match": quote_etag(live_etag(version, can_edit))})
    return Markup(
        'data-live hx-get="{url}" hx-trigger="every {every}" hx-swap="outerHTML"'
        ' hx-headers="{headers}"'
    ).format(url=url_for("sharing.live", game_id=game_id), every=POLL_INTERVAL, headers=headers)


@bp.app_template_global()
def share_links(game_id, can_edit):
    """Return the view link and, for a browser that may edit, the edit link, each with a QR code."""
    base = public_base_url()
    view_url = base + url_for("games.show", game_id=game_id)
    links_loopback = _is_loopback(urlsplit(base).netloc)
    links = {
        "view_url": view_url,
        "view_qr": qr_svg(view_url, _("QR code of the view link")),
        "edit_url": None,
        "edit_qr": None,
        # Opened on the server itself: the links use its LAN address, or (none found) are
        # of no use to the phones; either way the page says how to serve the network.
        "lan_rewritten": (
            _is_loopback(request.host)
            and not links_loopback
            and not current_app.config.get("PUBLIC_URL")
        ),
        "loopback_only": links_loopback,
    }
    token = keyring.token("edit", game_id) if can_edit else None
    if token:
        edit_url = base + url_for("sharing.join", game_id=game_id, token=token)
        links["edit_url"] = edit_url
        links["edit_qr"] = qr_svg(edit_url, _("QR code of the edit link"))
        g.carries_token = True
    return links


@bp.app_template_filter("device_name")
def device_name(label):
    """Return the short name of the device behind a change."""
    parsed = devices.parse(label)
    if parsed is None:
        return _("unknown device")
    if parsed[0] == "web":
        _kind, family, short_id = parsed
        return _("%(family)s #%(id)s", family=family or _("Browser"), id=short_id)
    name = parsed[1]
    return _("API: %(name)s", name=name) if name else _("API client")


@bp.app_template_global()
def describe_change(change, players):
    """Return what a change did as (label, before, after) rows for the correction history."""
    before, after = change.before or {}, change.after or {}
    rows = []
    for field in ENTRY_FIELDS:
        old, new = before.get(field), after.get(field)
        if change.action == "correct" and old == new:
            continue
        if change.action != "correct" and (old if change.action == "undo" else new) is None:
            continue
        rows.append(
            (FIELD_LABELS[field](), _value(field, old, players), _value(field, new, players))
        )
    old_scores, new_scores = before.get("scores"), after.get("scores")
    if change.action == "correct" and old_scores != new_scores and old_scores and new_scores:
        for seat, name in enumerate(players):
            if old_scores[seat] != new_scores[seat]:
                rows.append(
                    (_("%(name)s after this deal", name=name), old_scores[seat], new_scores[seat])
                )
    return rows


def qr_svg(url, title):
    """Return the URL as an inline SVG QR code, dark on white whatever the page's colours."""
    qr = segno.make(url, error="m")
    modules, _height = qr.symbol_size(scale=1)
    pixels = max(3, QR_PIXELS // modules) * modules
    svg = qr.svg_inline(
        scale=1,
        omitsize=True,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        title=title,
    )
    # A viewBox alone lets CSS scale the code; the size attributes keep it large without CSS.
    svg = svg.replace("<svg ", f'<svg role="img" width="{pixels}" height="{pixels}" ', 1)
    return Markup(svg)


def public_base_url():
    """Return the scheme and host phones should use: PUBLIC_URL, else the address asked for.

    A laptop opened at localhost would otherwise share links no phone can open, so a
    loopback host is replaced by the laptop's address on the local network, port kept.
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    parts = urlsplit(request.host_url)
    if _is_loopback(request.host):
        address = lan_address()
        if address:
            netloc = address + (f":{parts.port}" if parts.port else "")
            parts = parts._replace(netloc=netloc)
    return urlunsplit(parts).rstrip("/")


def lan_address():
    """Return this machine's address on the local network, or None (no packet is sent)."""
    for probe in _PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
            except OSError:
                continue
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


# --- after every request ---------------------------------------------------------------


@bp.after_app_request
def _protect_token_pages(response):
    """Keep pages that carry an edit token out of caches and out of Referer headers."""
    if g.get("carries_token"):
        response.headers["Cache-Control"] = _NO_STORE
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


# --- helpers ---------------------------------------------------------------------------

ENTRY_FIELDS = (
    "thrown_in",
    "bidder",
    "bid",
    "trump",
    "called_card",
    "partner",
    "high",
    "low",
    "jack",
    "off_jack",
    "joker",
    "game",
    "game_points",
    "auction",
)
GAME_WINNERS = {
    "bidders": lambda: _("bidders"),
    "opponents": lambda: _("opponents"),
    "none": lambda: _("nobody (tie)"),
}
SEAT_FIELDS = {"bidder", "partner", "high", "low", "jack", "off_jack", "joker"}
FIELD_LABELS = {
    "thrown_in": lambda: _("Thrown in"),
    "bidder": lambda: _("Bidder"),
    "bid": lambda: _("Bid"),
    "trump": lambda: _("Trump"),
    "called_card": lambda: _("Called card"),
    "partner": lambda: _("Partner"),
    "high": lambda: _("High"),
    "low": lambda: _("Low"),
    "jack": lambda: _("Jack"),
    "off_jack": lambda: _("Off-jack"),
    "joker": lambda: _("Joker"),
    "game": lambda: _("Game"),
    "game_points": lambda: _("Game counts"),
    "auction": lambda: _("Auction"),
}


def _value(field, value, players):
    """Return a stored entry value as people read it (seats as names)."""
    if value is None:
        return "\u2013"
    if field in SEAT_FIELDS and isinstance(value, int) and 0 <= value < len(players):
        return players[value]
    if field == "thrown_in":
        return _("yes") if value else _("no")
    if field == "trump" and value in SUIT_NAMES:
        return str(SUIT_NAMES[value])
    if field == "called_card" and isinstance(value, str):
        return card_words(value)
    if field == "game":
        return GAME_WINNERS.get(value, lambda: str(value))()
    if field == "game_points" and isinstance(value, dict):
        return f"{value.get('bidders')}\u2013{value.get('opponents')}"
    if field == "auction" and isinstance(value, list):
        return ", ".join(_("pass") if call is None else str(call) for call in value)
    return str(value)


def _is_loopback(host):
    """Return True for localhost or a loopback address, with or without a port."""
    name = urlsplit("//" + host).hostname or ""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _live_headers(response, etag):
    """Mark a live response as revalidated on every poll and varying by session."""
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache, private"
    response.vary.update(("Cookie", "HX-Request"))
    return response


def _load(game_id, deals=True):
    """Return the game or answer 404."""
    game = store.get_game(game_id, deals=deals)
    if game is None:
        abort(404)
    return game


bp.register_error_handler(403, games.forbidden)
bp.register_error_handler(404, games.not_found)
bp.register_error_handler(CSRFError, games.csrf_error)
