"""Sizes as people write them: `4GiB`, `512MiB`, `64M`, `1073741824`.

Binary suffixes (KiB, MiB, GiB, TiB and the bare K, M, G, T that cgroups and
fio accept) are powers of 1024; decimal ones (kB, MB, GB, TB) powers of 1000.
The arithmetic is humanfriendly's; this module only keeps the grammar strict
(humanfriendly would read "4 gigs" as 4 GB).
"""
import re

import humanfriendly

from base.errors import InputError

# A number and one of the units above (or bytes); group 2 is the unit.
SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(b|[kmgt]|[kmgt]i?b|)\s*$", re.IGNORECASE)


def parse_size(text, argument="size"):
    """Bytes in `text` (no shares, no `none`); InputError when unparsable."""
    m = SIZE.match(str(text))
    if not m:
        raise InputError(argument, repr(text),
                         "a size like 4GiB, 512MiB, 64M or 1073741824 (bytes)")
    bare_letter = len(m.group(2)) == 1 and m.group(2).lower() != "b"  # cgroups' and fio's K, M, G, T
    value = humanfriendly.parse_size(m.group(1) + m.group(2), binary=bare_letter)
    if value < 1:
        raise InputError(argument, repr(text), "a size of at least one byte")
    return int(value)


def human(n):
    """1536 -> '1.5 KiB'; None (not measured) -> '-'."""
    return "-" if n is None else humanfriendly.format_size(n, binary=True)
