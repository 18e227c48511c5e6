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
TOP = 12
BOTTOM = 30

# Five colours that stay apart for the common colour-vision deficiencies (Okabe-Ito),
# each paired with its own dash pattern and marker so the lines differ without colour too.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8a6d00", "#56B4E9", "#000000")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 4")
MARKERS = ("circle", "square", "diamond", "triangle", "cross", "circle", "square")


def _ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Return round tick values covering low..high, at most about `most` of them."""
    span = max(high - low, 1)
    step = 1
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500):
        step = candidate
        if span / candidate <= most:
            break
    first = (low // step) * step
    return list(range(first, high + 1, step))


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    """Return one data-point marker, drawn so shape alone tells the lines apart."""
    r = 3.2
    if kind == "square":
        return (
            f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" '
            f'fill="{colour}"/>'
        )
    if kind == "diamond":
        return (
            f'<path d="M{x:.1f} {y - r - 1:.1f}L{x + r + 1:.1f} {y:.1f}L{x:.1f} {y + r + 1:.1f}'
            f'L{x - r - 1:.1f} {y:.1f}Z" fill="{colour}"/>'
        )
    if kind == "triangle":
        return (
            f'<path d="M{x:.1f} {y - r - 1:.1f}L{x + r + 1:.1f} {y + r:.1f}'
            f'L{x - r - 1:.1f} {y + r:.1f}Z" fill="{colour}"/>'
        )
    if kind == "cross":
        return (
            f'<path d="M{x - r:.1f} {y - r:.1f}L{x + r:.1f} {y + r:.1f}'
            f'M{x - r:.1f} {y + r:.1f}L{x + r:.1f} {y - r:.1f}" stroke="{colour}" '
            f'stroke-width="2"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}"/>'


def score_chart(
    players: Sequence[str],
    deals: Sequence[Mapping[str, Any]],
    target: int,
    chart_id: str = "score-chart",
) -> Markup:
    """Return an SVG of each player's running score after every deal, the target line marked.

    `deals` are the API's deal documents, oldest first (only `number` and `scores` are read).
    Names are escaped; the result is safe to include in a page as it is.
    """
    seats = len(players)
    series = [[0, *(int(d["scores"][seat]) for d in deals)] for seat in range(seats)]
    values = [v for line in series for v in line]
    low = min(0, *values) if values else 0
    high = max(target, *values) if values else target
    ticks = _ticks(low, high)
    low, high = min(low, ticks[0]), max(high, ticks[-1])
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    count = len(deals)

    def x_at(index: int) -> float:
        return LEFT + (plot_w * index / count if count else 0)

    def y_at(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low or 1)

    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    finals = ", ".join(
        f"{escape(name)} {line[-1]}" for name, line in zip(players, series, strict=True)
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
        f'y2="{y_target:.1f}" stroke="#b00020" stroke-width="1.5" stroke-dasharray="5 3"/>'
    )
    # Labelled at the left, where every line is still near 0, so no end label covers it.
    parts.append(
        f'<text class="target-label" x="{LEFT + 4}" y="{y_target - 5:.1f}" fill="#b00020" '
        f'font-weight="bold">{target_label}</text>'
    )
    # One line per player, then its final value and name at the right edge.
    label_ys = _spread([y_at(line[-1]) for line in series], gap=12, low=TOP, high=TOP + plot_h)
    for seat, (name, line) in enumerate(zip(players, series, strict=True)):
        colour = COLOURS[seat % len(COLOURS)]
        dash = DASHES[seat % len(DASHES)]
        points = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(line))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<g class="series series-{seat}">')
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"'
            f'{dash_attr} stroke-linejoin="round"/>'
        )
        if count <= 40:
            marker = MARKERS[seat % len(MARKERS)]
            parts.extend(_marker(marker, x_at(i), y_at(v), colour) for i, v in enumerate(line))
        parts.append(
            f'<text x="{LEFT + plot_w + 6}" y="{label_ys[seat] + 4:.1f}" fill="{colour}" '
            f'font-weight="bold">{line[-1]} {escape(_short(name))}</text>'
        )
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))


def _short(name: str, most: int = 7) -> str:
    """Return the name cut to fit beside the chart (the full names are in the legend)."""
    return name if len(name) <= most else name[: most - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _spread(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Return label positions near `ys`, pushed apart so no two are closer than `gap`."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [0.0] * len(ys)
    last = low - gap
    for i in order:
        placed[i] = max(ys[i], last + gap)
        last = placed[i]
    overflow = last - high
    if overflow > 0:
        for i in order:
            placed[i] -= overflow
    return placed


def init_app(app: Flask) -> None:
    """Let any page that includes ``games/_chart.html`` draw a game's chart."""
    app.add_template_global(game_score_chart, "game_score_chart")


def game_score_chart(game: Mapping[str, Any]) -> Markup:
    """Return the score chart SVG of a game document (for any page including _chart.html)."""
    names = [p["name"] for p in game["players"]]
    return score_chart(names, game["deals"], game["target"])
