"""The rules at hand: each game's rules from the rule book, and the tie-break settler."""

from collections.abc import Callable, Mapping

from flask import Blueprint, Response, abort, request, url_for
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.engine import DecidedBy
from scorekeeper.http import languages
from scorekeeper.http.htmx import render
from scorekeeper.web import rulebook, settler
from scorekeeper.web.forms import HOUSE_RULE_VALUE_LABELS
from scorekeeper.web.i18n import translate

bp = Blueprint("rules", __name__, url_prefix="/rules")

STEP_NAMES: dict[DecidedBy | None, Callable[[], str]] = {
    None: lambda: _("Nobody at the target"),
    DecidedBy.HIGHEST: lambda: _("Highest score"),
    DecidedBy.BIDDER: lambda: _("The bidder"),
    DecidedBy.PARTNER: lambda: _("The partner"),
    DecidedBy.SHARED: lambda: _("Unresolved tie"),
    DecidedBy.MOON: lambda: _("The moon"),
    DecidedBy.LOWEST_AT_START: lambda: _("Lowest at the start of the deal"),
    DecidedBy.DRAW: lambda: _("Draw"),
}
"""Each step of a win check by the `decided_by` it records, in words."""


def player_words() -> rulebook.PlayerWords:
    """Return the names the pages give what the rule book names as the code spells it.

    A house rule is called by its label, a value by the settings' word for it ("Play on");
    a step of a win check by its name in the settler.
    """
    names: dict[str, str] = {}
    for ruleset in engine.rulesets():
        for name, rule in ruleset.house_rules.items():
            if rule.label is not None:
                names[name] = translate(rule.label)
            for value in rule.values:
                if isinstance(value, str) and value in HOUSE_RULE_VALUE_LABELS:
                    names[value] = str(HOUSE_RULE_VALUE_LABELS[value])
    steps = {str(step): name() for step, name in STEP_NAMES.items() if step is not None}
    return rulebook.PlayerWords(names, steps)


def _ruleset_or_404(ruleset_id: str) -> engine.Ruleset:
    """Return the ruleset with this id, or answer 404."""
    by_id = {r.id: r for r in engine.rulesets()}
    if ruleset_id not in by_id:
        abort(404)
    return by_id[ruleset_id]


@bp.get("")
def index() -> Response:
    """List the seven games, each with its summary, and the rules they all share."""
    ids = {r.id for r in engine.rulesets()}
    book = rulebook.sections()
    words = player_words()
    general = [
        rulebook.render(
            book[key],
            top_level=False,
            page_keys=set(rulebook.GENERAL),
            ruleset_ids=ids,
            words=words,
        )
        for key in rulebook.GENERAL
    ]
    return render(
        "rules/index.html", "rules/index.html", rulesets=engine.rulesets(), general=general
    )


@bp.get("/<ruleset_id>")
def show(ruleset_id: str) -> Response:
    """Show a game's rules and an empty settler for its table."""
    return _page(_ruleset_or_404(ruleset_id), {})


@bp.get("/<ruleset_id>/settle")
def settle(ruleset_id: str) -> Response:
    """Judge a position entered by hand; htmx gets the settler alone, others the whole page."""
    return _page(_ruleset_or_404(ruleset_id), request.args)


def _page(ruleset: engine.Ruleset, args: Mapping[str, str]) -> Response:
    """Render the rules page (or, for htmx, the settler) with the settler's answer, if any."""
    form, table, verdict, status = settler.settle(ruleset, args)
    ids = {r.id for r in engine.rulesets()}
    shown = rulebook.ruleset_sections(ruleset.id, ids)
    page_keys = {section.key for section in shown}
    words = player_words()
    sections = [
        rulebook.render(
            section, top_level=index == 0, page_keys=page_keys, ruleset_ids=ids, words=words
        )
        for index, section in enumerate(shown)
    ]
    return render(
        "rules/show.html",
        "rules/_settler.html",
        status,
        ruleset=ruleset,
        sections=sections,
        form=form,
        table=table,
        verdict=verdict,
        step_names=STEP_NAMES,
        reshaped="shape" in args and verdict is None and status == 200 and not form.starts_asked,
    )


@bp.app_template_global()
def rule_book_translated() -> bool:
    """Return whether the rule book is shown in the page's language (else it is in English)."""
    return rulebook.book_path() != rulebook.book_path(languages.DEFAULT)


@bp.app_template_global()
def rules_step_url(ruleset_id: str, decided_by: str | None = None) -> str:
    """Return the address of the step of a game's win check that decided (`decided_by`).

    Without a step, or for a step the rule book does not mark, the game's rules page.
    """
    anchor = f"{ruleset_id}-win-{decided_by}" if decided_by else None
    if anchor is not None and anchor not in rulebook.anchors():
        anchor = None
    return url_for("rules.show", ruleset_id=ruleset_id, _anchor=anchor)
