"""Draw the home-screen icons of the web app manifest into static/icons/ (a developer's tool).

The PNGs are committed; run this again only to change them: `pip install Pillow` in any
environment, then `python tools/make_icons.py`. Pillow is not a dependency of the app.
"""

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "static" / "icons"
ACCENT = (10, 88, 176)  # --accent of static/app.css, also the manifest's theme colour
CARD = (255, 255, 255)
INK = (17, 20, 24)  # --fg
RED = (196, 0, 0)  # --red-suit
SCALE = 4  # draw large, then shrink: smooth edges without antialiasing primitives


def spade(draw, cx, cy, size, colour):
    """Draw a spade centred on (cx, cy), `size` tall."""
    r = size * 0.25
    top = cy - size * 0.5
    lobes_y = cy + size * 0.08
    draw.polygon([(cx, top), (cx - 2 * r, lobes_y), (cx + 2 * r, lobes_y)], fill=colour)
    for dx in (-r, r):
        draw.ellipse([cx + dx - r, lobes_y - r, cx + dx + r, lobes_y + r], fill=colour)
    stem_top, stem_bottom = cy + size * 0.05, cy + size * 0.5
    draw.polygon(
        [(cx, stem_top), (cx - r * 0.9, stem_bottom), (cx + r * 0.9, stem_bottom)], fill=colour
    )


def heart(draw, cx, cy, size, colour):
    """Draw a heart centred on (cx, cy), `size` tall."""
    r = size * 0.25
    lobes_y = cy - size * 0.2
    for dx in (-r, r):
        draw.ellipse([cx + dx - r, lobes_y - r, cx + dx + r, lobes_y + r], fill=colour)
    draw.polygon(
        [(cx - 2 * r, lobes_y + r * 0.15), (cx + 2 * r, lobes_y + r * 0.15), (cx, cy + size * 0.5)],
        fill=colour,
    )


def icon(size, *, maskable):
    """Return the icon: two cards on the accent colour; a maskable one keeps to the safe zone."""
    big = size * SCALE
    image = Image.new("RGB", (big, big), ACCENT)
    draw = ImageDraw.Draw(image)
    art = big * (0.62 if maskable else 0.8)  # maskable: inside the central 80 % circle
    x0, y0 = (big - art) / 2, (big - art) / 2
    w, h = art * 0.56, art * 0.78
    radius = art * 0.06
    back = [x0 + art * 0.04, y0 + art * 0.02, x0 + art * 0.04 + w, y0 + art * 0.02 + h]
    front = [x0 + art * 0.40, y0 + art * 0.20, x0 + art * 0.40 + w, y0 + art * 0.20 + h]
    for box in (back, front):
        draw.rounded_rectangle(box, radius, fill=CARD, outline=INK, width=max(2, big // 96))
    spade(
        draw, (back[0] + back[2]) / 2 - w * 0.12, (back[1] + back[3]) / 2 - h * 0.1, h * 0.42, INK
    )
    heart(draw, (front[0] + front[2]) / 2, (front[1] + front[3]) / 2, h * 0.42, RED)
    return image.resize((size, size), Image.LANCZOS)


def main():
    """Write every icon the manifest and base.html name."""
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (180, 192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()
