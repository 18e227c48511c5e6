"""Adding the app to a phone's home screen: the web app manifest and its icons."""

import json
import re
import struct
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"


def png_size(path):
    """Return a PNG's width and height, read from its header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_manifest_is_served_as_a_manifest_and_valid_json(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.text)
    assert manifest["name"] == "Scorekeeper"
    assert manifest["short_name"] == "Scorekeeper"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0a58b0"
    assert manifest["background_color"] == "#ffffff"


def test_manifest_icons_exist_at_their_sizes_with_a_maskable_one(client):
    icons = json.loads(client.get("/manifest.webmanifest").text)["icons"]
    sizes = set()
    for icon in icons:
        assert icon["type"] == "image/png"
        served = client.get(icon["src"])
        assert served.status_code == 200
        assert served.mimetype == "image/png"
        served.close()
        # Served by its hashed name: icon-192.<12 hex digits>.png
        name = re.sub(r"\.[0-9a-f]{12}(?=\.png$)", "", icon["src"].removeprefix("/static/"))
        path = STATIC / name
        assert path.name != Path(icon["src"]).name
        width, height = png_size(path)
        assert f"{width}x{height}" == icon["sizes"]
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_every_page_links_the_manifest_and_a_theme_colour(client):
    html = client.get("/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#0a58b0"' in html
    assert "apple-touch-icon" in html
    assert png_size(STATIC / "icons" / "icon-180.png") == (180, 180)


def test_manifest_speaks_the_pages_language(client):
    manifest = json.loads(
        client.get("/manifest.webmanifest", headers={"Accept-Language": "fr"}).text
    )
    assert manifest["lang"] == "fr"


def test_no_script_holds_the_first_paint(client, app):
    """Every script the parser meets is deferred (htmx) or a module (deferred too, never
    async); the rest stand in an inert template, which static/app.js loads once the page
    is parsed."""
    for local_only in (False, True):
        app.config["HTMX_LOCAL_ONLY"] = local_only
        html = client.get("/").text
        head = html[: html.index("</head>")]
        start = head.index('<template id="later-scripts">')
        end = head.index("</template>", start)
        parsed, later = head[:start] + head[end:], head[start:end]
        tags = parsed.split("<script")[1:]
        opening = [t.split(">")[0] for t in tags]
        assert tags and all(" defer" in t or ' type="module"' in t for t in opening), tags
        assert not any(" async" in t for t in opening), tags
        assert later.count("<script") >= 4, later
        assert "later-scripts" in (STATIC / "app.js").read_text()


def test_the_scripts_share_nothing_through_window():
    """Our scripts are modules sharing what they share by import (static/common.js): none
    puts its state on `window` for another to read."""
    ours = [p for p in STATIC.glob("*.js") if not p.name.endswith(".min.js")]
    assert len(ours) >= 10
    for path in ours:
        text = path.read_text()
        assert not re.search(r"window\.scorekeeper[A-Za-z]*\s*=", text), path.name
        assert "document.currentScript" not in text, path.name  # null in a module
