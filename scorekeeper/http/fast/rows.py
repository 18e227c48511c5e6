"""Rows of a game page kept once made: a deal of the history, an entry of the change log.

A stored deal changes only when it is corrected, and a change-log entry never. So when a
deal is saved, the live parts made for the new version reuse every row made before and
make only the new ones. A row is kept under what it shows: a deal's stored document (a
correction gives it a new key), or the change's id; with the game, the page's language,
the viewer's rights and the mount prefix its links start with. They have a cache of their
own (``row_cache``), with room for the rows of a thousand games in play.

With the fast path off (``FAST_PATH``) every row is made with its page and none is kept.

Rows are kept only while a page is made for every browser (scorekeeper/http/cache.py puts
a marker where the CSRF token goes); a page made for one browser alone, with its own token
in it, makes its rows afresh and keeps none.
"""

from flask import Flask, g, request
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from scorekeeper.extensions import row_cache
from scorekeeper.http.cache import csrf_marker
from scorekeeper.store.models import Change


def init_app(app: Flask) -> None:
    """Give the templates `deal_row` and `change_row`: kept with the fast path, else made
    with each page."""
    fast = app.config["FAST_PATH"]
    app.add_template_global(deal_row if fast else made_deal_row, "deal_row")
    app.add_template_global(change_row if fast else made_change_row, "change_row")


@pass_context
def deal_row(context: Context, d: dict, newest: bool) -> Markup:
    """Return one deal of the history (games/_deal.html); `d` is game_page.deal_view's."""
    parts = ("deal", context["game"]["id"], d["key"], newest, context["can_edit"])
    return _kept(context, parts, "games/_deal.html", {"d": d, "newest": newest})


@pass_context
def change_row(context: Context, change: Change) -> Markup:
    """Return one entry of the change log (games/_change.html)."""
    parts = ("change", context["game"]["id"], change.id)
    return _kept(context, parts, "games/_change.html", {"change": change})


@pass_context
def made_deal_row(context: Context, d: dict, newest: bool) -> Markup:
    """Return one deal of the history, made afresh (the fast path off)."""
    return _made(context, "games/_deal.html", {"d": d, "newest": newest})


@pass_context
def made_change_row(context: Context, change: Change) -> Markup:
    """Return one entry of the change log, made afresh (the fast path off)."""
    return _made(context, "games/_change.html", {"change": change})


def _kept(context: Context, parts: tuple, template: str, values: dict) -> Markup:
    """Return the row, made with the page's context, or as kept under its key."""
    if g.get("csrf_token") != csrf_marker():
        return _made(context, template, values)
    # A row's links start with the mount prefix; its language is the page's.
    shaped_by = (request.script_root, context["current_locale"])
    key = "row|" + "|".join(str(part) for part in (*parts, *shaped_by))
    kept = row_cache.get(key)
    if kept is None:
        kept = str(_made(context, template, values))
        row_cache.set(key, kept)
    return Markup(kept)


def _made(context: Context, template: str, values: dict) -> Markup:
    made = context.environment.get_template(template).render({**context.get_all(), **values})
    return Markup(made)
