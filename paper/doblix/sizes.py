"""Figure 13's panels, shared by fig13a/b/c and fig13: read-only throughput
against the key size, the value size, and the use cases' fixed sizes. Key
and value bytes of each run come from its log (setup_key_bytes,
setup_value_bytes rows), never from the run id."""
from paper import plotting
from paper.doblix import systems as sy

USE_CASES = "use_cases"  # fig13c's params: name -> [key bytes, value bytes]


def throughput(rows):
    """Read-only throughput (K ops/s) per run with its key and value bytes."""
    sizes = {n: plotting.metric(rows, f"setup_{n}").set_index("run")["value"] for n in ("key_bytes", "value_bytes")}
    t = sy.with_system(plotting.metric(rows, "run_throughput"))
    return t.assign(value=t["value"] / 1e3, key_bytes=t["run"].map(sizes["key_bytes"]).astype("Int64"),
                    value_bytes=t["run"].map(sizes["value_bytes"]).astype("Int64"))


def key_panel(ax, t):
    order = sorted(set(t["key_bytes"].dropna()))
    sy.grouped_bars(ax, t, "key_bytes", order, "throughput (K ops/s)")
    ax.set_xlabel("key bytes")
    ax.set_title("a: key size")


def value_panel(ax, t):
    order = sorted(set(t["value_bytes"].dropna()))
    sy.grouped_bars(ax, t, "value_bytes", order, "throughput (K ops/s)")
    ax.set_xlabel("value bytes")
    ax.set_title("b: value size")


def use_case_rows(t, use_cases):
    """The runs whose (key, value) bytes are a use case's, labelled with it."""
    label = {(k, v): name for name, (k, v) in use_cases.items()}
    pairs = list(zip(t["key_bytes"], t["value_bytes"]))
    return t.assign(use_case=[label.get((k, v)) for k, v in pairs]).dropna(subset=["use_case"])


def use_case_panel(ax, t, use_cases):
    u = use_case_rows(t, use_cases)
    sy.grouped_bars(ax, u, "use_case", [n for n in use_cases if n in set(u["use_case"])], "throughput (K ops/s)")
    ax.set_title("c: UDB / ZippyDB / UP2X sizes (Table I means)")
    return u
