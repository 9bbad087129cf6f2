"""Tidy rows of the DobLIX agent's steps (the engine record's
doblix.agent_episodes, Figure 15), as engines/rocksdb-doblix/log.yaml
declares them: one row per step and numeric field, `agent_<field>`, with
`subset` = the episode, the `note` = its state/action in text, and the
state as columns (claims select steps by state, model or largest block)."""

# Text fields of a step, kept in the `note` of its rows.
AGENT_TEXT = ("state", "action", "next_state", "distribution_shift")
AGENT_COLUMNS = ("agent_state", "agent_model", "agent_block")


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def agent_state_columns(state):
    """"pla/E128/B4K" -> agent_state, agent_model "pla/E128", agent_block "B4K"."""
    model, _, block = state.rpartition("/")
    return dict(zip(AGENT_COLUMNS, (state, model, block)))


def agent_rows(doblix, row):
    out = []
    for step in doblix.get("agent_episodes") or []:
        note = " ".join(f"{k}={str(step[k]).lower() if isinstance(step[k], bool) else step[k]}"
                        for k in AGENT_TEXT)
        for key, value in step.items():
            if key != "episode" and _is_number(value):
                out.append(row(f"agent_{key}", value, "", subset=str(step["episode"]), note=note,
                               **agent_state_columns(step["state"])))
    return out


def agent_field(metric, doblix, subset="", file=None):
    return doblix["agent_episodes"][int(subset)][metric[len("agent_"):]]
