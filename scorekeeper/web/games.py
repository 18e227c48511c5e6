"""The pages people use at the table: home, new game, the game with its deal entry.

Also a game's score sheet and its downloads, which read the same game.
"""

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper import engine, words
from scorekeeper.http import cache, downloads, keyring, params, ratelimits
from scorekeeper.http.htmx import render, wants_fragment
from scorekeeper.store import exchange, games, tables
from scorekeeper.store.lookup import require_deal, require_game
from scorekeeper.store.models import CardTable, Deal, Game
from scorekeeper.web import charts, errors, i18n, sharing, sheets
from scorekeeper.web.forms import (
    ConfirmForm,
    DealForm,
    PutAtTableForm,
    chosen_setup,
    deal_form,
    new_game_form,
    options,
    plays,
    scoring_sides,
)
from scorekeeper.web.game_page import DECIDED_LABELS, game_context, next_deal_form

bp = Blueprint("games", __name__)

RECENT_LINEUPS = 10
"""How many of this browser's recent line-ups the new-game page offers, newest first."""
KEPT = "kept"
"""Form field the phone adds when it sends a deal it kept (static/outbox.js): a 409 then
also describes that deal, for the phone to show beside the one saved meanwhile."""
errors.register_game_errors(bp)


def _require_edit(game: Game) -> None:
    """Refuse a change from a browser without the game's edit token."""
    if not keyring.can_edit(keyring.GAME_TOKENS, game):
        abort(403)


# --- pages -----------------------------------------------------------------------------


@bp.get("/")
def home() -> str:
    """Start a game, or go back to one this device has opened."""
    recent: list[dict[str, Any]] = []
    for game_id in keyring.recent(keyring.RECENT_GAMES):
        game = games.get_game(game_id, deals=False)
        if game is not None:
            recent.append(_summary(game))
    return render_template("games/home.html", games=recent, rulesets=engine.rulesets())


@bp.route("/games/new", methods=["GET", "POST"])
@ratelimits.creating
def new() -> ResponseReturnValue:
    """Show the new-game form; on a valid post create the game and give this browser edit rights.

    A post with `switch` (the ruleset or a house rule changed) shows the form again for the
    game chosen, keeping what was typed: the whole page without JavaScript, the setup
    fields alone for htmx.

    A game started on a phone with no connection is posted by the phone when the
    connection is back (static/kept-games.js), with the id and edit token the phone made
    for it (`offline_id`, `offline_token`) and when it was started (`made_at`): it is
    stored as an import is checked, once however often it is sent.
    """
    rulesets = engine.rulesets()
    chosen = request.form.get("ruleset") or request.args.get("ruleset")
    # How many play decides the games offered while choosing; a game started is the one
    # chosen, whatever count was left ticked.
    counted = request.form.get("seats") if request.form.get("switch") else None
    seats, ruleset = chosen_setup(rulesets, chosen, counted)
    lineups = _recent_lineups()
    names = next((lu["names"] for lu in lineups if lu["id"] == request.args.get("lineup")), None)
    if names and plays(ruleset, len(names)):
        seats = len(names)
    kept = {"data": {"players": names}} if names else {}
    form = new_game_form(rulesets, ruleset, seats, **kept)
    if request.form.get("switch"):
        return render(
            "games/new.html", "games/_setup_fields.html", form=form, ruleset=ruleset, switched=True
        )
    if form.is_submitted():
        well_formed = form.validate()
        setup = form.to_request()
        made = _made_offline()
        try:
            if not well_formed or made is not None:
                # Ask the engine anyway, so every problem is shown at once.
                engine.configure(**{**setup, "first_dealer": setup["first_dealer"] or 0})
            if well_formed and made is not None:
                game, _created = exchange.import_made_offline(setup, *made)
                token = made[1]
            elif well_formed:
                game, token = games.create_game(**setup)
        except engine.RuleViolation as exc:
            errors.refused(form, exc)
        except exchange.ImportRefused as exc:
            form.add_rule_errors({None: [str(exc)]})
        else:
            if well_formed:
                keyring.grant(keyring.GAME_TOKENS, game.id, token)
                keyring.remember(keyring.RECENT_GAMES, game.id)
                flash(_("Game started. %(name)s deals first.", name=_dealer_name(game)))
                return redirect(url_for("games.show", game_id=game.id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("games/new.html", form=form, ruleset=ruleset, lineups=lineups), status


def _made_offline() -> tuple[str, str, str | None] | None:
    """Return the id, edit token and time a phone gave a game it started offline, or None."""
    game_id, token = request.form.get("offline_id"), request.form.get("offline_token")
    if game_id is None and token is None:
        return None
    return game_id or "", token or "", request.form.get("made_at") or None


@bp.get("/games/<game_id>")
def show(game_id: str) -> Response:
    """Show the scoreboard, the deal entry form (with edit rights) and the history.

    A viewer's page is the same for every browser (public, scorekeeper/http/cache.py): it
    touches nothing in the session. An editor's page remembers the game on this device.
    """
    version, can_edit = cache.version_and_rights(game_id)
    if can_edit:
        keyring.remember(keyring.RECENT_GAMES, game_id)
    refill = session.get(keyring.REFILL)
    if refill is not None and refill.get("game") == game_id:
        # Just after an undo: this browser's form holds the deal taken back (not cached).
        session.pop(keyring.REFILL)
        return _render_game(require_game(game_id), refill=refill["entry"])
    # The copy a service worker keeps is the page without the edit link: rendered apart.
    key = cache.key("game", game_id, version, can_edit, *(["copy"] if sharing.for_copy() else []))
    return cache.page(key, lambda: _render_game(require_game(game_id)))


@bp.post("/games/<game_id>/deals")
@ratelimits.changing
def add_deal(game_id: str) -> ResponseReturnValue:
    """Save the next deal; a refused one comes back with its messages and the entries kept.

    The form says which deal it was for (`number`). When another phone saved that deal
    first, nothing is stored (409) and the taps come back beside what that phone saved:
    "Discard mine" (`discard`) stores nothing, "Save mine as deal N" (`save_as`, the
    number now next) is the one way to store them as a later deal.
    """
    game = require_game(game_id)
    _require_edit(game)
    if request.form.get("discard"):
        flash(_("Your taps were discarded; nothing was saved."))
        if not wants_fragment():
            return redirect(url_for("games.show", game_id=game.id), 303)
        return _render_game(game)
    form = _deal_form(game)
    if _counted_cards(form):
        return _render_game(game, form=form)
    status = 422
    headers: dict[str, str] = {}
    save_as = request.form.get("save_as")
    if save_as is not None:
        form.number.data = save_as
    if params.whole_number(form.number.data or "0") is None:
        form.number.data = ""
        form.add_rule_errors({None: [_bad_number_message()]})
    elif form.validate_on_submit():
        entry = _entry_of(form)
        try:
            deal = games.add_deal(game, entry, device=keyring.device())
        except games.NumberConflict as exc:
            if exc.sent is not None and _saved_already(game_id, exc.sent, entry):
                # The same deal sent again (its answer was lost on a weak network, or the
                # phone kept it and sent it once more): it is saved, and stays saved once.
                return _saved(require_game(game_id), exc.sent)
            # Never saved as the next deal by this tap: the taps wait beside that deal.
            status = 409
            game = require_game(game_id)
            form = _deal_form(game, form=form)
            if request.form.get(KEPT):
                form.mine = _kept_deal_view(game, exc.sent, entry)
        except errors.REFUSALS as exc:
            refusal = errors.refused(form, exc)
            status, headers = refusal.status, refusal.headers
            if status == 503:
                game = require_game(game_id)
        else:
            return _saved(game, deal.number)
    response = _render_game(game, form=form, status=status)
    response.headers.update(headers)
    return response


@bp.post("/games/<game_id>/preview")
def preview(game_id: str) -> Response:
    """Say what the deal being entered would score, worked out by the engine and not stored.

    The deal form asks for it (htmx) as its choices change; nothing is saved, and what the
    engine would refuse is listed quietly (the entry may simply not be finished yet).
    """
    game = require_game(game_id)
    _require_edit(game)
    form = _deal_form(game)
    state = games.game_state(game)
    well_formed = form.validate_on_submit()
    entry = form.to_entry()
    entry.pop("number", None)
    found = None
    if not well_formed:
        found = {name: form.errors_for(name) for name in (None, *(f.name for f in form.described))}
    opened = {
        f.name for f in form.described if f.kind == engine.FieldKind.AUCTION and form.is_open(f)
    }
    context = words.preview_context(
        state, form.described, entry, found, opened, i18n.translations()
    )
    response = make_response(render_template("games/_preview.html", **context))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
@ratelimits.changing
def correct(game_id: str, number: int) -> ResponseReturnValue:
    """Correct a deal; every later score and the outcome are worked out again."""
    game = require_game(game_id)
    deal = require_deal(game, number)
    _require_edit(game)
    form = deal_form(
        games.game_config(game),
        deal.result["dealer"],
        number=number,
        fresh=request.method != "POST",
    )
    status = 200
    headers: dict[str, str] = {}
    page: dict[str, Any] = {}
    if request.method == "GET":
        form.fill_from(deal.entry or {})
        # The deal as stored, previewed with the page: its place in the held bar is filled
        # as the page opens, not grown by a first answer a moment later.
        page["preview"] = _correction_preview_of(game, number, deal.entry, _no_preview())
    elif _counted_cards(form):
        pass
    elif params.whole_number(request.form.get("number") or "0") is None:
        form.number.data = ""
        form.add_rule_errors({None: [_bad_number_message()]})
        status = 422
    elif form.validate_on_submit():
        entry = {**_entry_of(form), "number": number}
        status = 422
        if _saved_already(game.id, number, entry):
            # Nothing to change (a correction sent again when its answer was lost, or saved
            # as it was): nothing is stored, and the change log gets no empty correction.
            flash(_("Deal %(n)s already holds this entry; nothing was changed.", n=number))
            return redirect(url_for("games.show", game_id=game.id, _anchor="scoreboard"), 303)
        try:
            games.correct_deal(game, number, entry, device=keyring.device())
        except games.NoSuchDeal:
            abort(404)
        except errors.REFUSALS as exc:
            refusal = errors.refused(form, exc)
            status, headers = refusal.status, refusal.headers
            if status == 503:
                game = require_game(game_id)
                deal = require_deal(game, number)
        else:
            flash(_("Deal %(n)s corrected; the scores after it are worked out again.", n=number))
            # Straight to the new scores: the correction may have changed every one of them.
            return redirect(url_for("games.show", game_id=game.id, _anchor="scoreboard"), 303)
    else:
        status = 422
    context = game_context(game)
    return (
        render_template("games/correct.html", form=form, deal=deal.result, **page, **context),
        status,
        headers,
    )


@bp.post("/games/<game_id>/deals/<int:number>/preview")
def correction_preview(game_id: str, number: int) -> Response:
    """Say what a correction would change, worked out by the engine and not stored.

    The corrected deal's score, every later total that moves and the outcome before and
    after. The correction page asks for it (htmx) as its choices change, and its Preview
    button posts here without JavaScript: the whole page comes back, the preview in it.
    """
    game = require_game(game_id)
    deal = require_deal(game, number)
    _require_edit(game)
    form = deal_form(games.game_config(game), deal.result["dealer"], number=number)
    context = game_context(game)
    preview = _correction_preview(game, number, form)
    response = render(
        "games/correct.html",
        "games/_correction_preview.html",
        form=form,
        deal=deal.result,
        preview=preview,
        **context,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def _no_preview() -> dict[str, Any]:
    """Return the correction preview before anything is worked out."""
    return {"result": None, "problems": [], "conflict": [], "sides": [], "why": ()}


def _correction_preview(game: Game, number: int, form: DealForm) -> dict[str, Any]:
    """Return what the correction preview shows for the entry the form holds."""
    preview = _no_preview()
    if not form.validate_on_submit():
        preview["problems"] = form.errors_for(None, *(f.name for f in form.described))
        return preview
    return _correction_preview_of(game, number, _entry_of(form), preview)


def _correction_preview_of(
    game: Game, number: int, entry: dict[str, Any], preview: dict[str, Any]
) -> dict[str, Any]:
    """Fill in what the correction preview shows for this entry of deal `number`."""
    entry = {k: v for k, v in entry.items() if k != "number"}
    try:
        results, after = games.preview_correction(game, number, entry)
    except engine.CorrectionConflict as exc:
        preview["conflict"] = [i18n.translate(m) for ms in exc.problems.values() for m in ms]
        return preview
    except engine.RuleViolation as exc:
        preview["problems"] = [i18n.translate(m) for ms in exc.problems.values() for m in ms]
        return preview
    config = after.config
    sides = scoring_sides(config)
    result = results[number - 1]
    preview["result"] = result
    preview["why"] = engine.explain_deal(config, result)
    preview["sides"] = [
        (label, result.deltas[seats[0]], result.scores[seats[0]],
         bool(set(seats) & set(result.bidders or ())))
        for label, seats in sides
    ]  # fmt: skip
    before = games.game_state(game)
    stored = [d.result["scores"] for d in game.deals]
    preview["labels"] = [label for label, _seats in sides]
    preview["later"] = [
        (
            n,
            [(stored[n - 1][seats[0]], results[n - 1].scores[seats[0]]) for _label, seats in sides],
        )
        for n in range(number, len(results) + 1)
    ]
    preview["outcome_before"] = before.outcome
    preview["outcome_after"] = after.outcome
    preview["outcome_changes"] = (
        before.outcome.status,
        tuple(before.outcome.winners),
    ) != (after.outcome.status, tuple(after.outcome.winners))
    return preview


@bp.get("/games/<game_id>/deals/<int:number>/undo")
def confirm_undo(game_id: str, number: int) -> ResponseReturnValue:
    """Ask before the last deal is taken back, naming it: the question alone for htmx (in
    place of the deal's Undo button), on its own page without JavaScript."""
    game = require_game(game_id)
    deal = require_deal(game, number)
    _require_edit(game)
    if number != len(game.deals):
        flash(_("Only the last deal can be undone; deal %(n)s is no longer the last.", n=number))
        if not wants_fragment():
            return redirect(url_for("games.show", game_id=game.id), 303)
        # The game as it is now, in place of the whole live part, not of the button.
        response = _render_game(game, status=409)
        response.headers["HX-Retarget"] = "#game"
        response.headers["HX-Reswap"] = "outerHTML"
        return response
    result = engine.DealResult.from_document(deal.result)
    question = {"number": number, "dealer": games.game_config(game).players[result.dealer]}
    return render("games/undo.html", "games/_undo.html", d=question, game={"id": game.id})


@bp.post("/games/<game_id>/deals/<int:number>/undo")
@ratelimits.changing
def undo(game_id: str, number: int) -> BaseResponse:
    """Take back the last deal (the page asked for confirmation first)."""
    game = require_game(game_id)
    deal = require_deal(game, number)
    _require_edit(game)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    refill = None
    try:
        entry = dict(deal.entry or {})
        games.undo_last_deal(game, number, device=keyring.device())
    except (games.NotLastDeal, games.NoSuchDeal):
        flash(_("Only the last deal can be undone; deal %(n)s is no longer the last.", n=number))
        status = 409
    except games.GameFull:
        flash(errors.game_full_message())
        status = 409
    else:
        # The form comes back holding the deal taken back: fix one choice, not all of them.
        flash(_("Deal %(n)s undone.", n=number))
        status = 200
        refill = entry
    if not wants_fragment():
        if refill is not None:
            session[keyring.REFILL] = {"game": game.id, "entry": refill}
        return redirect(url_for("games.show", game_id=game.id), 303)
    return _render_game(game, status=status, refill=refill)


@bp.post("/games/<game_id>/rematch")
def rematch(game_id: str) -> BaseResponse:
    """Start the next game: same players in the same seats, rules, target and table.

    The seat after the last dealer deals first. Whoever may edit this game may start its
    rematch, at its table too: they already enter that table's results through this game,
    as long as the table keeps the edit link it had when the game was put there (after
    a new one, only a browser holding the new one starts it). Made once: a second tap,
    or another phone, reaches the same next game, which keeps this game's edit rights.
    """
    game = require_game(game_id, deals=False)
    _require_edit(game)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    token = keyring.token(keyring.GAME_TOKENS, game.id)
    table_token = keyring.token(keyring.TABLE_TOKENS, game.table_id) if game.table_id else None
    try:
        new_game, started = tables.rematch(game, table_token)
    except tables.TableLinkRenewed:
        message = _(
            "This table has a new edit link since this game was put at it. Open the "
            "table's new edit link on this phone to start the next game there."
        )
        return errors.render(_("View only"), message, 403)
    if token is not None:  # the browser may edit this game, so it holds its token
        keyring.grant(keyring.GAME_TOKENS, new_game.id, token)
    keyring.remember(keyring.RECENT_GAMES, new_game.id)
    if started:
        flash(_("Rematch started. %(name)s deals first.", name=_dealer_name(new_game)))
    else:
        flash(_("This rematch was started already: here it is."))
    return redirect(url_for("games.show", game_id=new_game.id), 303)


@bp.get("/games/<game_id>/next")
def follow_next(game_id: str) -> BaseResponse:
    """Go to the game's next game (its Rematch): editing it where this phone edits this one.

    Every phone following a game is offered its next game by this link; it carries no
    rights of its own, it only moves the rights this browser holds to the next game.
    """
    game = require_game(game_id, deals=False)
    next_game = games.get_game(game.next_game_id, deals=False) if game.next_game_id else None
    if next_game is None:
        return redirect(url_for("games.show", game_id=game.id), 303)
    token = keyring.token(keyring.GAME_TOKENS, game.id)
    if keyring.can_edit(keyring.GAME_TOKENS, game) and token is not None:
        keyring.grant(keyring.GAME_TOKENS, next_game.id, token)
    keyring.remember(keyring.RECENT_GAMES, next_game.id)
    return redirect(url_for("games.show", game_id=next_game.id), 303)


@bp.route("/games/<game_id>/table", methods=["GET", "POST"])
def put_at_table(game_id: str) -> ResponseReturnValue:
    """Put a game started from home at a table: one this browser may edit, by its link, or
    a new one named here.

    Both rights are needed: to change the game, and to add to the table's games (a new
    table's edit token is this browser's from then on).
    """
    game = require_game(game_id, deals=False)
    _require_edit(game)
    form = PutAtTableForm()
    mine = [
        table
        for table in tables.get_tables(list(keyring.edit_tokens(keyring.TABLE_TOKENS)))
        if keyring.can_edit(keyring.TABLE_TOKENS, table)
    ]
    form.table.choices = options((table.id, table.name) for table in mine)
    status = 200
    if game.table_id is not None:
        form.add_rule_errors({None: [_("This game is at a table already.")]})
        status = 409
    elif form.validate_on_submit():
        done = _put_at_table(form, game, mine)
        if isinstance(done, BaseResponse):
            return done
        status = done
    elif form.is_submitted():
        status = 422
    players = [p.name for p in game.players]
    return (
        render_template("games/table.html", form=form, game=game, players=players, tables=mine),
        status,
    )


def _put_at_table(
    form: PutAtTableForm, game: Game, mine: Sequence[CardTable]
) -> BaseResponse | int:
    """Put the game at the table the form names, or at a new one it names (whose edit
    token is this browser's from then on); else say why, return 4xx."""
    new_table = (form.new_table.data or "").strip()
    try:
        if new_table:
            if form.table.data or (form.edit_link.data or "").strip():
                both = _("Name a new table, or choose a table you have: not both.")
                form.add_rule_errors({"new_table": [both]})
                return 422
            table, token = tables.put_game_at_new_table(form.new_table.data, game)
            keyring.grant(keyring.TABLE_TOKENS, table.id, token)
            keyring.remember(keyring.RECENT_TABLES, table.id)
        else:
            chosen = _table_chosen(form, mine)
            if not isinstance(chosen, CardTable):
                field, message = chosen
                form.add_rule_errors({field: [message]})
                return 422
            table = chosen
            tables.put_game_at_table(table, game)
    except tables.AlreadyAtTable:
        form.add_rule_errors({None: [_("This game is at a table already.")]})
        return 409
    except engine.RuleViolation as exc:
        # A new table's name is refused as the table's `name`: beside the field that named it.
        renamed = {"name": "new_table"} if new_table else None
        return errors.refused(form, exc, renamed=renamed).status
    flash(_("This game is now at the table %(name)s.", name=table.name))
    return redirect(url_for("games.show", game_id=game.id), 303)


def _table_chosen(form: PutAtTableForm, mine: Sequence[CardTable]) -> CardTable | tuple[str, str]:
    """Return the table the form names, else why not as (field, message)."""
    link = (form.edit_link.data or "").strip()
    if link:
        found = re.search(r"/tables/([^/?#]+)/edit/([^/?#\s]+)", link)
        table = tables.get_table(found.group(1)) if found else None
        if found is None or table is None or not tables.check_table_token(table, found.group(2)):
            return ("edit_link", _("This is not a table's edit link that still works."))
        return table
    chosen = next((table for table in mine if table.id == form.table.data), None)
    if chosen is None:
        return ("table", _("Choose one of your tables, or paste a table's edit link."))
    return chosen


@bp.get("/games/<game_id>/sheet")
def sheet(game_id: str) -> str:
    """Show a game's score sheet: the deal-by-deal table and the chart, made to print."""
    game = require_game(game_id)
    state = games.game_state(game)
    document = games.game_document(game, state)
    players = [p["name"] for p in document["players"]]
    table = tables.get_table(game.table_id) if game.table_id else None
    return render_template(
        "games/sheet.html",
        game=document,
        outcome=state.outcome,
        players=players,
        table=table,
        created_at=game.created_at,
        chart=charts.game_score_chart(document),
        ruleset=state.config.ruleset,
        columns=sheets.columns(state.config),
        contracts=sheets.contracts(state.config, document["deals"]),
        winner_names=[players[s] for s in document["winners"]],
        decided=DECIDED_LABELS,
    )


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    """Download one game as lossless JSON.

    The scorekeeper's phone asks for it whenever the game may have changed (its record of
    the game: static/state.js). Its ETag is the export format's and the game's version
    (weak: each export says when it was made), so the browser asks with it, and an
    unchanged game comes back 304 before its deals are read.
    """
    game = require_game(game_id, deals=False)
    etag = f"export-{exchange.VERSION}-{game.version}"
    if request.if_none_match.contains_weak(etag):
        response = current_app.response_class(status=304)
    else:
        response = downloads.json_download(exchange.export_game(game), f"game-{game.id}.json")
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """Download one game's deals, one row per deal per player."""
    game = require_game(game_id, deals=False)
    return downloads.csv_response(exchange.game_csv(game), f"game-{game.id}.csv")


# --- helpers ---------------------------------------------------------------------------


def _deal_form(game: Game, form: DealForm | None = None) -> DealForm:
    """Return the deal form for the next deal, bound to the post unless `form` is given.

    Given the form a refused post was read into (another phone saved the deal this one
    showed), return the form for the deal now next in conflict: it keeps what was
    entered and the number it was for, and offers to discard it or save it as that deal.
    """
    number = len(game.deals) + 1
    formdata = None if form is None else request.form
    form_now = deal_form(
        games.game_config(game), game.next_dealer, number=number, formdata=formdata
    )
    if form is not None:
        form_now.number.data = form.number.data
        form_now.conflict = number
        form_now.rule_errors = form.__dict__.get("rule_errors", {})
    return form_now


def _render_game(
    game: Game,
    form: DealForm | None = None,
    status: int = 200,
    refill: Mapping[str, Any] | None = None,
) -> Response:
    """Render the game page, or its live part for htmx.

    With `refill` (an entry), the form for the next deal starts with its choices.
    """
    context = game_context(game)
    if form is None:
        form = next_deal_form(context, fresh=refill is not None or request.method != "GET")
        if form is not None and refill is not None:
            form.fill_from(refill)
    return render("games/show.html", "games/_game.html", status, form=form, **context)


def _recent_lineups(count: int = RECENT_LINEUPS) -> list[dict[str, Any]]:
    """Return the player lists of this browser's recent games, newest first, each once."""
    lineups: list[dict[str, Any]] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for game_id in keyring.recent(keyring.RECENT_GAMES):
        game = games.get_game(game_id, deals=False)
        if game is None:
            continue
        names = [p.name for p in game.players]
        key = (game.ruleset, tuple(name.casefold() for name in names))
        if key not in seen:
            seen.add(key)
            lineups.append({"id": game.id, "ruleset": game.ruleset, "names": names})
        if len(lineups) == count:
            break
    return lineups


def _summary(game: Game) -> dict[str, Any]:
    """Return what the home page shows of a game, from the state cached on its row."""
    names = [p.name for p in game.players]
    return {
        "id": game.id,
        "names": names,
        "deals": game.deal_count,
        "status": game.status,
        "explanation": game.explanation,
        "winners": [names[seat] for seat in game.winners],
        "scores": list(zip(names, game.scores, strict=True)),
        "updated_at": game.updated_at,
    }


def _dealer_name(game: Game) -> str:
    return game.players[game.next_dealer].name


def _entry_of(form: DealForm) -> dict[str, Any]:
    """Return the entry the form holds, a flag's when its button was pressed.

    What the form cannot read (a tampered value the choices let through) was refused by
    its validation (scorekeeper/deal_entry.py), before this is asked.
    """
    return form.to_entry(flag=form.flag_posted(request.form))


def _counted_cards(form: DealForm) -> bool:
    """Return whether the post asked for the card counter's counts, which are then filled.

    "Use these counts" saves nothing: the page comes back with the counts filled from the
    cards tapped and the side they decide left for them to say.
    """
    name = request.form.get("count_cards")
    if name is None:
        return False
    form.use_counted(name)
    return True


def _bad_number_message() -> str:
    return _("This form's deal number is not a whole number. Reload the page and enter it again.")


def _saved(game: Game, number: int) -> ResponseReturnValue:
    """Answer a saved deal: its confirmation, then the game (a redirect without htmx)."""
    flash(_saved_message(require_deal(game, number)))
    if not wants_fragment():
        return redirect(url_for("games.show", game_id=game.id), 303)
    return _render_game(game)


def _saved_already(game_id: str, number: int | None, entry: dict[str, object]) -> bool:
    """Return True when deal `number` is stored with exactly this entry."""
    game = require_game(game_id)
    deal = next((d for d in game.deals if d.number == number), None)
    if deal is None:
        return False
    try:
        sent = engine.parse_entry(games.game_config(game), {**entry, "number": number})
    except engine.RuleViolation:
        return False
    return json.loads(json.dumps(sent.to_json())) == deal.entry


def _kept_deal_view(
    game: Game, number: int | None, entry: dict[str, object]
) -> dict[str, Any] | None:
    """Return the history's view of a kept deal as deal `number`, or None if it is none.

    The deal another phone saved under that number is replaced, nothing stored, to see
    what this entry would have been in its place (what "correct theirs to mine" makes of
    it); past the last deal, it is worked out as the next deal.
    """
    config = games.game_config(game)
    entry = {name: value for name, value in entry.items() if name != "number"}
    result: engine.DealResult | None
    try:
        if number is not None and 1 <= number <= len(game.deals):
            results, _after = games.preview_correction(game, number, entry)
            result = results[number - 1]
        else:
            state = games.game_state(game)
            result = engine.apply_deal(state, engine.parse_entry(config, entry)).last
    except engine.RuleViolation:
        return None
    if result is None:
        return None
    return words.deal_view(config, scoring_sides(config), result, i18n.translations())


def _saved_message(deal: Deal) -> str:
    """Return the one-line confirmation after a deal is saved."""
    result = deal.result
    if result.get("thrown_in"):
        return _("Deal %(n)s thrown in; the same dealer deals again.", n=result["number"])
    return _("Deal %(n)s saved.", n=result["number"])
