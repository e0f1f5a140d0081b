"""The report's overview figure and each claim's own figure are drawn from the records alone."""
import json

import numpy as np

from dpregret.pipeline.report.claim_figures import OVERVIEW, distance, file_name, write_claim_figures
from dpregret.pipeline.report.tables import claims_table
from dpregret.verdict.core import Claim, check_bound, check_rate, record, with_nonlearner, with_twin


def _records(tmp_path):
    rng = np.random.default_rng(0)
    x = np.array([100.0, 300.0, 1000.0, 3000.0, 10000.0])
    good = [np.sqrt(t) * rng.lognormal(0, 0.05, 16) for t in x]
    lin = [t * rng.lognormal(0, 0.05, 16) for t in x]
    rate = Claim("Z-rate", "AS17", "Thm 1", "rate", "regret grows as sqrt(T)", "regret", "linear")
    r = check_rate(x, good, 0.5, 0.1, 0.05, np.random.default_rng(1))
    ctl = check_rate(x, lin, 0.5, 0.1, 0.05, np.random.default_rng(2))
    r = with_twin(with_nonlearner(r, "frozen", ctl), "eta x 10", ctl, "step ten times too large")
    diffs = [rng.normal(-5, 1, 16) for _ in range(3)]
    bound = Claim("Z-bound", "AS17", "Thm 2", "bound", "regret <= B", "regret", "B / 2")
    b = check_bound(diffs, [0.5, 0.5, 0.5], 0.05, bounds=[10.0] * 3)
    bc = check_bound([d + 6 for d in diffs], [1.1] * 3, 0.05, bounds=[5.0] * 3)
    paths = []
    for claim, res, c in ((rate, r, ctl), (bound, b, bc)):
        p = tmp_path / f"{claim.claim_id}.json"
        p.write_text(json.dumps(record(claim, res, c, scenario="s", env=None, ci_level=0.95), default=float))
        paths.append(str(p))
    return paths


def test_every_claim_gets_its_figure_and_the_overview_is_drawn(tmp_path):
    paths = _records(tmp_path)
    table = claims_table(paths)
    csv = tmp_path / "claims.csv"
    table.to_csv(csv, index=False)
    written = write_claim_figures(str(csv), paths, tmp_path / "figs")
    assert (tmp_path / "figs" / OVERVIEW).read_text().lstrip().startswith("<?xml")
    for cid in table.claim_id:
        png = (tmp_path / "figs" / file_name(cid)).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(written) == len(table) + 1
    assert table.set_index("claim_id").loc["Z-rate", "twin_caught"]


def test_decision_distance_puts_a_pass_beyond_one_half_and_a_fail_below_minus_one_half():
    # margin m: the FAIL-side limit past the threshold in widths; PASS iff m < -1, FAIL iff m > 0
    assert distance(-1.2) > 0.5 and distance(0.3) < -0.5 and -0.5 <= distance(-0.6) <= 0.5


def test_the_shared_mathtext_parser_draws_the_same_pixels(tmp_path):
    """write_claim_figures parses mathtext with one parser for the job (shared_mathtext): each figure's PNG
    is the same bytes as drawn alone, with a renderer's own parser."""
    from dpregret.pipeline.report.claim_figures import claim_figure, shared_mathtext

    recs = [json.loads(open(p).read()) for p in _records(tmp_path)]
    for i, rec in enumerate(recs):
        claim_figure(rec, tmp_path / f"alone{i}.png")
    with shared_mathtext():
        for _ in range(2):  # the second time from the shared parser's cache
            for i, rec in enumerate(recs):
                claim_figure(rec, tmp_path / f"shared{i}.png")
                assert (tmp_path / f"shared{i}.png").read_bytes() == (tmp_path / f"alone{i}.png").read_bytes()


def test_two_workers_draw_the_same_files_as_one(tmp_path):
    """write_claim_figures(workers=2) (the workflow's claim_figures job, threads: 2) writes the same claim figures,
    byte for byte."""
    paths = _records(tmp_path) * 2  # enough records for two shards; a repeated record is drawn again, the same
    csv = tmp_path / "claims.csv"
    claims_table(paths[:2]).to_csv(csv, index=False)
    one = write_claim_figures(str(csv), paths, tmp_path / "one")
    two = write_claim_figures(str(csv), paths, tmp_path / "two", workers=2)
    assert sorted(p.name for p in one) == sorted(p.name for p in two)
    for p in one[1:]:
        assert p.read_bytes() == (tmp_path / "two" / p.name).read_bytes()


def test_a_rate_records_its_band_and_x_and_the_figure_reads_them():
    """check_rate records each point's bootstrap band of the fitted y (the same resamples as the slope's interval:
    the generator ends where it did without it) and what x is; the figure labels x by it (else by the claim id)
    and shades the points its regime's numbers put outside the regime."""
    from dpregret.pipeline.report.claim_figures import outside_regime, x_label

    rng = np.random.default_rng(0)
    x = np.array([100.0, 300.0, 1000.0, 3000.0, 10000.0])
    s = [np.sqrt(t) * rng.lognormal(0, 0.05, 16) for t in x]
    g1, g2 = np.random.default_rng(1), np.random.default_rng(1)
    r = check_rate(x, s, 0.5, 0.1, 0.05, g1, x_name="T")
    check_rate(x, s, 0.5, 0.1, 0.05, g2)
    assert g1.random() == g2.random()  # no further draws for the band
    d = r.detail
    assert all(lo < y < hi for lo, y, hi in zip(d["y_low"], d["y"], d["y_high"]))
    assert all(hi - lo < 0.2 * y for lo, y, hi in zip(d["y_low"], d["y"], d["y_high"]))  # 16 reps at 5% noise
    rec = {"claim_id": "Z-rate-N--env", "base_id": "Z-rate-N", "result": {"detail": dict(d)}}
    assert x_label(rec) == "T"
    rec["result"]["detail"].pop("x_name")
    assert x_label(rec).startswith("N")
    rec["result"]["detail"]["regime_numbers"] = {"noise_share": [0.2, 0.6, 0.7, 0.8, 0.9], "noise_share_min": 0.5}
    out, why = outside_regime(rec["result"])
    assert out.tolist() == [100.0] and "noise_share >= 0.5" in why
