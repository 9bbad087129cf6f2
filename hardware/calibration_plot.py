"""The device calibration figure and table for the report.

    python -m hardware.calibration_plot --profile profile.json \\
        --out-pdf F.pdf --out-png F.png --out-csv T.csv --out-md T.md

Figure: (a) IOPS and (b) bandwidth per measurement, (c) completion latency
mean, p50, p99 and p99.9 per measurement on a log axis. Table: one row per
measurement with its fio parameters and the same numbers. A pure function of
the profile.
"""
import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from base.atomic import atomic_path, write_text
from base.errors import InputError, cli

from hardware.fio_profile import MEASUREMENT_ORDER

COLUMNS = ["measurement", "rw", "bs", "iodepth", "ioengine", "direct", "iops",
           "bandwidth_MiBps", "clat_mean_us", "clat_p50_us", "clat_p99_us", "clat_p99.9_us"]


def load_profile(path):
    try:
        prof = json.loads(Path(path).read_text())
    except OSError as e:
        raise InputError(path, None, f"a readable device profile ({e.strerror})")
    except json.JSONDecodeError as e:
        raise InputError(path, f"line {e.lineno}", f"valid JSON ({e.msg})")
    if not isinstance(prof, dict) or not prof.get("measurements"):
        raise InputError(path, "measurements", "a device profile from hardware.fio_profile")
    return prof


def table(prof):
    rank = {n: i for i, n in enumerate(MEASUREMENT_ORDER)}
    rows = []
    for name, m in sorted(prof["measurements"].items(),
                          key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])):
        c = m["clat_ns"]
        us = lambda v: None if v is None else v / 1000
        rows.append({"measurement": name, "rw": m.get("rw"), "bs": m.get("bs"),
                     "iodepth": m.get("iodepth"), "ioengine": m.get("ioengine"),
                     "direct": m.get("direct"), "iops": m["iops"],
                     "bandwidth_MiBps": m["bw_bytes"] / 2**20,
                     "clat_mean_us": us(c.get("mean")), "clat_p50_us": us(c.get("p50")),
                     "clat_p99_us": us(c.get("p99")), "clat_p99.9_us": us(c.get("p99.9"))})
    return pd.DataFrame(rows, columns=COLUMNS)


def caption(prof):
    st = prof.get("storage", {})
    dev, fs = st.get("device", {}), st.get("filesystem", {})
    par = prof.get("parameters", {})
    load = prof.get("load", {})
    bits = [f"host {prof.get('host', '?')}",
            f"device {dev.get('name') or '?'}"
            + (f" ({dev['model']})" if dev.get("model") else "")
            + (f", {fs.get('type')}" if fs.get("type") else ""),
            f"{prof.get('fio_version')}"]
    if par:
        bits.append(f"ramp {par.get('ramp_s')} s, runtime {par.get('runtime_s')} s, "
                    f"file {par.get('size_bytes', 0) / 2**20:.0f} MiB, direct I/O")
    if load.get("loadavg_before"):
        bits.append(f"load avg {load['loadavg_before'][0]:.1f}→{load['loadavg_after'][0]:.1f}")
    return "; ".join(bits)


def fmt(v, digits=1):
    if v is None or (isinstance(v, float) and v != v):
        return "–"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    return str(v)


def markdown(df, prof):
    cols = {"measurement": None, "rw": None, "bs": None, "iodepth": "QD", "ioengine": "engine",
            "iops": "IOPS", "bandwidth_MiBps": "MiB/s", "clat_mean_us": "clat mean µs",
            "clat_p50_us": "p50 µs", "clat_p99_us": "p99 µs", "clat_p99.9_us": "p99.9 µs"}
    shown = df[list(cols)].astype(object)
    for c in list(cols)[5:]:
        shown[c] = [fmt(v, 0 if c == "iops" else 1) for v in df[c]]
    shown = shown.rename(columns={k: v for k, v in cols.items() if v})
    table = shown.to_markdown(index=False, colalign=["left"] * 5 + ["right"] * 6,
                              disable_numparse=True)
    return f"Device calibration — {caption(prof)}\n\n{table}\n"


def figure(df, prof):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import seaborn as sns
    sns.set_theme(style="whitegrid", context="paper")
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    order = list(df["measurement"])
    sns.barplot(data=df, x="measurement", y="iops", order=order, ax=axes[0], color="C0")
    axes[0].set(title="(a) IOPS", xlabel="", ylabel="operations/s")
    sns.barplot(data=df, x="measurement", y="bandwidth_MiBps", order=order, ax=axes[1], color="C1")
    axes[1].set(title="(b) bandwidth", xlabel="", ylabel="MiB/s")
    lat = df.melt(id_vars="measurement",
                  value_vars=["clat_mean_us", "clat_p50_us", "clat_p99_us", "clat_p99.9_us"],
                  var_name="statistic", value_name="us").dropna()
    lat["statistic"] = lat["statistic"].str.replace("clat_", "").str.replace("_us", "")
    sns.barplot(data=lat, x="measurement", y="us", hue="statistic", order=order, ax=axes[2])
    axes[2].set_yscale("log")
    axes[2].set(title="(c) completion latency", xlabel="", ylabel="µs (log)")
    axes[2].legend(title=None, fontsize="small")
    for ax in axes:
        ax.tick_params(axis="x", rotation=35)
        for lab in ax.get_xticklabels():
            lab.set_horizontalalignment("right")
    fig.suptitle(f"Device calibration — {caption(prof)}", fontsize="small")
    fig.tight_layout()
    return fig


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m hardware.calibration_plot")
    p.add_argument("--profile", required=True)
    p.add_argument("--out-pdf")
    p.add_argument("--out-png")
    p.add_argument("--out-csv")
    p.add_argument("--out-md")
    a = p.parse_args(argv)
    if not any([a.out_pdf, a.out_png, a.out_csv, a.out_md]):
        raise InputError("calibration_plot", "--out-*", "at least one output")
    return a


@cli
def main(argv=None):
    a = parse_args(sys.argv[1:] if argv is None else argv)
    prof = load_profile(a.profile)
    df = table(prof)
    if a.out_csv:
        with atomic_path(a.out_csv) as tmp:
            df.to_csv(tmp, index=False, float_format="%.3f")
    if a.out_md:
        write_text(a.out_md, markdown(df, prof))
    if a.out_pdf or a.out_png:
        fig = figure(df, prof)
        for out, kind in ((a.out_pdf, "pdf"), (a.out_png, "png")):
            if out:
                with atomic_path(out) as tmp:
                    fig.savefig(tmp, format=kind, dpi=150)
        fig.clf()
    return 0


if __name__ == "__main__":
    sys.exit(main())
