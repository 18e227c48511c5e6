"""Table pages: a group's games, its regulars' records, its links; game sheets and exports."""

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
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, Optional

from scorekeeper import (
    charts,
    engine,
    exchange,
    games,
    history,
    keyring,
    sharing,
    stats,
    store,
)
from scorekeeper.extensions import csrf
from scorekeeper.forms import ConfirmForm, new_game_form

bp = Blueprint("tables", __name__)

# An export file may be far larger than the 64 KiB any other request may send.
IMPORT_LIMIT = 16 * 1024 * 1024
OUTCOME_LABELS = {
    "in_progress": lambda: _("In progress"),
    "won": lambda: _("Won"),
    "shared": lambda: _("Shared win"),
    "drawn": lambda: _("Drawn"),
}
DECIDED_LABELS = {
    "highest": lambda: _("highest score"),
    "bidder": lambda: _("tie, bidder wins"),
    "partner": lambda: _("tie, partner wins"),
    "shared": lambda: _("tie, shared"),
}


class TableForm(FlaskForm):
    """Name a new table and, if wished, its regulars."""

    name = StringField(_l("Table name"), validators=[InputRequired(), Length(max=80)])
    regulars = TextAreaField(_l("Regular players (optional, one per line)"))

    def errors_for(self, *names):
        """Return the messages of these fields (the form macros ask this way)."""
        messages = []
        for name in names:
            if name is not None and name in self._fields:
                messages.extend(self[name].errors)
            messages.extend(self.__dict__.get("rule_errors", {}).get(name, ()))
        return messages

    def add_rule_errors(self, problems):
        """Add the service layer's messages, keyed by field (None: the form)."""
        errors = self.__dict__.setdefault("rule_errors", {})
        for name, messages in problems.items():
            errors.setdefault(name, []).extend(messages)


class ImportForm(FlaskForm):
    """Upload an export file; a name for the new table when the file holds none."""

    file = FileField(_l("Export file (.json)"), validators=[FileRequired()])
    name = StringField(
        _l("Table name, if the file has none"), validators=[Optional(), Length(max=80)]
    )

    def errors_for(self, *names):
        """Return the messages of these fields (the form macros ask this way)."""
        return TableForm.errors_for(self, *names)

    def add_rule_errors(self, problems):
        """Add messages keyed by field (None: the form)."""
        TableForm.add_rule_errors(self, problems)


class MergeForm(FlaskForm):
    """Choose two spellings of one person: the first is folded into the second."""

    source = SelectField(_l("Merge this name"), coerce=int)
    target = SelectField(_l("into this name"), coerce=int)


# --- who may change a table ---------------------------------------------------------------


def can_edit_table(table):
    """Return True when this browser holds the table's edit token."""
    token = keyring.token("table_edit", table.id)
    return bool(token) and history.check_table_token(table, token)


def grant_table_edit(table_id, token):
    """Give this browser the edit token of a table (newest kept when the list is full)."""
    keyring.grant("table_edit", table_id, token)


def remember_table(table_id):
    """Put a table at the top of the list of tables this device has opened."""
    keyring.remember("recent_tables", table_id)


def _load(table_id):
    table = history.get_table(table_id)
    if table is None:
        abort(404)
    return table


def _require_edit(table):
    if not can_edit_table(table):
        abort(403)


# --- pages ----------------------------------------------------------------------------------


@bp.get("/tables")
def index():
    """List the tables this device has opened, and offer to create one."""
    recent = keyring.recent("recent_tables")
    tables = history.get_tables(recent)
    return render_template(
        "tables/index.html", tables=tables, editable=keyring.tokens("table_edit")
    )


@bp.route("/tables/new", methods=["GET", "POST"])
def new():
    """Create a table; this browser may then start games there."""
    form = TableForm()
    if form.validate_on_submit():
        names = [line.strip() for line in (form.regulars.data or "").splitlines()]
        try:
            table, token = history.create_table(form.name.data, [n for n in names if n])
        except engine.RuleViolation as error:
            form.add_rule_errors(
                {"regulars" if k == "players" else k: v for k, v in error.problems.items()}
            )
        else:
            grant_table_edit(table.id, token)
            remember_table(table.id)
            flash(_("Table created. Share its links so others can follow or keep score."))
            return redirect(url_for("tables.show", table_id=table.id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("tables/new.html", form=form), status


@bp.route("/tables/import", methods=["GET", "POST"])
@csrf.exempt  # the form checks its own CSRF token, after the larger body limit is set
def import_table():
    """Import an export file as a new table; every deal is checked by the rules first."""
    return _import(None)


@bp.route("/tables/<table_id>/import", methods=["GET", "POST"])
@csrf.exempt  # as above
def import_games(table_id):
    """Import an export file's games into this table (edit rights)."""
    table = _load(table_id)
    _require_edit(table)
    return _import(table)


def _import(table):
    """Check and store an uploaded export file, or show why it was refused."""
    request.max_content_length = IMPORT_LIMIT
    form = ImportForm()
    if form.validate_on_submit():
        try:
            document = exchange.load(form.file.data.read())
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
            target = result.table
            if result.table_token:
                grant_table_edit(target.id, result.table_token)
            remember_table(target.id)
            flash(_("Imported %(n)s games, every deal checked.", n=len(result.games)))
            return redirect(url_for("tables.show", table_id=target.id), 303)
    status = 422 if form.is_submitted() else 200
    return render_template("tables/import.html", form=form, table=table), status


@bp.get("/tables/<table_id>")
def show(table_id):
    """Show the table: its games (filtered, a page at a time), its regulars and its links."""
    table = _load(table_id)
    remember_table(table.id)
    counts = history.player_counts(table)
    regulars = history.regulars(table, counts)
    filters = _filters(table)
    page = history.archive(table, **filters)
    editable = can_edit_table(table)
    merge_form = None
    if editable and len(regulars) > 1:
        merge_form = MergeForm(formdata=None)
        choices = [(p.id, p.name) for p in sorted(regulars, key=lambda p: p.key)]
        merge_form.source.choices = choices
        merge_form.target.choices = choices
    return render_template(
        "tables/show.html",
        table=table,
        regulars=regulars,
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
def join(table_id, token):
    """Let this browser start games at the table when the token is right, then drop it."""
    table = _load(table_id)
    g.carries_token = True
    if not history.check_table_token(table, token):
        message = _("This edit link is not valid any more. Ask for a new one.")
        return render_template("error.html", title=_("Link not valid"), message=message), 403
    grant_table_edit(table.id, token)
    remember_table(table.id)
    flash(_("This device can now start games at this table."))
    return redirect(url_for("tables.show", table_id=table.id), 303)


@bp.post("/tables/<table_id>/edit-link")
def rotate(table_id):
    """Make a new edit link: every older one, and every browser that opened it, stops editing."""
    table = _load(table_id)
    _require_edit(table)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    grant_table_edit(table.id, history.rotate_table_token(table))
    flash(_("New edit link made. Old edit links no longer work."))
    return redirect(url_for("tables.show", table_id=table.id, _anchor="share"), 303)


@bp.route("/tables/<table_id>/games/new", methods=["GET", "POST"])
def new_game(table_id):
    """Start a game at the table, its regulars offered by name."""
    table = _load(table_id)
    _require_edit(table)
    rulesets = engine.rulesets()
    by_id = {r.id: r for r in rulesets}
    ruleset = by_id.get(request.form.get("ruleset"), rulesets[0])
    form = new_game_form(rulesets, ruleset)
    counts = history.player_counts(table)
    regulars = history.regulars(table, counts)
    if form.validate_on_submit():
        try:
            game, token = history.start_game(table, **form.to_request())
        except engine.RuleViolation as exc:
            form.add_rule_errors(exc.problems)
        else:
            games.grant_edit(game.id, token)
            games.remember(game.id)
            flash(_("Game started at %(table)s.", table=table.name))
            return redirect(url_for("games.show", game_id=game.id), 303)
    elif not form.is_submitted():
        for entry, player in zip(form.players, regulars[:5], strict=False):
            entry.data = player.name
    status = 422 if form.is_submitted() else 200
    return (
        render_template(
            "tables/new_game.html", form=form, table=table, regulars=regulars, ruleset=ruleset
        ),
        status,
    )


@bp.post("/tables/<table_id>/merge")
def merge(table_id):
    """Fold one spelling of a player into another; their games and records follow."""
    table = _load(table_id)
    _require_edit(table)
    form = MergeForm()
    choices = [(p.id, p.name) for p in table.players]
    form.source.choices = choices
    form.target.choices = choices
    if not form.validate_on_submit():
        abort(400)
    names = dict(choices)
    try:
        history.merge_players(table, form.source.data, form.target.data)
    except history.MergeRefused as error:
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
def player(table_id, player_id):
    """Show one regular's record at the table."""
    table = _load(table_id)
    if player_id not in {p.id for p in table.players}:
        abort(404)
    record = stats.table_stats(table, player_id)["players"][0]
    return render_template("tables/player.html", table=table, record=record, decided=DECIDED_LABELS)


@bp.get("/tables/<table_id>/stats")
def table_stats(table_id):
    """Show every regular's record side by side, and how the table's games ended."""
    table = _load(table_id)
    summary = stats.table_stats(table)
    return render_template(
        "tables/stats.html", table=table, summary=summary, decided=DECIDED_LABELS
    )


@bp.get("/tables/<table_id>/export.json")
def export_json(table_id):
    """Download the table and all its games as lossless JSON."""
    table = _load(table_id)
    return exchange.json_download(exchange.export_table(table), f"{table.name}.json")


@bp.get("/tables/<table_id>/export.csv")
def export_csv(table_id):
    """Download every deal of every game at the table, one row per player."""
    table = _load(table_id)
    return exchange.csv_response(exchange.table_csv(table), f"{table.name}.csv")


@bp.get("/games/<game_id>/sheet")
def sheet(game_id):
    """Show a game's score sheet: the deal-by-deal table and the chart, made to print."""
    game = store.get_game(game_id)
    if game is None:
        abort(404)
    document = store.game_document(game)
    players = [p["name"] for p in document["players"]]
    table = history.get_table(game.table_id) if game.table_id else None
    return render_template(
        "games/sheet.html",
        game=document,
        players=players,
        table=table,
        created_at=game.created_at,
        chart=charts.score_chart(players, document["deals"], document["target"]),
        winner_names=[players[s] for s in document["winners"]],
        decided=DECIDED_LABELS,
    )


@bp.get("/games/<game_id>/export.json")
def export_game_json(game_id):
    """Download one game as lossless JSON."""
    game = store.get_game(game_id, deals=False)
    if game is None:
        abort(404)
    return exchange.json_download(exchange.export_game(game), f"game-{game.id}.json")


@bp.get("/games/<game_id>/export.csv")
def export_game_csv(game_id):
    """Download one game's deals, one row per deal per player."""
    game = store.get_game(game_id, deals=False)
    if game is None:
        abort(404)
    return exchange.csv_response(exchange.game_csv(game), f"game-{game.id}.csv")


# --- template helpers ------------------------------------------------------------------------


@bp.app_template_global()
def game_score_chart(game):
    """Return the score chart SVG of a game document (for any page including _chart.html)."""
    names = [p["name"] for p in game["players"]]
    return charts.score_chart(names, game["deals"], game["target"])


# --- helpers ---------------------------------------------------------------------------------


def _filters(table):
    """Return the archive's filters and page from the query string, unknown values dropped."""
    args = request.args
    player = args.get("player", type=int)
    ruleset = args.get("ruleset") or None
    outcome = args.get("outcome") or None
    return {
        "page": max(1, args.get("page", 1, type=int)),
        "player": player if player in {p.id for p in table.players} else None,
        "ruleset": ruleset if ruleset in {r.id for r in engine.rulesets()} else None,
        "outcome": outcome if outcome in history.OUTCOMES else None,
    }


def _query(filters):
    """Return the filters worth repeating in a link (page excluded)."""
    return {k: v for k, v in filters.items() if k != "page" and v is not None}


def _share(table, editable):
    """Return the table's view link and, for an editor, its edit link, each with a QR code."""
    base = sharing.public_base_url()
    view_url = base + url_for("tables.show", table_id=table.id)
    links = {
        "view_url": view_url,
        "view_qr": sharing.qr_svg(view_url, _("QR code of the table's view link")),
        "edit_url": None,
        "edit_qr": None,
    }
    token = keyring.token("table_edit", table.id) if editable else None
    if token:
        edit_url = base + url_for("tables.join", table_id=table.id, token=token)
        links["edit_url"] = edit_url
        links["edit_qr"] = sharing.qr_svg(edit_url, _("QR code of the table's edit link"))
        g.carries_token = True
    return links
