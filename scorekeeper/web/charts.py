"""Draw a game's running scores as an SVG line chart: server-side, no script, printable."""

from collections.abc import Mapping, Sequence
from typing import Any

from flask import Flask
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup, escape

WIDTH = 380
HEIGHT = 240
LEFT = 34
RIGHT = 80
"""The least room at the right for each line's end label; more where a name needs it."""
TOP = 12
BOTTOM = 30
CHAR_WIDTH = 8.5
"""About the widest a character of a label is drawn (13 units, bold sans-serif)."""
LINE_HEIGHT = 12

# Colours that stay apart for the common colour-vision deficiencies (Okabe-Ito), each
# paired with its own dash pattern and marker so the lines differ without colour too.
# These are the light theme's, written on the SVG itself so it stands alone (a download,
# paper); the page's stylesheet (static/tables.css) sets each series' colour and the
# target's through `.score-chart .series-N` for the light and the dark theme, and every
# text and grid line takes `currentColor`, the page's own text colour.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8a6d00", "#56B4E9", "#000000")
TARGET_COLOUR = "#b00020"
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4")
MARKERS = ("circle", "square", "diamond", "triangle", "cross", "circle", "square")


def _ticks(low: int, top: int, most: int = 6) -> list[int]:
    """Return round tick values covering low..top, at most about `most` of them."""
    span = max(top - low, 1)
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        step = candidate
        if span / candidate <= most:
            break
    first = (low // step) * step
    return list(range(first, top + 1, step))


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    """Return one data-point marker, drawn so shape alone tells the lines apart."""
    r = 3.2
    if kind == "square":
        return (
            f'<rect class="marker" x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
            f'height="{2 * r:.1f}" fill="{colour}"/>'
        )
    if kind == "diamond":
        return (
            f'<path class="marker" d="M{x:.1f} {y - r - 1:.1f}L{x + r + 1:.1f} {y:.1f}'
            f'L{x:.1f} {y + r + 1:.1f}L{x - r - 1:.1f} {y:.1f}Z" fill="{colour}"/>'
        )
    if kind == "triangle":
        return (
            f'<path class="marker" d="M{x:.1f} {y - r - 1:.1f}L{x + r + 1:.1f} {y + r:.1f}'
            f'L{x - r - 1:.1f} {y + r:.1f}Z" fill="{colour}"/>'
        )
    if kind == "cross":
        return (
            f'<path class="marker cross" d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}'
            f'M{x - r:.1f} {y + r:.1f}L{x + r:.1f} {y - r:.1f}" stroke="{colour}" '
            f'stroke-width="2"/>'
        )
    return f'<circle class="marker" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}"/>'


def side_names(players: Sequence[str], teams: Sequence[Sequence[int]] | None) -> list[str]:
    """Return the name of each line: a player's, or a team's members joined ("Ann & Di")."""
    if not teams:
        return list(players)
    return [" & ".join(players[seat] for seat in team) for team in teams]


def score_chart(
    players: Sequence[str],
    deals: Sequence[Mapping[str, Any]],
    target: int,
    chart_id: str = "score-chart",
    teams: Sequence[Sequence[int]] | None = None,
) -> Markup:
    """Return an SVG of each side's running score after every deal, the target line marked.

    One line per team where fixed teams score together (`teams`, seat tuples as the game
    document lists them), else one per player. `deals` are the API's deal documents,
    oldest first (only `number` and `scores` are read). Names are escaped; the result is
    safe to include in a page as it is.
    """
    sides = [tuple(team) for team in teams] if teams else [(seat,) for seat in range(len(players))]
    names = side_names(players, teams)
    series = [[0, *(int(d["scores"][side[0]]) for d in deals)] for side in sides]
    values = [v for line in series for v in line]
    low = min(0, *values) if values else 0
    top = max(target, *values) if values else target
    ticks = _ticks(low, top)
    low, top = min(low, ticks[0]), max(top, ticks[-1])
    # Each end label in full: its final score and first name, a team's other names on a
    # line each below; the plot leaves the room the longest line needs.
    labels = [
        [f"{line[-1]} {players[side[0]]}", *(f"& {players[seat]}" for seat in side[1:])]
        for side, line in zip(sides, series, strict=True)
    ]
    longest = max((len(text) for label in labels for text in label), default=0)
    right = max(RIGHT, round(longest * CHAR_WIDTH) + 8)
    plot_w = WIDTH - LEFT - right
    plot_h = HEIGHT - TOP - BOTTOM
    count = len(deals)

    def x_at(index: int) -> float:
        return LEFT + (plot_w * index / count if count else 0)

    def y_at(value: float) -> float:
        return TOP + plot_h * (top - value) / (top - low or 1)

    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    finals = ", ".join(
        f"{escape(name)} {line[-1]}" for name, line in zip(names, series, strict=True)
    )
    # Marked outside f-string braces, where the message extractor sees them. Translations
    # are trusted like templates; the names in `finals` are escaped above.
    title = escape(_("Running scores, deal by deal"))
    axis_label = escape(_("Deal"))
    target_label = escape(_("%(target)s to win", target=target))
    description = ngettext(
        "After %(num)s deal: %(finals)s. The line at %(target)s marks the target.",
        "After %(num)s deals: %(finals)s. The line at %(target)s marks the target.",
        count,
        finals=finals,
        target=target,
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" id="{escape(chart_id)}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" font-family="sans-serif" font-size="13">',
        f'<title id="{title_id}">{title}</title>',
        f'<desc id="{desc_id}">{description}</desc>',
    ]
    # Grid and axis labels.
    for tick in ticks:
        y = y_at(tick)
        parts.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" '
            f'stroke="currentColor" stroke-opacity="{0.5 if tick == 0 else 0.15}"/>'
        )
        parts.append(
            f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" fill="currentColor">'
            f"{tick}</text>"
        )
    every = max(1, -(-count // 10))
    for index in range(0, count + 1, every):
        parts.append(
            f'<text x="{x_at(index):.1f}" y="{HEIGHT - BOTTOM + 14}" text-anchor="middle" '
            f'fill="currentColor">{index}</text>'
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 3}" text-anchor="middle" '
        f'fill="currentColor">{axis_label}</text>'
    )
    # The target line.
    y_target = y_at(target)
    parts.append(
        f'<line class="target" x1="{LEFT}" y1="{y_target:.1f}" x2="{LEFT + plot_w}" '
        f'y2="{y_target:.1f}" stroke="{TARGET_COLOUR}" stroke-width="1.5" '
        f'stroke-dasharray="5 3"/>'
    )
    # Labelled at the left, where every line is still near 0, so no end label covers it.
    parts.append(
        f'<text class="target-label" x="{LEFT + 4}" y="{y_target - 5:.1f}" '
        f'fill="{TARGET_COLOUR}" font-weight="bold">{target_label}</text>'
    )
    # One line per side, then its final value and name at the right edge.
    lines_each = max((len(label) for label in labels), default=1)
    label_ys = _spread(
        [y_at(line[-1]) for line in series],
        gap=LINE_HEIGHT * lines_each,
        first=TOP,
        last=TOP + plot_h - LINE_HEIGHT * (lines_each - 1),
    )
    for index, line in enumerate(series):
        colour = COLOURS[index % len(COLOURS)]
        dash = DASHES[index % len(DASHES)]
        points = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(line))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<g class="series series-{index % len(COLOURS)}">')
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"'
            f'{dash_attr} stroke-linejoin="round"/>'
        )
        if count <= 40:
            marker = MARKERS[index % len(MARKERS)]
            parts.extend(_marker(marker, x_at(i), y_at(v), colour) for i, v in enumerate(line))
        x = LEFT + plot_w + 6
        first, *more = labels[index]
        parts.append(
            f'<text x="{x}" y="{label_ys[index] + 4:.1f}" fill="{colour}" font-weight="bold">'
            f"{escape(first)}"
            + "".join(f'<tspan x="{x}" dy="{LINE_HEIGHT}">{escape(t)}</tspan>' for t in more)
            + "</text>"
        )
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def _spread(ys: Sequence[float], gap: float, first: float, last: float) -> list[float]:
    """Return label positions near `ys`, pushed apart so no two are closer than `gap`."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    below = first - gap
    for i in order:
        placed[i] = max(ys[i], below + gap)
        below = placed[i]
    overflow = below - last
    if overflow > 0:
        for i in order:
            placed[i] -= overflow
    return placed


def init_app(app: Flask) -> None:
    """Let any page that includes ``games/_chart.html`` draw a game's chart and its legend."""
    app.add_template_global(game_score_chart, "game_score_chart")
    app.add_template_global(game_chart_names, "game_chart_names")


def game_chart_names(game: Mapping[str, Any]) -> list[str]:
    """Return the name of each line of a game document's chart, in the chart's order."""
    return side_names([p["name"] for p in game["players"]], game.get("teams"))


def game_score_chart(game: Mapping[str, Any]) -> Markup:
    """Return the score chart SVG of a game document: a line per team in team games."""
    names = [p["name"] for p in game["players"]]
    return score_chart(names, game["deals"], game["target"], teams=game.get("teams"))
