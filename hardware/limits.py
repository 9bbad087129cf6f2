"""Sizes and memory limits as people write them: `4GiB`, `512MiB`,
`1073741824`, `70%` (of RAM), `none`.

Binary suffixes (KiB, MiB, GiB, TiB and the bare K, M, G, T that cgroups and
fio accept) are powers of 1024; decimal ones (kB, MB, GB, TB) powers of 1000.
"""
import re
from pathlib import Path

from lsmrepro.errors import InputError

_UNITS = {
    "": 1, "b": 1,
    "k": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mib": 1 << 20,
    "g": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tib": 1 << 40,
    "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$")
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
    if not m or m.group(2).lower() not in _UNITS:
        raise InputError(argument, repr(text),
                         "a size like 4GiB, 512MiB, 64M or 1073741824 (bytes)")
    value = float(m.group(1)) * _UNITS[m.group(2).lower()]
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
    m = _SIZE.match(s)
    if not m or m.group(2).lower() not in _UNITS:
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
    """1536 -> '1.5 KiB'."""
    if n is None:
        return "-"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
