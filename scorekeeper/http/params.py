"""One way to read whole numbers from query strings and forms: ASCII digits, in a range.

``str.isdigit`` accepts "²" and other digits ``int`` refuses, and ``int`` accepts
"-3", " 3" and "3_000"; here only ``[0-9]+`` counts, and a number outside the range is
clamped (a page past the last is the last page), so no address can reach a 500.
"""

import re

from flask import request

DIGITS = re.compile(r"[0-9]+")
"""ASCII digits only."""
MAX_ID = 2**31 - 1
"""The largest row id or page number any database column holds."""


def is_digits(text: object) -> bool:
    """Return whether the text is a whole number written with ASCII digits only."""
    return isinstance(text, str) and DIGITS.fullmatch(text) is not None


def whole_number(text: object, hi: int = MAX_ID) -> int | None:
    """Return the text as a whole number of ASCII digits up to `hi`, else None.

    Its length is checked before it is converted: ``int`` refuses more than 4,300 digits
    with a ValueError, and a number that long is no count, seat or deal anyway.
    """
    if not is_digits(text) or len(str(text)) > len(str(hi)):
        return None
    number = int(str(text))
    return number if number <= hi else None


def parse_int(text: object, default: int | None, lo: int, hi: int) -> int | None:
    """Return the text as a whole number clamped to [lo, hi], or `default` when it is not one."""
    if not isinstance(text, str) or not is_digits(text):
        return default
    if len(text) > len(str(hi)):  # far past the range: no need to convert thousands of digits
        return hi
    return min(max(int(text), lo), hi)


def int_arg(name: str, default: int | None, lo: int, hi: int) -> int | None:
    """Return query argument `name` as a whole number clamped to [lo, hi], else `default`."""
    return parse_int(request.args.get(name), default, lo, hi)
