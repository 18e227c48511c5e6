"""The pages people use at the table: home, new game, the game with its deal entry.

Also a game's score sheet and its downloads, which read the same game.
"""

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy.exc import OperationalError

from scorekeeper import engine, ratelimits
from scorekeeper.store import busy, exchange, games, limits, tables
from scorekeeper.store.lookup import deal_or_404, game_or_404
from scorekeeper.web import charts, errors, keyring, params, sheets
from scorekeeper.web.forms import ConfirmForm, chosen_ruleset, deal_form, new_game_form
from scorekeeper.web.game_page import DECIDED_LABELS, game_context
from scorekeeper.web.htmx import render, wants_fragment

bp = Blueprint("games", __name__)
errors.register_game_errors(bp)


def _require_edit(game):
    """Refuse a change from a browser without the game's edit token."""
    if not keyring.can_edit(keyring.GAME_TOKENS, game):
        abort(403)


# --- pages -----------------------------------------------------------------------------


@bp.get("/")
def home():
    """Start a game, or go back to one this device has opened."""
    recent = []
    for game_id in keyring.recent(keyring.RECENT_GAMES):
        game = games.get_game(game_id, deals=False)
        if game is not None:
            recent.append(_summary(game))
    return render_template("games/home.html", games=recent, rulesets=engine.rulesets())


@bp.route("/games/new", methods=["GET", "POST"])
@ratelimits.creating
def new():
    """Show the new-game form; on a valid post create the game and give this browser edit rights.

    A post with `switch` (the ruleset or a house rule changed) shows the form again for the
    game chosen, keeping what was typed: the whole page without JavaScript, the setup
    fields alone for htmx.
    """
    rulesets = engine.rulesets()
    chosen = request.form.get("ruleset") or request.args.get("ruleset")
    ruleset = chosen_ruleset(rulesets, chosen)
    form = new_game_form(rulesets, ruleset)
    if request.form.get("switch"):
        return render(
            "games/new.html", "games/_setup_fields.html", form=form, ruleset=ruleset, switched=True
        )
    if form.is_submitted():
        well_formed = form.validate()
        setup = form.to_request()
        try:
            if not well_formed:
                # Ask the engine anyway, so every problem is shown at once.
                engine.configure(**{**setup, "first_dealer": setup["first_dealer"] or 0})
            else:
                game, token = games.create_game(**setup)
        except engine.RuleViolation as exc:
            form.add_rule_errors(exc.problems)
        else:
            if well_formed:
                keyring.grant(keyring.GAME_TOKENS, game.id, token)
                keyring.remember(keyring.RECENT_GAMES, game.id)
                flash(_("Game started. %(name)s deals first.", name=_dealer_name(game)))
                return redirect(url_for("games.show", game_id=game.id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("games/new.html", form=form, ruleset=ruleset), status


@bp.get("/games/<game_id>")
def show(game_id):
    """Show the scoreboard, the deal entry form (with edit rights) and the history."""
    game = game_or_404(game_id)
    keyring.remember(keyring.RECENT_GAMES, game.id)
    return _render_game(game)


@bp.post("/games/<game_id>/deals")
@ratelimits.changing
def add_deal(game_id):
    """Save the next deal; a refused one comes back with its messages and the entries kept."""
    game = game_or_404(game_id)
    _require_edit(game)
    form = _deal_form(game)
    status = 422
    if not params.is_digits(request.form.get("number") or "0"):
        form.number.data = ""
        form.add_rule_errors({None: [_bad_number_message()]})
    elif form.validate_on_submit() and (entry := _entry_of(form)) is not None:
        try:
            deal = games.add_deal(game, entry, device=keyring.device())
        except games.NumberConflict as exc:
            message = _(
                "Deal %(n)s was just saved by someone else. "
                "Check the history before saving this one as deal %(next)s.",
                n=exc.sent or exc.expected - 1,
                next=exc.expected,
            )
            form.add_rule_errors({None: [message]})
            status = 409
            game = game_or_404(game_id)
            form = _deal_form(game, form=form)
        except engine.GameOver as exc:
            form.add_rule_errors({None: [exc.message]})
            status = 409
        except games.GameFull:
            form.add_rule_errors({None: [_game_full_message()]})
            status = 409
        except OperationalError as exc:
            if not busy.is_busy(exc):
                raise
            form.add_rule_errors({None: [_busy_message()]})
            status = 503
            game = game_or_404(game_id)
        except engine.RuleViolation as exc:
            form.add_rule_errors(exc.problems)
        else:
            flash(_saved_message(deal))
            if not wants_fragment():
                return redirect(url_for("games.show", game_id=game.id), 303)
            return _render_game(game)
    response = _render_game(game, form=form, status=status)
    if status == 503:
        response.headers["Retry-After"] = str(busy.RETRY_AFTER)
    return response


@bp.route("/games/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
@ratelimits.changing
def correct(game_id, number):
    """Correct a deal; every later score and the outcome are worked out again."""
    game = game_or_404(game_id)
    deal = deal_or_404(game, number)
    _require_edit(game)
    form = deal_form(
        games.game_config(game),
        deal.result["dealer"],
        number=number,
        fresh=request.method != "POST",
    )
    status = 200
    if request.method == "GET":
        form.fill_from(deal.entry or {})
    elif not params.is_digits(request.form.get("number") or "0"):
        form.number.data = ""
        form.add_rule_errors({None: [_bad_number_message()]})
        status = 422
    elif form.validate_on_submit() and (entry := _entry_of(form)) is not None:
        entry = {**entry, "number": number}
        status = 422
        try:
            games.correct_deal(game, number, entry, device=keyring.device())
        except games.NoSuchDeal:
            abort(404)
        except (engine.CorrectionConflict, games.NumberConflict) as exc:
            form.add_rule_errors({None: [getattr(exc, "message", str(exc))]})
            status = 409
        except games.GameFull:
            form.add_rule_errors({None: [_game_full_message()]})
            status = 409
        except OperationalError as exc:
            if not busy.is_busy(exc):
                raise
            form.add_rule_errors({None: [_busy_message()]})
            status = 503
            game = game_or_404(game_id)
            deal = deal_or_404(game, number)
        except engine.RuleViolation as exc:
            form.add_rule_errors(exc.problems)
        else:
            flash(_("Deal %(n)s corrected; the scores after it are worked out again.", n=number))
            return redirect(url_for("games.show", game_id=game.id, _anchor=f"deal-{number}"), 303)
    else:
        status = 422
    context = game_context(game)
    headers = {"Retry-After": str(busy.RETRY_AFTER)} if status == 503 else {}
    return (
        render_template("games/correct.html", form=form, deal=deal.result, **context),
        status,
        headers,
    )


@bp.post("/games/<game_id>/deals/<int:number>/undo")
@ratelimits.changing
def undo(game_id, number):
    """Take back the last deal (the page asked for confirmation first)."""
    game = game_or_404(game_id)
    deal_or_404(game, number)
    _require_edit(game)
    form = ConfirmForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        games.undo_last_deal(game, number, device=keyring.device())
    except (games.NotLastDeal, games.NoSuchDeal):
        flash(_("Only the last deal can be undone; deal %(n)s is no longer the last.", n=number))
        status = 409
    else:
        flash(_("Deal %(n)s undone.", n=number))
        status = 200
    if not wants_fragment():
        return redirect(url_for("games.show", game_id=game.id), 303)
    return _render_game(game, status=status)


@bp.get("/games/<game_id>/sheet")
def sheet(game_id):
    """Show a game's score sheet: the deal-by-deal table and the chart, made to print."""
    game = game_or_404(game_id)
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
        ruleset_name=state.config.ruleset.name,
        columns=sheets.columns(state.config),
        contracts=sheets.contracts(state.config, document["deals"]),
        winner_names=[players[s] for s in document["winners"]],
        decided=DECIDED_LABELS,
    )


@bp.get("/games/<game_id>/export.json")
def export_json(game_id):
    """Download one game as lossless JSON."""
    game = game_or_404(game_id, deals=False)
    return exchange.json_download(exchange.export_game(game), f"game-{game.id}.json")


@bp.get("/games/<game_id>/export.csv")
def export_csv(game_id):
    """Download one game's deals, one row per deal per player."""
    game = game_or_404(game_id, deals=False)
    return exchange.csv_response(exchange.game_csv(game), f"game-{game.id}.csv")


# --- helpers ---------------------------------------------------------------------------


def _deal_form(game, form=None):
    """Return the deal form for the next deal, bound to the post unless `form` is given.

    Given the form a refused post was read into, return a form for the deal now next
    that keeps what was entered (after another phone saved the deal this one showed).
    """
    number = len(game.deals) + 1
    formdata = None if form is None else request.form
    form_now = deal_form(
        games.game_config(game), game.next_dealer, number=number, formdata=formdata
    )
    if form is not None:
        form_now.number.data = str(number)
        form_now.rule_errors = form.__dict__.get("rule_errors", {})
    return form_now


def _render_game(game, form=None, status=200):
    """Render the game page, or its live part for htmx."""
    context = game_context(game)
    if form is None and context["can_edit"] and not context["finished"]:
        form = deal_form(
            context["config"],
            game.next_dealer,
            number=len(game.deals) + 1,
            fresh=request.method != "GET",
        )
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


def _entry_of(form):
    """Return the form's entry, or None (with a message) when a choice is not a number.

    A tampered form can send an empty or foreign value for a seat, a bid or a call that
    the form's choices let through; it names no entry, so the page asks for a reload.
    """
    try:
        return form.to_entry(flag=form.flag_posted(request.form))
    except ValueError:
        message = _(
            "This form holds a value it does not offer. Reload the page and enter it again."
        )
        form.add_rule_errors({None: [message]})
        return None


def _bad_number_message():
    return _("This form's deal number is not a whole number. Reload the page and enter it again.")


def _game_full_message():
    return _(
        "This game holds as many deals and corrections as a game may (%(n)s deals). "
        "Start a new game to go on.",
        n=limits.DEALS_PER_GAME,
    )


def _busy_message():
    return _(
        "The score pad was busy with another change, so this deal was not saved. "
        "Your entry is kept: save it again."
    )


def _saved_message(deal):
    """Return the one-line confirmation after a deal is saved."""
    result = deal.result
    if result.get("thrown_in"):
        return _("Deal %(n)s thrown in; the same dealer deals again.", n=result["number"])
    return _("Deal %(n)s saved.", n=result["number"])
