"""A claim's verdict row as text: one formatting for every place that shows
verdicts (the claims' Markdown of lsmrepro.claims, the report, the study
READMEs of lsmrepro.publish.readme_verdicts), so a number reads the same in all.
A row is one line of a verdict table of lsmrepro.claims, as a dict."""
import math


def num(v):
    """Four significant digits; an empty or NaN cell as —."""
    if v is None or v == "":
        return "—"
    try:
        f = float(v)
    except (TypeError, ValueError):
        return str(v)
    return "—" if math.isnan(f) else f"{f:.4g}"


def text(r, column):
    """A cell as text: empty where the CSV had nothing."""
    v = r.get(column)
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v)


def ours(r):
    """Our value, its 90% interval, unit and n; a per-member or range claim
    leads with its members' summary (the first part of its detail)."""
    n = r.get("n")
    if n is None or n == "" or float(n) == 0 or math.isnan(float(n)):
        return "no rows"
    value = f"{num(r.get('measured'))} [{num(r.get('ci_low'))}, {num(r.get('ci_high'))}] {text(r, 'unit')}".strip()
    value += f", n = {int(float(n))}"
    detail = text(r, "detail")
    if "members reproduced" in detail or detail.startswith("set min"):
        return detail.split("; ")[0] + f" (mean {value})"
    return value


def paper(r):
    """The paper's number, else the band the rule derives from it."""
    return text(r, "paper_value") or text(r, "expected")


UNDERPOWERED = "underpowered at this scale"


def verdict(r):
    """The verdict; 'no data' with its reason; the underpowered flag beside
    it (the verdict is the data's either way)."""
    v, detail = text(r, "verdict"), text(r, "detail")
    return (f"{v}: {detail}" if v == "no data" and detail else v) + flag(r)


def flag(r):
    """' (underpowered at this scale)' for a flagged claim, else ''."""
    return f" ({UNDERPOWERED})" if text(r, "underpowered") == "yes" else ""


def figure_id(r):
    """The figure's id of a `figure` cell such as 'fig7 (Figure 7)'."""
    return text(r, "figure").split(" ")[0]


def context(r):
    """The context metrics measured beside the claim, one item each."""
    return [c for c in text(r, "context").split("; ") if c]
