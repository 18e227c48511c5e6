"""Table pages: a group's games, its regulars' records, its links, export and import."""

from typing import Any, TypedDict

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from scorekeeper import config, engine
from scorekeeper.extensions import csrf
from scorekeeper.http import bodies, downloads, keyring, params, ratelimits
from scorekeeper.http.htmx import render
from scorekeeper.store import exchange, import_checks, limits, stats, tables
from scorekeeper.store.lookup import require_table
from scorekeeper.store.models import CardTable, Game
from scorekeeper.web import errors, links, sharing
from scorekeeper.web.forms import (
    ConfirmForm,
    ImportForm,
    MergeForm,
    TableForm,
    chosen_setup,
    new_game_form,
)
from scorekeeper.web.game_page import DECIDED_LABELS, OUTCOME_LABELS

bp = Blueprint("tables", __name__)

# An export file may be larger than the 64 KiB any other request may send, but no larger
# than an import that finishes well inside a worker's timeout.
IMPORT_LIMIT = limits.IMPORT_BYTES
# The upload's body: the file, and around it its form (the CSRF token, the table's name,
# the multipart wrapping), which may take no more than any other page's form.
IMPORT_BODY_LIMIT = IMPORT_LIMIT + config.MAX_BODY_BYTES
# How many regulars the table page lists at a time.
REGULARS_PER_PAGE = 50


class Filters(TypedDict):
    """The archive's filters and page, as `tables.archive` takes them."""

    page: int
    player: int | None
    ruleset: str | None
    outcome: engine.Status | None


def _require_edit(table: CardTable) -> None:
    """Refuse a change from a browser without the table's edit token."""
    if not keyring.can_edit(keyring.TABLE_TOKENS, table):
        abort(403)


# --- pages ----------------------------------------------------------------------------------


@bp.get("/tables")
def index() -> str:
    """List the tables this device has opened, and offer to create one."""
    recent = tables.get_tables(keyring.recent(keyring.RECENT_TABLES))
    return render_template(
        "tables/index.html", tables=recent, editable=keyring.edit_tokens(keyring.TABLE_TOKENS)
    )


@bp.route("/tables/new", methods=["GET", "POST"])
@ratelimits.creating
def new() -> ResponseReturnValue:
    """Create a table; this browser may then start games there."""
    form = TableForm()
    if form.validate_on_submit():
        names = [line.strip() for line in (form.regulars.data or "").splitlines()]
        try:
            table, token = tables.create_table(form.name.data, [n for n in names if n])
        except engine.RuleViolation as error:
            errors.refused(form, error, renamed={"players": "regulars"})
        else:
            keyring.grant(keyring.TABLE_TOKENS, table.id, token)
            keyring.remember(keyring.RECENT_TABLES, table.id)
            flash(_("Table created. Share its links so others can follow or keep score."))
            return redirect(url_for("tables.show", table_id=table.id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("tables/new.html", form=form), status


@bp.route("/tables/import", methods=["GET", "POST"])
@csrf.exempt  # the form checks its own CSRF token, after the larger body limit is set
@bodies.allow_body(IMPORT_BODY_LIMIT)
@ratelimits.creating
def import_table() -> ResponseReturnValue:
    """Import an export file as a new table; every deal is checked by the rules first."""
    return _import(None)


@bp.route("/tables/<table_id>/import", methods=["GET", "POST"])
@csrf.exempt  # as above
@bodies.allow_body(IMPORT_BODY_LIMIT)
@ratelimits.creating
def import_games(table_id: str) -> ResponseReturnValue:
    """Import an export file's games into this table (edit rights)."""
    table = require_table(table_id)
    _require_edit(table)
    return _import(table)


def _import(table: CardTable | None) -> ResponseReturnValue:
    """Check and store an uploaded export file, or show why it was refused."""
    request.max_content_length = IMPORT_BODY_LIMIT
    try:
        form = ImportForm()
    except RequestEntityTooLarge:
        return _too_large(table)
    if form.validate_on_submit():
        # The parser has the whole file by now, bounded by the body's limit.
        content = form.file.data.read(IMPORT_LIMIT + 1)
        if len(content) > IMPORT_LIMIT:
            return _too_large(table)
        try:
            document = exchange.load(content)
            import_checks.check_sizes(exchange.documents_of(document))
            if table is None and isinstance(document, dict) and document.get("table") is None:
                if not (form.name.data or "").strip():
                    raise exchange.ImportRefused(
                        _("This file holds games without a table: give the new table a name.")
                    )
                document = dict(document, table={"name": form.name.data.strip(), "players": []})
            result = exchange.import_document(document, table=table)
        except exchange.ImportRefused as error:
            form.add_rule_errors({"file": [_("Nothing was imported. %(why)s", why=str(error))]})
        else:
            return _imported(result)
    status = 422 if form.is_submitted() else 200
    return render_template("tables/import.html", form=form, table=table), status


def _too_large(table: CardTable | None) -> tuple[str, int, dict[str, str]]:
    """Refuse an export file over the import's limit with 413, saying so next to the file."""
    form = ImportForm(formdata=None)
    message = _(
        "Nothing was imported: the file is larger than %(n)s MiB. Split it into several files.",
        n=IMPORT_LIMIT // (1024 * 1024),
    )
    form.add_rule_errors({"file": [message]})
    page = render_template("tables/import.html", form=form, table=table)
    return page, 413, {"Connection": "close"}


@bp.get("/tables/<table_id>")
def show(table_id: str) -> str:
    """Show the table: its games (filtered, a page at a time), its regulars and its links."""
    table = require_table(table_id)
    keyring.remember(keyring.RECENT_TABLES, table.id)
    counts = tables.player_counts(table)
    regulars = tables.regulars(table, counts)
    regular_pages = max(1, -(-len(regulars) // REGULARS_PER_PAGE))
    regular_page = params.int_arg("players_page", 1, 1, regular_pages) or 1
    shown = regulars[(regular_page - 1) * REGULARS_PER_PAGE : regular_page * REGULARS_PER_PAGE]
    filters = _filters(table)
    page = tables.archive(table, **filters)
    editable = keyring.can_edit(keyring.TABLE_TOKENS, table)
    merge_form = None
    if editable and len(regulars) > 1:
        merge_form = MergeForm(formdata=None)
        choices = [(p.id, p.name) for p in sorted(regulars, key=lambda p: p.key)]
        merge_form.source.choices = choices
        merge_form.target.choices = choices
    return render_template(
        "tables/show.html",
        table=table,
        regulars=shown,
        regular_page=regular_page,
        regular_pages=regular_pages,
        regulars_url=lambda n: url_for(
            "tables.show", table_id=table.id, players_page=n, _anchor="players"
        ),
        counts=counts,
        page=page,
        filters=filters,
        rulesets=engine.rulesets(),
        outcomes=OUTCOME_LABELS,
        decided=DECIDED_LABELS,
        can_edit=editable,
        share=_share(table, editable),
        merge_form=merge_form,
        page_url=lambda n: url_for("tables.show", table_id=table.id, page=n, **_query(filters)),
    )


@bp.get("/tables/<table_id>/edit/<token>")
def join(table_id: str, token: str) -> ResponseReturnValue:
    """Let this browser start games at the table when the token is right, then drop it."""
    table = require_table(table_id)
    g.carries_token = True
    if not tables.check_table_token(table, token):
        message = _("This edit link is not valid any more. Ask for a new one.")
        return render_template("error.html", title=_("Link not valid"), message=message), 403
    keyring.grant(keyring.TABLE_TOKENS, table.id, token)
    keyring.remember(keyring.RECENT_TABLES, table.id)
    flash(_("This device can now start games at this table."))
    return redirect(url_for("tables.show", table_id=table.id), 303)


@bp.post("/tables/<table_id>/edit-link")
def rotate(table_id: str) -> Response:
    """Make a new edit link: every older one, and every browser that opened it, stops editing."""
    table = require_table(table_id)
    _require_edit(table)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    keyring.grant(keyring.TABLE_TOKENS, table.id, tables.rotate_table_token(table))
    flash(_("New edit link made. Old edit links no longer work."))
    return redirect(url_for("tables.show", table_id=table.id, _anchor="share"), 303)


@bp.route("/tables/<table_id>/games/new", methods=["GET", "POST"])
@ratelimits.creating
def new_game(table_id: str) -> ResponseReturnValue:
    """Start a game at the table, its regulars offered by name."""
    table = require_table(table_id)
    _require_edit(table)
    rulesets = engine.rulesets()
    chosen = request.form.get("ruleset") or request.args.get("ruleset")
    # How many play decides the games offered while choosing; a game started is the one
    # chosen, whatever count was left ticked.
    counted = request.form.get("seats") if request.form.get("switch") else None
    seats, ruleset = chosen_setup(rulesets, chosen, counted)
    form = new_game_form(rulesets, ruleset, seats)
    counts = tables.player_counts(table)
    regulars = tables.regulars(table, counts)
    setup_url = url_for("tables.new_game", table_id=table.id)
    if request.form.get("switch"):
        # The ruleset or a house rule changed: the form again for that game, names kept.
        return render(
            "tables/new_game.html",
            "games/_setup_fields.html",
            form=form,
            table=table,
            regulars=regulars,
            ruleset=ruleset,
            setup_url=setup_url,
        )
    if form.validate_on_submit():
        setup = form.to_request()
        # Seats left empty at the end are not played: the ruleset says how many may play.
        players = list(setup["players"])
        while len(players) > ruleset.min_players and not players[-1]:
            players.pop()
        try:
            game, token = tables.start_game(table, **(setup | {"players": players}))
        except engine.RuleViolation as exc:
            errors.refused(form, exc)
        else:
            keyring.grant(keyring.GAME_TOKENS, game.id, token)
            keyring.remember(keyring.RECENT_GAMES, game.id)
            flash(_("Game started at %(table)s.", table=table.name))
            return redirect(url_for("games.show", game_id=game.id), 303)
    elif not form.is_submitted():
        for entry, player in zip(form.players, regulars[: ruleset.max_players], strict=False):
            entry.data = player.name
    status = 422 if form.is_submitted() else 200
    return (
        render_template(
            "tables/new_game.html",
            form=form,
            table=table,
            regulars=regulars,
            ruleset=ruleset,
            setup_url=setup_url,
        ),
        status,
    )


@bp.post("/tables/<table_id>/merge")
def merge(table_id: str) -> Response:
    """Fold one spelling of a player into another; their games and records follow."""
    table = require_table(table_id)
    _require_edit(table)
    form = MergeForm()
    choices = [(p.id, p.name) for p in table.players]
    form.source.choices = choices
    form.target.choices = choices
    if not form.validate_on_submit():
        abort(400)
    names = dict(choices)
    try:
        tables.merge_players(table, form.source.data, form.target.data)
    except tables.MergeRefused as error:
        flash(str(error))
    except LookupError:
        abort(404)
    else:
        flash(
            _(
                "%(a)s is now counted as %(b)s.",
                a=names[form.source.data],
                b=names[form.target.data],
            )
        )
    return redirect(url_for("tables.show", table_id=table.id, _anchor="players"), 303)


@bp.get("/tables/<table_id>/players/<int:player_id>")
def player(table_id: str, player_id: int) -> str:
    """Show one regular's record at the table."""
    table = require_table(table_id)
    if player_id not in {p.id for p in table.players}:
        abort(404)
    record = stats.table_stats(table, player_id)["players"][0]
    return render_template(
        "tables/player.html",
        table=table,
        record=record,
        decided=DECIDED_LABELS,
        labels=_statistic_labels(),
    )


@bp.get("/tables/<table_id>/stats")
def table_stats(table_id: str) -> str:
    """Show every regular's record side by side, and how the table's games ended."""
    table = require_table(table_id)
    summary = stats.table_stats(table)
    return render_template(
        "tables/stats.html",
        table=table,
        summary=summary,
        decided=DECIDED_LABELS,
        labels=_statistic_labels(),
    )


@bp.get("/tables/<table_id>/export.json")
def export_json(table_id: str) -> Response:
    """Download the table and all its games as lossless JSON."""
    table = require_table(table_id)
    chunks = exchange.table_json_chunks(table)
    return downloads.streamed_download(chunks, "application/json", f"{table.name}.json")


@bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id: str) -> Response:
    """Download every deal of every game at the table, one row per player."""
    table = require_table(table_id)
    chunks = exchange.table_csv_chunks(table)
    return downloads.streamed_download(chunks, "text/csv", f"{table.name}.csv")


# --- helpers ---------------------------------------------------------------------------------


def _imported(result: exchange.ImportResult) -> str:
    """Grant this browser the edit links of what it imported, and show them, once.

    The page answers the POST itself (no redirect): the links of a large import do not
    fit in the session cookie, and they must not be kept anywhere else.
    """
    target = result.table
    assert target is not None  # the page imports to a table: the file's, or one it names
    base = links.public_base_url()
    table_url = None
    if result.table_token:
        keyring.grant(keyring.TABLE_TOKENS, target.id, result.table_token)
        table_url = base + url_for("tables.join", table_id=target.id, token=result.table_token)
    keyring.remember(keyring.RECENT_TABLES, target.id)
    edit_links: list[tuple[Game, str]] = []
    # The keyring keeps the newest tokens: grant games still in progress last, so they stay.
    for game in sorted(result.games, key=lambda game: game.status == engine.Status.IN_PROGRESS):
        token = result.game_tokens.get(game.id)
        if token is None:
            continue  # restored with the file's own token: its old links still work
        keyring.grant(keyring.GAME_TOKENS, game.id, token)
        edit_links.append((game, base + url_for("sharing.join", game_id=game.id, token=token)))
    g.carries_token = True
    return render_template(
        "tables/imported.html",
        table=target,
        table_url=table_url,
        edit_links=edit_links,
        count=len(result.games),
    )


def _filters(table: CardTable) -> Filters:
    """Return the archive's filters and page from the query string, unknown values dropped."""
    args = request.args
    player = params.int_arg("player", None, 1, params.MAX_ID)
    ruleset = args.get("ruleset") or None
    outcome = args.get("outcome") or None
    return {
        "page": params.int_arg("page", 1, 1, params.MAX_ID) or 1,
        "player": player if player in {p.id for p in table.players} else None,
        "ruleset": ruleset if ruleset in {r.id for r in engine.rulesets()} else None,
        "outcome": engine.Status(outcome) if outcome in tables.OUTCOMES else None,
    }


def _statistic_labels() -> dict[str, dict[str, engine.Message]]:
    """Return each ruleset's statistics labels by tag, for the pages to translate."""
    return {r.id: {s.tag: s.label for s in r.statistics} for r in engine.rulesets()}


def _query(filters: Filters) -> dict[str, Any]:
    """Return the filters worth repeating in a link (page excluded)."""
    return {k: v for k, v in filters.items() if k != "page" and v is not None}


def _share(table: CardTable, editable: bool) -> dict[str, Any]:
    """Return the table's view link and, for an editor, its edit link, each with a QR code."""
    base = links.public_base_url()
    view_url = base + url_for("tables.show", table_id=table.id)
    shared = {
        "view_url": view_url,
        "view_qr": links.qr_svg(view_url, _("QR code of the table's view link")),
        "edit_url": None,
        "edit_qr": None,
    }
    # The copy a phone keeps offline holds no edit link (scorekeeper/web/sharing.py).
    token = (
        keyring.token(keyring.TABLE_TOKENS, table.id)
        if editable and not sharing.for_copy()
        else None
    )
    if token:
        edit_url = base + url_for("tables.join", table_id=table.id, token=token)
        shared["edit_url"] = edit_url
        shared["edit_qr"] = links.qr_svg(edit_url, _("QR code of the table's edit link"))
        g.carries_token = True
    return shared
