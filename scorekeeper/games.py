"""The pages people use at the table: home, new game, the game with its deal entry."""

import secrets

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError

from scorekeeper import devices, engine, keyring, store
from scorekeeper.forms import ConfirmForm, DealForm, new_game_form
from scorekeeper.htmx import render, wants_fragment

bp = Blueprint("games", __name__)


# --- who may change a game -------------------------------------------------------------


def can_edit(game):
    """Return True when this browser holds the game's edit token."""
    token = keyring.token("edit", game.id)
    return bool(token) and store.check_edit_token(game, token)


def require_edit(game):
    """Refuse a change from a browser without the game's edit token."""
    if not can_edit(game):
        abort(403)


def grant_edit(game_id, token):
    """Give this browser the edit token of a game (newest kept when the list is full)."""
    keyring.grant("edit", game_id, token)


def remember(game_id):
    """Put a game at the top of the list of games this device has opened."""
    keyring.remember("recent", game_id)


def device():
    """Return a random id for this browser, recorded with each change."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(8)
        session.permanent = True
    return devices.web_label(session["device"], request.user_agent.string)


# --- pages -----------------------------------------------------------------------------


@bp.get("/")
def home():
    """Start a game, or go back to one this device has opened."""
    games = []
    for game_id in keyring.recent("recent"):
        game = store.get_game(game_id, deals=False)
        if game is not None:
            games.append(_summary(game))
    return render_template("games/home.html", games=games)


@bp.route("/games/new", methods=["GET", "POST"])
def new():
    """Show the new-game form; on a valid post create the game and give this browser edit rights."""
    rulesets = engine.rulesets()
    by_id = {r.id: r for r in rulesets}
    ruleset = by_id.get(request.form.get("ruleset"), rulesets[0])
    form = new_game_form(rulesets, ruleset)
    if form.is_submitted():
        well_formed = form.validate()
        setup = form.to_request()
        try:
            if not well_formed:
                # Ask the engine anyway, so every problem is shown at once.
                engine.configure(**{**setup, "first_dealer": setup["first_dealer"] or 0})
            else:
                game, token = store.create_game(**setup)
        except engine.RuleViolation as exc:
            form.add_rule_errors(exc.problems)
        else:
            if well_formed:
                grant_edit(game.id, token)
                remember(game.id)
                flash(_("Game started. %(name)s deals first.", name=_dealer_name(game)))
                return redirect(url_for("games.show", game_id=game.id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("games/new.html", form=form, ruleset=ruleset), status


@bp.get("/games/<game_id>")
def show(game_id):
    """Show the scoreboard, the deal entry form (with edit rights) and the history."""
    game = _load(game_id)
    remember(game.id)
    return _render_game(game)


@bp.post("/games/<game_id>/deals")
def add_deal(game_id):
    """Save the next deal; a refused one comes back with its messages and the entries kept."""
    game = _load(game_id)
    require_edit(game)
    form = _deal_form(game)
    status = 422
    if form.validate_on_submit():
        entry = form.to_entry()
        if request.form.get("thrown_in"):
            entry = {
                "thrown_in": True,
                **({"number": entry["number"]} if "number" in entry else {}),
            }
        try:
            deal = store.add_deal(game, entry, device=device())
        except store.NumberConflict as exc:
            message = _(
                "Deal %(n)s was just saved by someone else. "
                "Check the history before saving this one as deal %(next)s.",
                n=exc.sent or exc.expected - 1,
                next=exc.expected,
            )
            form.add_rule_errors({None: [message]})
            status = 409
            game = _load(game_id)
            form = _deal_form(game, form=form)
        except engine.GameOver as exc:
            form.add_rule_errors({None: [exc.message]})
            status = 409
        except engine.RuleViolation as exc:
            form.add_rule_errors(exc.problems)
        else:
            flash(_saved_message(deal))
            if not wants_fragment():
                return redirect(url_for("games.show", game_id=game.id), 303)
            return _render_game(game)
    return _render_game(game, form=form, status=status)


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def correct(game_id, number):
    """Correct a deal; every later score and the outcome are worked out again."""
    game = _load(game_id)
    deal = _deal(game, number)
    require_edit(game)
    players = [p.name for p in game.players]
    form = DealForm(formdata=request.form if request.method == "POST" else None)
    form.setup(players, deal.result["dealer"], joker_callable=_joker_callable(game), number=number)
    status = 200
    if request.method == "GET":
        form.fill_from(deal.entry or {})
    elif form.validate_on_submit():
        entry = form.to_entry()
        if request.form.get("thrown_in"):
            entry = {"thrown_in": True, "number": number}
        status = 422
        try:
            store.correct_deal(game, number, entry, device=device())
        except store.NoSuchDeal:
            abort(404)
        except (engine.CorrectionConflict, store.NumberConflict) as exc:
            form.add_rule_errors({None: [getattr(exc, "message", str(exc))]})
            status = 409
        except engine.RuleViolation as exc:
            form.add_rule_errors(exc.problems)
        else:
            flash(_("Deal %(n)s corrected; the scores after it are worked out again.", n=number))
            return redirect(url_for("games.show", game_id=game.id, _anchor=f"deal-{number}"), 303)
    else:
        status = 422
    context = game_context(game)
    return (
        render_template("games/correct.html", form=form, deal=deal.result, **context),
        status,
    )


@bp.post("/games/<game_id>/deals/<int:number>/undo")
def undo(game_id, number):
    """Take back the last deal (the page asked for confirmation first)."""
    game = _load(game_id)
    _deal(game, number)
    require_edit(game)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        store.undo_last_deal(game, number, device=device())
    except (store.NotLastDeal, store.NoSuchDeal):
        flash(_("Only the last deal can be undone; deal %(n)s is no longer the last.", n=number))
        status = 409
    else:
        flash(_("Deal %(n)s undone.", n=number))
        status = 200
    if not wants_fragment():
        return redirect(url_for("games.show", game_id=game.id), 303)
    return _render_game(game, status=status)


# --- errors ----------------------------------------------------------------------------


@bp.errorhandler(403)
def forbidden(error):
    """Explain that this browser may look but not change the game."""
    message = _("This browser can view this game but not change it.")
    return render_template("error.html", title=_("View only"), message=message), 403


@bp.errorhandler(404)
def not_found(error):
    """Explain a missing game or deal."""
    message = _("There is no such game or deal. Check the address.")
    return render_template("error.html", title=_("Not found"), message=message), 404


@bp.errorhandler(CSRFError)
def csrf_error(error):
    """Explain a stale or foreign form without losing the player's place."""
    message = _("This form is out of date. Reload the page and enter it again.")
    return render_template("error.html", title=_("Please reload"), message=message), 400


# --- helpers ---------------------------------------------------------------------------


def _load(game_id):
    """Return the game or answer 404."""
    game = store.get_game(game_id)
    if game is None:
        abort(404)
    return game


def _deal(game, number):
    """Return deal `number` of the game or answer 404."""
    deal = store.get_deal(game, number)
    if deal is None:
        abort(404)
    return deal


def _joker_callable(game):
    return bool((game.house_rules or {}).get("joker_callable", False))


def _deal_form(game, form=None):
    """Return the deal form for the next deal, bound to the post unless `form` is given."""
    players = [p.name for p in game.players]
    number = len(game.deals) + 1
    if form is None:
        form = DealForm()
    else:
        form.number.data = str(number)
    return form.setup(
        players, game.next_dealer, joker_callable=_joker_callable(game), number=number
    )


def game_context(game):
    """Return what the game templates need, read from the game document."""
    state = store.game_state(game)
    doc = store.game_document(game, state)
    config = state.config
    players = [p["name"] for p in doc["players"]]
    why = {}
    for deal in doc["deals"]:
        result = engine.DealResult.from_document(deal)
        why[deal["number"]] = engine.explain_deal(config, result)
    last = doc["deals"][-1] if doc["deals"] else None
    return {
        "game": doc,
        "players": players,
        "why": why,
        "last": last,
        "bidders": set(last["bidders"] or ()) if last else set(),
        "bidder_names": [players[s] for s in (last["bidders"] or ())] if last else [],
        "winner_names": [players[s] for s in doc["winners"]],
        "finished": doc["status"] != "in_progress",
        "can_edit": can_edit(game),
        "undo_form": ConfirmForm(formdata=None),
        "version": game.version,
        "changes": list(game.changes),
    }


def _render_game(game, form=None, status=200):
    """Render the game page, or its live part for htmx."""
    context = game_context(game)
    if form is None and context["can_edit"] and not context["finished"]:
        form = _deal_form(game, form=None if request.method == "GET" else DealForm(formdata=None))
    return render("games/show.html", "games/_game.html", status, form=form, **context)


def _summary(game):
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


def _dealer_name(game):
    return game.players[game.next_dealer].name


def _saved_message(deal):
    """Return the one-line confirmation after a deal is saved."""
    result = deal.result
    if result.get("thrown_in"):
        return _("Deal %(n)s thrown in; the same dealer deals again.", n=result["number"])
    return _("Deal %(n)s saved.", n=result["number"])
