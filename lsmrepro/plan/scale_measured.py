"""The measured half of a scale: config/scales/<scale>.measured.yaml beside
the hand-set config/scales/<scale>.yaml, written only by the claims tools

    python -m lsmrepro.claims --measure-noise results/<scale> --write config/scales/<scale>.measured.yaml
                                                  (noise.figures, noise.claims)
    python -m lsmrepro.claims --power --scale <scale> --write-underpowered
                                                  (claims_underpowered)

and validated against config/scale.measured.schema.yaml. load_scale
(lsmrepro.plan.studies) merges it into the scale's dict, so every reader
(the verdicts, the power check, the estimate, design pricing) sees one
scale; a hand-set file holding a tool-written field is refused, naming the
file the field belongs in. Each writer replaces its own sections and keeps
the other's; the whole file is rendered again, one entry a line, so a
rewrite's diff shows exactly the entries that changed."""
from pathlib import Path

import yaml

from base.atomic import write_text
from base.errors import InputError
from base.yamlio import load_yaml, validate

SUFFIX = ".measured.yaml"
SCHEMA = "scale.measured.schema.yaml"

HEADER = [
    "# Tool-written: the measured half of config/scales/{scale}.yaml, merged into it",
    "# when the scale is loaded (lsmrepro/plan/scale_measured.py). Never edit by",
    "# hand: python -m lsmrepro.claims --measure-noise results/{scale} --write",
    "# config/scales/{scale}.measured.yaml writes noise.figures and noise.claims;",
    "# python -m lsmrepro.claims --power --scale {scale} --write-underpowered writes",
    "# claims_underpowered. Schema: config/scale.measured.schema.yaml.",
]
COMMENTS = {
    "figures": ["    # measured: python -m lsmrepro.claims --measure-noise results/<scale> --write (cv: the",
                "    # 80% upper bound of the pooled sd, df its degrees of freedom)"],
    "claims": ["    # measured from each claim's own paired samples (results/<scale>/claims noise_sd,",
               "    # noise_df): the CV of one run that gives samples that noisy, at the 80% upper bound"],
    "claims_underpowered": [
        "  # written by python -m lsmrepro.claims --power --scale <scale> --write-underpowered: each",
        "  # claim the power check finds unable to decide at this scale's repetitions and noise"],
}


def path_of(scale_path):
    """config/scales/<scale>.measured.yaml beside config/scales/<scale>.yaml."""
    scale_path = Path(scale_path)
    return scale_path.with_name(scale_path.stem + SUFFIX)


def shown(scale):
    """The measured file of a scale as messages name it."""
    return f"config/scales/{scale}{SUFFIX}"


def scale_of(path):
    """The scale a measured file belongs to (its name before .measured.yaml)."""
    path = Path(path)
    if not path.name.endswith(SUFFIX) or path.name == SUFFIX:
        raise InputError(path, "", f"a scale's measured file, config/scales/<scale>{SUFFIX}, expected")
    return path.name[:-len(SUFFIX)]


def tool_written(hand, path):
    """Refuses a hand-set scale file that holds a field only the tools write."""
    noise = hand.get("noise") or {}
    fields = ["claims_underpowered"] * ("claims_underpowered" in hand) + ["noise.claims"] * ("claims" in noise)
    fields += [f"noise.figures.{k}" for k, v in (noise.get("figures") or {}).items() if isinstance(v, dict)]
    if fields:
        raise InputError(path, fields[0], f"tool-written (measured), so it belongs in {path_of(path).name} beside "
                                          "it (lsmrepro/plan/scale_measured.py), not in the hand-set scale")


def read(path, config_dir):
    """The measured file's dict ({} when there is none), validated."""
    path = Path(path)
    if not path.is_file():
        return {}
    data = load_yaml(path) or {}
    validate(data, Path(config_dir) / SCHEMA, path)
    return data


def merge(hand, measured, path):
    """The scale as its readers see it: the hand-set dict with the measured
    sections laid over it (a measured figure's CV replaces a declared one)."""
    if not measured:
        return hand
    out = dict(hand)
    if "noise" in measured:
        if "noise" not in hand:
            raise InputError(path, "noise", f"a noise section with its default in {Path(path).name[:-len(SUFFIX)]}"
                                            f".yaml, under the measured noise of {Path(path).name}")
        noise = dict(hand["noise"])
        for key, entries in measured["noise"].items():
            noise[key] = {**noise.get(key, {}), **entries}
        out["noise"] = noise
    if "claims_underpowered" in measured:
        out["claims_underpowered"] = measured["claims_underpowered"]
    return out


def write(path, figures=None, claims=None, underpowered=None):
    """Replaces the given sections of a measured file (None: keep what is
    there; {} empties it), validates the result and only then writes it."""
    path = Path(path)
    scale = scale_of(path)
    config_dir = path.parent.parent
    old = read(path, config_dir)
    noise = dict(old.get("noise", {}))
    for key, entries in (("figures", figures), ("claims", claims)):
        if entries is not None:
            noise[key] = entries
    data = {"noise": {k: v for k, v in noise.items() if v}}
    data["claims_underpowered"] = old.get("claims_underpowered", {}) if underpowered is None else underpowered
    data = {k: v for k, v in data.items() if v}
    validate(data, config_dir / SCHEMA, path)  # before it replaces the file
    write_text(path, render(scale, data))


def render(scale, data):
    """The file's text: the header, then one entry a line, sorted."""
    lines = [s.format(scale=scale) for s in HEADER]
    if data.get("noise"):
        lines.append("noise:")
        for key in ("figures", "claims"):
            if data["noise"].get(key):
                lines += [f"  {key}:", *COMMENTS[key]]
                lines += [f"    {k}: " + yaml.safe_dump(e, default_flow_style=True, width=10 ** 6, sort_keys=False).strip()
                          for k, e in sorted(data["noise"][key].items())]
    if data.get("claims_underpowered"):
        lines += ["claims_underpowered:", *COMMENTS["claims_underpowered"]]
        lines += [f"  {cid}: " + yaml.safe_dump(reason, default_style='"', width=10 ** 6).strip()
                  for cid, reason in sorted(data["claims_underpowered"].items())]
    return "\n".join(lines) + "\n"
