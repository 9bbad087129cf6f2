"""The "experimental system" table (Table 3 of the `slr` study) from a
fingerprint: one row per item, values written the way papers write them.

    python -m hardware.system_table --fingerprint F.json [--profile P.json] \\
        --out-csv T.csv --out-md T.md

`rows(fingerprint)` is the function the paper stage can call to add its own
rows (key-value store, workloads) below these.
"""
import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from base.atomic import write_text
from base.errors import InputError, cli


def _gib(n):
    return "none" if n == 0 else (f"{n / 2**30:.1f} GiB" if n else "–")


def _container(c):
    name = c.get("image") or c.get("kind") or "none"
    image_id = c.get("image_id")
    return f"{name} (id {image_id[:12]})" if image_id and image_id != name else name


def rows(fp, profile=None):
    s = fp["stable"]
    cpu, mem, st = s["cpu"], s["memory"], s["storage"]
    dev, fs = st["device"], st["filesystem"]
    freq = s["frequency"]
    gov = freq.get("governor") or "not exposed"
    turbo = {True: "on", False: "off", None: "not exposed"}[freq.get("turbo")]
    virt = f", virtualized ({cpu['hypervisor']})" if cpu.get("hypervisor") else ""
    disk = " ".join(x for x in [dev.get("vendor") if dev.get("model") else None,
                                dev.get("model")] if x) or dev.get("driver") or dev.get("name")
    storage = (f"{_gib(dev.get('size_bytes'))} {disk or 'device'}"
               f" ({'rotational' if dev.get('rotational') else 'non-rotational'} as reported, "
               f"scheduler {dev.get('scheduler')})")
    if profile:
        m = profile.get("measurements", {})
        bits = []
        if "randread-4k-qd1" in m:
            bits.append(f"4 KiB read {m['randread-4k-qd1']['clat_ns']['mean'] / 1000:.0f} µs at QD1")
        if "randread-4k-qd32" in m:
            bits.append(f"{m['randread-4k-qd32']['iops'] / 1000:.0f}k IOPS at QD32")
        if "seqread-1m" in m:
            bits.append(f"{m['seqread-1m']['bw_bytes'] / 2**20:.0f} MiB/s seq. read")
        if bits:
            storage += "; " + ", ".join(bits)
    tc = s["toolchain"]
    vulns = s.get("mitigations", {})
    vulnerable = sorted(k for k, v in vulns.items() if v and v.startswith("Vulnerable"))
    out = [
        ("CPU", f"{cpu['model']}{virt}"),
        ("Cores / threads", f"{cpu['cores']} cores / {cpu['threads']} threads, "
                            f"{cpu['sockets']} socket(s)"),
        ("Frequency", f"governor {gov}, turbo {turbo}"),
        ("Memory", f"{mem['total_bytes'] // 2**20:,} MB, swap {_gib(mem.get('swap_total_bytes'))}"),
        ("Storage", storage),
        ("Filesystem", f"{fs.get('type')} ({','.join(fs.get('mount_options', []))})"),
        ("OS", s["os"].get("pretty_name") or "–"),
        ("Kernel", s["kernel"]["release"]),
        ("Mitigations", "vulnerable: " + ", ".join(vulnerable) if vulnerable
                        else "all reported mitigated or not affected"),
        ("Compiler", tc.get("g++") or tc.get("clang") or "–"),
        ("Container", _container(s["container"])),
        ("Node", (fp.get("node") or {}).get("name") or fp.get("host") or "–"),
        ("Fingerprint", fp["id"]),
    ]
    return out


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m hardware.system_table")
    p.add_argument("--fingerprint", required=True)
    p.add_argument("--profile")
    p.add_argument("--out-csv")
    p.add_argument("--out-md")
    return p.parse_args(argv)


def _load(path, what):
    try:
        return json.loads(Path(path).read_text())
    except OSError as e:
        raise InputError(path, None, f"a readable {what} ({e.strerror})")
    except json.JSONDecodeError as e:
        raise InputError(path, f"line {e.lineno}", f"valid JSON ({e.msg})")


@cli
def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    fp = _load(a.fingerprint, "fingerprint")
    if "stable" not in fp or "id" not in fp:
        raise InputError(a.fingerprint, "stable", "a fingerprint from hardware.fingerprint")
    table = pd.DataFrame(rows(fp, _load(a.profile, "device profile") if a.profile else None),
                         columns=["item", "value"])
    if a.out_csv:
        write_text(a.out_csv, table.to_csv(index=False, lineterminator="\n"))
    # A "|" inside a value would split its cell.
    md = table.assign(value=table["value"].str.replace("|", "/")).to_markdown(index=False) + "\n"
    if a.out_md:
        write_text(a.out_md, md)
    if not a.out_csv and not a.out_md:
        sys.stdout.write(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
