"""Memory limits as people write them: a size (base/sizes.py: `4GiB`,
`1073741824`), `70%` (of RAM), `none`; and this machine's RAM and swap."""
import re
from pathlib import Path

from base.errors import InputError
from base.sizes import SIZE, human, parse_size

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
    if not SIZE.match(s):
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
