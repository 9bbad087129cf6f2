"""Reads paper/<study>/claims.yaml: the schema (paper/claims.schema.yaml),
then what a schema cannot say: the study is the file's folder, the figure
is in the study's spec, index families are resolved (lsmrepro/plan/
index_selectors.py), the paper gives exactly one of value | members |
range | direction, and the rule fits what the paper gives and what is
measured. Also the band of each rule, written once (paper/README.md, "The
statistical rule", documents it)."""
import math
from pathlib import Path

from lsmrepro.plan import index_selectors, studies
from base.yamlio import load_yaml, validate
from base.errors import InputError

REPO = studies.REPO
SCHEMA = REPO / "paper" / "claims.schema.yaml"

PAPER_FIELDS = ("value", "members", "range", "direction")
# what each rule reads from `paper`, and the rule fields it allows
RULE_PAPER = {"magnitude": ("value", "members"), "range": ("range",), "direction": ("direction",),
              "bound": PAPER_FIELDS}
RULE_FIELDS = {"magnitude": {"tolerance"}, "range": {"tolerance"}, "direction": {"than", "margin"},
               "bound": {"min", "max"}}
MEMBER_KINDS = ("group", "ordering")
DEFAULT_MARGIN = 0.05
# A/A claims (issue 52 item 5): both sides the same engine, options and data
# on independent loads (a scale's `replicas`), so their truth is 1: the
# checker's own calibration, not a paper's number
AA_PREFIX = "aa-"


def is_aa(claim_id):
    return str(claim_id).startswith(AA_PREFIX)


def claim_files(study=None):
    """Each study's claims file, paper/<study>/claims.yaml (one study's, if given)."""
    ids = [study] if study else list(studies.registry())
    return [p for p in (REPO / "paper" / s / "claims.yaml" for s in ids) if p.is_file()]


def load_claims(paths=None):
    """The claims of the given files (default: every study's), validated."""
    out = []
    for path in ([paths] if isinstance(paths, (str, Path)) else paths or claim_files()):
        out += _load_file(Path(path))
    return out


def _load_file(path):
    data = load_yaml(path)  # libyaml: every Snakemake start reads every claim
    validate(data, SCHEMA, path)
    index_selectors.expand_claims(data["claims"], path)
    for i, c in enumerate(data["claims"]):
        if c["study"] not in studies.registry():
            raise InputError(path, f"claims.{i}.study", f"a study of paper/studies.yaml expected, got {c['study']!r}")
        if studies.spec_path(c["study"]).is_file() and c["figure"] not in studies.figures(c["study"]):
            raise InputError(path, f"claims.{i}.figure",
                             f"a figure of paper/{c['study']}/experiments.yaml expected, got {c['figure']!r}")
        if path.parent.name in studies.registry() and c["study"] != path.parent.name:
            raise InputError(path, f"claims.{i}.study", f"{path.parent.name!r} (the folder of this file) expected, got {c['study']!r}")
        check_claim(c, path, f"claims.{i}")
    return data["claims"]


def check_claim(c, path, field):
    """What the schema cannot say about one claim's `paper` and `rule`."""
    paper, rule, m = c["paper"], c["rule"], c["measure"]
    given = [k for k in PAPER_FIELDS if k in paper]
    if len(given) != 1:
        raise InputError(path, f"{field}.paper", f"exactly one of {', '.join(PAPER_FIELDS)} expected, got "
                         f"{', '.join(given) or 'none'}")
    what, kind = given[0], rule["kind"]
    if what not in RULE_PAPER[kind]:
        raise InputError(path, f"{field}.rule.kind", f"a rule for paper.{what} expected "
                         f"({', '.join(k for k, v in RULE_PAPER.items() if what in v and k != 'bound')}), got {kind}")
    extra = set(rule) - {"kind"} - RULE_FIELDS[kind]
    if extra:
        raise InputError(path, f"{field}.rule", f"only {', '.join(sorted(RULE_FIELDS[kind]))} with kind {kind} "
                         f"expected, got {', '.join(sorted(extra))}")
    if kind == "bound" and studies.registry()[c["study"]]["seed"]:
        raise InputError(path, f"{field}.rule.kind", "magnitude, direction or range expected: bound is the "
                         "pipeline's own requirement (a study of no paper: seed \"\" in paper/studies.yaml, "
                         "as baseline and engineering)")
    if kind == "bound" and rule.get("min", -math.inf) > rule.get("max", math.inf):
        raise InputError(path, f"{field}.rule", f"min <= max expected, got {rule['min']} > {rule['max']}")
    if what in ("members", "range") and m["kind"] not in MEMBER_KINDS:
        raise InputError(path, f"{field}.paper.{what}", f"a measure with members ({', '.join(MEMBER_KINDS)}) "
                         f"expected for paper.{what}, got measure kind {m['kind']}")
    if "min_share" in m and what not in ("members", "direction"):
        raise InputError(path, f"{field}.measure.min_share", "no min_share expected: only a claim decided per "
                         "member (paper.members or paper.direction) counts members")
    if what == "range" and (paper["range"] == [None, None] or None not in paper["range"]
                            and paper["range"][0] > paper["range"][1]):
        raise InputError(path, f"{field}.paper.range", f"[min, max] (one may be null) expected, got {paper['range']}")
    if what == "members" and m["kind"] == "group" and "members" in m:
        unknown = set(paper["members"]) - {str(x) for x in m["members"]}
        if unknown:
            raise InputError(path, f"{field}.paper.members", f"members of measure.members expected, got "
                             f"{', '.join(sorted(unknown))}")
    if what == "members" and m["kind"] == "ordering":
        pairs = {f"{lo}/{hi}" for lo in m["lower"] for hi in m["higher"]}
        unknown = set(paper["members"]) - pairs
        if unknown:
            raise InputError(path, f"{field}.paper.members", f"pairs lower/higher ({', '.join(sorted(pairs))}) "
                             f"expected, got {', '.join(sorted(unknown))}")
    if log_scale(m):
        low = -1 if relative_change(m) else 0
        numbers = {f"paper.{k}": v for k, v in paper_numbers(paper).items()}
        numbers |= {"rule.than": rule["than"]} if "than" in rule else {}
        for name, v in numbers.items():
            if not v > low:
                raise InputError(path, f"{field}.{name}",
                                 f"a number > {low} expected (a {m['kind']} is judged on the log scale), got {v}")
    elif kind == "direction" and "margin" not in rule:
        raise InputError(path, f"{field}.rule.margin", "a margin in the slope's units expected: a slope is "
                         "judged on the linear scale, where no relative default applies")


def paper_numbers(paper):
    """The paper's numbers by name: value, each member, range min/max."""
    if "value" in paper:
        return {"value": paper["value"]}
    if "members" in paper:
        return {f"members.{k}": v for k, v in paper["members"].items()}
    if "range" in paper:
        return {f"range.{i}": v for i, v in enumerate(paper["range"]) if v is not None}
    return {}


def relative_change(m):
    return m["kind"] == "trend" and m.get("statistic", "relative_change") == "relative_change"


def log_scale(m):
    """Every measure but a slope and a value declared `scale: linear` (a 0/1
    outcome) is a positive quantity or a ratio of two, judged as a log:
    ratios as paired log-ratios (geometric means), a relative change r as
    log(1 + r)."""
    return not ((m["kind"] == "trend" and m.get("statistic") == "slope") or m.get("scale") == "linear")


def to_scale(m, v):
    """A number as the paper writes it -> the scale the test runs on."""
    if not log_scale(m):
        return v
    return math.log1p(v) if relative_change(m) else math.log(v)


def from_scale(m, x):
    if not log_scale(m):
        return x
    return math.expm1(x) if relative_change(m) else math.exp(x)


def no_effect(m, rule):
    """The band of 'no effect' around a direction rule's `than`."""
    margin = rule.get("margin", DEFAULT_MARGIN)
    if log_scale(m):
        x = to_scale(m, rule["than"])
        return x - math.log1p(margin), x + math.log1p(margin)
    return rule["than"] - margin, rule["than"] + margin


def band(m, v, tolerance):
    """[low, high] on the test's scale around the paper's v: a log-scale
    quantity within a factor (1 + tol) either way, a slope within tol * |v|."""
    if log_scale(m):
        x, h = to_scale(m, v), math.log1p(tolerance)
        return x - h, x + h
    return v - tolerance * abs(v), v + tolerance * abs(v)


def rule_text(rule, m):
    kind = rule["kind"]
    if kind in ("magnitude", "range"):
        how = "×/÷" if log_scale(m) else "±"
        return f"{kind} {how}{rule['tolerance'] * 100:g}%"
    if kind == "direction":
        margin = rule.get("margin", DEFAULT_MARGIN)
        return f"direction vs {rule['than']:g} (margin {f'{margin * 100:g}%' if log_scale(m) else f'{margin:g}'})"
    parts = [f"{op} {rule[k]:g}" for k, op in (("min", ">="), ("max", "<=")) if k in rule]
    return "bound " + " and ".join(parts)
