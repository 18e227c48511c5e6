"""Label the device behind a change so a disputed score can be traced to a phone.

Standard library only: the edit session's label is made in ``keyring`` and read back
for the change log in ``changes``.
"""

from typing import Literal, TypeAlias

WEB_PREFIX = "web:"
API_PREFIX = "api:"
API_LABEL = "api"
SEPARATOR = " · "
MAX_LENGTH = 80
"""A browser's label, at most."""
MAX_NAME = 80
"""The characters of an X-Device header kept (docs/api.md); stored after ``api:``."""

# First match wins: several browsers also claim to be Chrome or Safari.
_BROWSERS = (
    ("Edg", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS", "Firefox"),
    ("CriOS", "Chrome"),
    ("Chrome/", "Chrome"),
    ("Chromium", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Macintosh", "Mac"),
    ("Linux", "Linux"),
)


def agent_family(header: str | None) -> str:
    """Return e.g. "Chrome on Android" for a User-Agent string, or "" when unknown."""
    user_agent = header or ""
    browser = next((name for key, name in _BROWSERS if key in user_agent), "")
    system = next((name for key, name in _SYSTEMS if key in user_agent), "")
    if browser and system:
        return f"{browser} on {system}"
    return browser or system


def web_label(device_id: str, user_agent: str | None) -> str:
    """Return the label stored with a change made from a browser's edit session."""
    family = agent_family(user_agent)
    label = WEB_PREFIX + device_id + (SEPARATOR + family if family else "")
    return label[:MAX_LENGTH]


Parsed: TypeAlias = tuple[Literal["web"], str, str] | tuple[Literal["api"], str | None]
"""A stored label split for display: ("web", family, short id) or ("api", name or None)."""


def api_label(header: str | None) -> str:
    """Return the label stored with a change made through the API, named by the client.

    `header` is the X-Device header as WSGI gives it; its first 80 printable characters
    are kept. It always starts with "api", so an X-Device header can never pass for a
    browser's edit session, whatever it says.
    """
    name = "".join(ch for ch in header_text(header or "") if ch.isprintable()).strip()
    if not name:
        return API_LABEL
    return API_PREFIX + name[:MAX_NAME].strip()


def header_text(value: str) -> str:
    """Return a header's text from its WSGI value: its bytes read as UTF-8.

    A WSGI server hands every header over as its bytes, each one character (Latin-1), so
    ``Ännchens`` sent in UTF-8 arrives as ``Ã\x84nnchens``. Bytes that are not UTF-8 are
    read as Latin-1, as they came.
    """
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:  # already text beyond Latin-1, or bytes that are not UTF-8
        return value


def parse(label: str | None) -> Parsed | None:
    """Split a stored label for display: ("web", family, short id), ("api", name) or None.

    Family and name are plain text as stored or sent; templates escape them.
    """
    if not label:
        return None
    if label.startswith(WEB_PREFIX):
        device_id, _, family = label.removeprefix(WEB_PREFIX).partition(SEPARATOR)
        return ("web", family, device_id[:4])
    name = label.removeprefix(API_PREFIX)
    return ("api", None if label == API_LABEL else name)
