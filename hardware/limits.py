"""Sizes and memory limits as people write them: `4GiB`, `512MiB`,
`1073741824`, `70%` (of RAM), `none`.

Binary suffixes (KiB, MiB, GiB, TiB and the bare K, M, G, T that cgroups and
fio accept) are powers of 1024; decimal ones (kB, MB, GB, TB) powers of 1000.
The arithmetic is humanfriendly's; this module only keeps the grammar strict
(humanfriendly would read "4 gigs" as 4 GB).
"""
import re
from pathlib import Path

import humanfriendly

from lsmrepro.errors import InputError

# A number and one of the units above (or bytes); group 2 is the unit.
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(b|[kmgt]|[kmgt]i?b|)\s*$", re.IGNORECASE)
_SHARE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
EXPECTED = ("a size like 4GiB, 512MiB, 1073741824 (bytes), "
            "a share of RAM like 70%, or none")


def mem_total_bytes(meminfo="/proc/meminfo"):
    """MemTotal of this machine, in bytes."""
    return _meminfo_field(meminfo, "MemTotal")


def swap_total_bytes(meminfo="/proc/meminfo"):
    return _meminfo_field(meminfo, "SwapTotal")


def _meminfo_field(meminfo, name):
    for line in Path(meminfo).read_text().splitlines():
        key, _, rest = line.partition(":")
        if key == name:
            value, *unit = rest.split()
            return int(value) * (1024 if unit == ["kB"] else 1)
    raise InputError(meminfo, name, "a line like 'MemTotal: 24684092 kB'")


def parse_size(text, argument="size"):
    """Bytes in `text` (no shares, no `none`); InputError when unparsable."""
    m = _SIZE.match(str(text))
    if not m:
        raise InputError(argument, repr(text),
                         "a size like 4GiB, 512MiB, 64M or 1073741824 (bytes)")
    bare_letter = len(m.group(2)) == 1 and m.group(2).lower() != "b"  # cgroups' and fio's K, M, G, T
    value = humanfriendly.parse_size(m.group(1) + m.group(2), binary=bare_letter)
    if value < 1:
        raise InputError(argument, repr(text), "a size of at least one byte")
    return int(value)


def parse_limit(text, argument="--memory", meminfo="/proc/meminfo"):
    """Memory limit in bytes, or None for `none`. A limit must be positive
    and no larger than the machine's RAM (a limit above RAM limits nothing:
    the experiment would silently run unconstrained)."""
    s = str(text).strip()
    if s.lower() in ("none", "unlimited", "off"):
        return None
    total = mem_total_bytes(meminfo)
    share = _SHARE.match(s)
    if share:
        pct = float(share.group(1))
        if not 0 < pct <= 100:
            raise InputError(argument, repr(text), "a share of RAM in (0%, 100%]")
        return int(total * pct / 100) // 4096 * 4096
    if not _SIZE.match(s):
        raise InputError(argument, repr(text), EXPECTED)
    value = parse_size(s, argument)
    if value > total:
        raise InputError(argument, repr(text),
                         f"a limit no larger than this machine's RAM "
                         f"({total} bytes = {human(total)}); got {value} bytes")
    if value < 4 << 20:
        raise InputError(argument, repr(text),
                         "a limit of at least 4MiB (the runner itself and the "
                         "job's loader need a few MiB)")
    return value


def human(n):
    """1536 -> '1.5 KiB'; None (not measured) -> '-'."""
    return "-" if n is None else humanfriendly.format_size(n, binary=True)
