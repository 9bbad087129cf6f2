"""The paper beside us: a figure with a claim that gives a number draws it
(an artist labelled "paper" where our bar would stand at the paper's
measure) and its table gets a `paper` column; a direction-only claim draws
nothing and adds no column."""
import pytest

from lsmrepro.claims import spec as claims_spec
from paper import figure, paper_marks
from tests.test_figure import _tidy

LATENCY = {"metric": "latency_mean", "op": "get", "subset": "all"}


def _claim(paper, **measure):
    return {"id": "test-claim", "study": "baseline", "figure": "point", "section": "s", "statement": "s",
            "paper": {"source": "a test's own claim", **paper}, "rule": {"kind": "magnitude", "tolerance": 0.1},
            "measure": measure or {"kind": "ratio", "numerator": {**LATENCY, "engine": "leveldb"},
                                   "denominator": {**LATENCY, "engine": "rocksdb"}}}


def _paper_artists(fig):
    return [a for ax in fig.axes for a in ax.lines + ax.patches if a.get_gid() == "paper"]


def test_a_ratio_claim_draws_the_paper_ratio_times_our_baseline_bar(tmp_path, make_log, monkeypatch):
    tidy = _tidy(tmp_path, make_log)
    monkeypatch.setattr(figure, "figure_claims", lambda s, f: [_claim({"value": 1.5})])
    fig, table, error = figure.make("baseline", "point", tidy)
    assert error is None
    (line,) = _paper_artists(fig)
    assert line.get_label() == "paper: 1.5× of engine=rocksdb"
    rocksdb = tidy[(tidy["engine"] == "rocksdb") & (tidy["metric"] == "latency_mean") & (tidy["op"] == "get")
                   & (tidy["subset"] == "all")]["value"].mean()
    assert line.get_ydata()[0] == pytest.approx(1.5 * rocksdb * 1e-3)  # the figure draws µs
    assert line.axes is fig.axes[0]  # the latency panel, not p99's or throughput's
    assert list(table["paper"]) == ["1.5× of engine=rocksdb [test-claim]", ""]  # leveldb's row, rocksdb's
    assert dict(zip(table["engine"], table["paper"]))["leveldb"].startswith("1.5×")


def test_a_value_claim_draws_the_paper_value_and_a_range_a_band(tmp_path, make_log, monkeypatch):
    tidy = _tidy(tmp_path, make_log)
    value = {"kind": "value", "where": {**LATENCY, "engine": "rocksdb"}}
    monkeypatch.setattr(figure, "figure_claims", lambda s, f: [_claim({"value": 2000.0}, **value)])
    fig = figure.make("baseline", "point", tidy)[0]
    (line,) = _paper_artists(fig)
    assert line.get_ydata()[0] == pytest.approx(2.0)  # 2000 ns in the figure's µs
    group = {"kind": "group", "numerator": {**LATENCY, "engine": "leveldb"},
             "denominator": {**LATENCY, "engine": "rocksdb"}, "group_by": "dataset", "members": ["uniform"]}
    monkeypatch.setattr(figure, "figure_claims", lambda s, f: [_claim({"range": [1.2, 1.4]}, **group)])
    fig = figure.make("baseline", "point", tidy)[0]
    (band,) = _paper_artists(fig)
    assert band.get_label() == "paper: 1.2–1.4× of engine=rocksdb" and band.get_height() > 0


def test_a_direction_claim_draws_nothing_and_adds_no_column(tmp_path, make_log, monkeypatch):
    tidy = _tidy(tmp_path, make_log)
    claim = _claim({"direction": "greater"})
    claim["rule"] = {"kind": "direction", "than": 1}
    monkeypatch.setattr(figure, "figure_claims", lambda s, f: [claim])
    fig, table, error = figure.make("baseline", "point", tidy)
    assert error is None and _paper_artists(fig) == [] and "paper" not in table.columns
    assert not [t for t in fig.texts if t.get_gid() == "paper"]
    assert "direction only): test-claim" in paper_marks.caption([claim])


def test_a_claim_no_bar_shows_is_listed_with_its_number_not_drawn(tmp_path, make_log, monkeypatch):
    tidy = _tidy(tmp_path, make_log)
    pooled = {"kind": "value", "where": {"metric": "index_bytes"}}  # not a bar of this figure
    monkeypatch.setattr(figure, "figure_claims", lambda s, f: [_claim({"value": 7.0}, **pooled)])
    fig = figure.make("baseline", "point", tidy)[0]
    assert _paper_artists(fig) == []
    (note,) = [t.get_text() for t in fig.texts if t.get_gid() == "paper"]
    assert "test-claim: paper: 7 (not drawn:" in note


def test_every_claim_with_a_number_has_marks_of_its_own_numbers():
    for c in claims_spec.load_claims():
        numbers = {n for mk in paper_marks.marks(c) for n in (mk.numbers if isinstance(mk.numbers, tuple) else [mk.numbers])}
        paper = c["paper"]
        if "direction" in paper or c["measure"].get("statistic") == "slope":
            assert numbers == set(), c["id"]
        elif c["measure"]["kind"] == "trend":  # a relative change r is drawn as (1 + r) times the `from` value
            assert numbers == {1 + v for v in claims_spec.paper_numbers(paper).values()}, c["id"]
        elif c["measure"]["kind"] != "ordering" or "members" in paper:
            assert numbers == set(claims_spec.paper_numbers(paper).values()), c["id"]


def _runs_of_a_over_b(metric, values, paper):
    """Two repetitions each of engines a and b (runs a0 a1 b0 b1), and the
    paper's ratio a / b on `metric`, paired on the repetition."""
    import pandas as pd

    tidy = pd.DataFrame({"run": ["a0", "a1", "b0", "b1"], "repetition": [0, 1, 0, 1], "engine": ["a", "a", "b", "b"],
                         "metric": metric, "value": values})
    claim = _claim({"value": paper}, kind="ratio", numerator={"metric": metric, "engine": "a"},
                   denominator={"metric": metric, "engine": "b"}, pair_on=["repetition"])
    return tidy, claim


def test_a_speedup_the_figure_computed_gets_the_paper_ratio_on_its_point():
    """A figure that plots a ratio of runs (bourbon's speedups) declares it
    (plotting.shows_ratio): a ratio claim over exactly those runs draws the
    paper's ratio there, visibly wide on a log axis; other runs draw nothing."""
    import matplotlib.pyplot as plt
    from paper import plotting

    tidy, claim = _runs_of_a_over_b("run_throughput", [4.0, 4.4, 2.0, 2.0], 3.0)

    def drawn(num_runs):
        fig, ax = plt.subplots()
        ax.set_xscale("log")
        ax.plot([1, 100], [2.1, 1.0], marker="o")  # the speedup at x = 1 is 2.1 (mean of the pairs)
        plotting.shows_ratio(ax, "run_throughput", num_runs, ["b0", "b1"], 2.1)
        (mk,) = paper_marks.draw(fig, tidy, [claim])
        return _paper_artists(fig), mk

    (line,), mk = drawn(["a0", "a1"])
    # y = h * paper / ours: 2.1 * 3 / (4.2 / 2)
    assert line.get_ydata()[0] == pytest.approx(3.0)
    left, right = line.get_xdata()
    assert 0 < left < 1 < right
    artists, mk = drawn(["a0"])
    assert artists == [] and mk.why == "no bar shows its rows"


def test_labels_of_close_lines_on_one_bar_keep_their_order_and_cover_no_line():
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.bar([0], [180])
    ys = {"1.57× b": 260, "1.41× t": 271, "1.92× r": 286}
    for y in ys.values():
        ax.plot([-0.4, 0.4], [y, y])
    paper_marks._label(ax, [(0.0, y, text) for text, y in ys.items()])
    fig.canvas.draw()
    labels = sorted((t for t in ax.texts if t.get_gid() == "paper"), key=lambda t: t.get_window_extent().y0)
    assert [t.get_text() for t in labels] == list(ys)  # lowest label names the lowest line
    boxes = [t.get_window_extent() for t in labels]
    assert all(a.y1 <= b.y0 + 0.5 for a, b in zip(boxes, boxes[1:]))  # no two overlap
    lines_px = [ax.transData.transform((0, y))[1] for y in ys.values()]
    assert not [py for py in lines_px for b in boxes if b.y0 + 0.5 < py < b.y1 - 0.5]  # no label over a line
    assert max(b.y1 for b in boxes) <= ax.get_window_extent().y1 + 0.5  # inside the axes


def test_a_stacked_bar_that_grows_with_the_claims_metric_gets_the_mark_scaled_as_it_is():
    """A normalised breakdown (doblix fig11) declares each stack's runs and
    metric (plotting.shows_scaled): a ratio claim over those runs draws the
    paper's ratio at height * paper / ours on the stack; other runs, nothing."""
    import matplotlib.pyplot as plt
    from paper import plotting

    tidy, claim = _runs_of_a_over_b("latency_mean", [2.0, 2.0, 4.0, 4.0], 0.25)

    def drawn(runs):
        fig, ax = plt.subplots()
        ax.bar(["a", "b"], [0.3, 0.6])
        ax.bar(["a", "b"], [0.2, 0.4], bottom=[0.3, 0.6])  # stacks of 0.5 and 1.0
        plotting.shows_scaled(ax, "latency_mean", runs, 0.5)
        (mk,) = paper_marks.draw(fig, tidy, [claim])
        return _paper_artists(fig), mk

    (line,), mk = drawn(["a0", "a1"])
    assert line.get_ydata()[0] == pytest.approx(0.5 * 0.25 / (2.0 / 4.0))  # where a's stack would stand
    artists, mk = drawn(["a0"])
    assert artists == [] and mk.why == "no bar shows its rows"
