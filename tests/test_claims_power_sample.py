"""The power check at local (`python -m lsmrepro.claims --power --scale
local`) on a bounded sample of the paper's claims, in the test command.
Every claim's check is a longer check (tests/test_claims_power.py's tests
at local, marker `long`: `./run-tests --long`): about 2.3 CPU-s a claim,
so minutes for all of them. A claim draws from its own random stream
(claims.power.claim_rng), so its verdict here is its verdict there."""
from lsmrepro.claims import evaluate as claims
from lsmrepro.claims import power as claims_power
from lsmrepro.plan.studies import load_scale


def sample(claim_list, underpowered):
    """The first claim, in the claims files' order, that brings a study, a
    rule kind, a measure kind, or being listed underpowered or not, that no
    claim before it in the sample has: each at least once, at most one claim
    per kind (fewer than 20 of ~200)."""
    seen, picked = set(), []
    for c in claim_list:
        kinds = {("study", c["study"]), ("rule", c["rule"]["kind"]), ("measure", c["measure"]["kind"]),
                 ("underpowered", c["id"] in underpowered)}
        if kinds - seen:
            picked.append(c)
            seen |= kinds
    return picked


def test_a_sample_of_the_claims_can_pass_and_fail_at_local_or_is_listed_underpowered():
    """Issue 30's check (every claim decides at local, or is listed in
    local's claims_underpowered and decides not: a listed claim that decides
    fails too) on the sample."""
    cfg = load_scale("local")
    every = claims.load_claims()
    picked = sample(every, cfg.get("claims_underpowered", {}))
    assert len(picked) < 20
    assert {c["study"] for c in picked} == {c["study"] for c in every}
    assert {c["rule"]["kind"] for c in picked} == {c["rule"]["kind"] for c in every}
    assert {c["measure"]["kind"] for c in picked} == {c["measure"]["kind"] for c in every}
    lines = []
    failed = claims_power.check("local", cfg, picked, out=lines.append)
    assert not failed, "\n".join(line for line in lines if "FAIL" in line)
    decided = int(lines[-1].split(": ", 1)[1].split(" of ", 1)[0])
    flagged = sum(1 for line in lines if "flagged underpowered at local" in line)
    assert decided + flagged == len(picked), lines[-1]
