"""Share links: the address phones should use, and QR codes of links.

A laptop opened at localhost would otherwise share links no phone can open, so a
loopback host is replaced by the laptop's address on the local network.
"""

import functools
import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import current_app, request
from markupsafe import Markup

# Side of a QR code in CSS pixels: about 5 cm on a phone, readable across a table.
QR_PIXELS = 300
# Private addresses a UDP socket is "connected" to (no packet is sent) to learn which
# interface leads to the local network, so a laptop opened at 127.0.0.1 shares its LAN address.
_PROBES = ("10.255.255.254", "172.31.255.254", "192.168.255.254")


@functools.lru_cache(maxsize=512)
def qr_svg(url: str, title: str) -> Markup:
    """Return the URL as an inline SVG QR code, dark on white whatever the page's colours.

    Drawn once per link and title in each worker: a QR code is the slowest part of a page.
    """
    qr = segno.make(url, error="m")
    modules, _height = qr.symbol_size(scale=1)
    pixels = max(3, QR_PIXELS // modules) * modules
    svg = qr.svg_inline(
        scale=1,
        omitsize=True,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        title=title,
    )
    # A viewBox alone lets CSS scale the code; the size attributes keep it large without CSS.
    svg = svg.replace("<svg ", f'<svg role="img" width="{pixels}" height="{pixels}" ', 1)
    return Markup(svg)


def public_base_url() -> str:
    """Return the scheme and host phones should use in share links.

    PUBLIC_URL when set; else the address asked for when TRUSTED_HOSTS vouches for it
    (Flask refuses any other Host then). Without either, the Host header is anyone's to
    write, so only this machine's own address is used: a loopback or unknown host is
    replaced by its address on the local network, port kept.
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    parts = urlsplit(request.host_url)
    trusted = bool(current_app.config.get("TRUSTED_HOSTS"))
    if not trusted and not is_loopback(request.host):
        address = lan_address() or "localhost"
        netloc = address + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc)).rstrip("/")
    if is_loopback(request.host):
        found = lan_address()
        if found:
            netloc = found + (f":{parts.port}" if parts.port else "")
            parts = parts._replace(netloc=netloc)
    return urlunsplit(parts).rstrip("/")


def lan_address() -> str | None:
    """Return this machine's address on the local network, or None (no packet is sent)."""
    for probe in _PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
            except OSError:
                continue
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None


def is_loopback(host: str) -> bool:
    """Return True for localhost or a loopback address, with or without a port."""
    name = urlsplit("//" + host).hostname or ""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
