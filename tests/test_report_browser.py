"""The report opens in headless Chromium (Debian's `chromium`) without console errors, and every
figure decodes.  Skipped, saying why, where chromium is absent; .ci/run installs it."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from dpregret.verdict.core import Claim, Result, record  # noqa: E402
from dpregret.pipeline.report.claim_figures import write_claim_figures  # noqa: E402
from dpregret.pipeline.report.html import write_report  # noqa: E402
from dpregret.pipeline.report.tables import claims_table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian: apt-get install "
                                                          "chromium); .ci/run installs it")
PROBE = """<pre id="dpregret-probe">pending</pre><script>
window.addEventListener('load', () => {
  const imgs = Array.from(document.images);
  const bad = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt || i.src.slice(0, 40));
  const ov = document.querySelector('#overview img');
  const bare = Array.from(document.querySelectorAll('div.claim')).filter(c => !c.querySelector('figure.own img'))
    .map(c => c.id);
  document.getElementById('dpregret-probe').textContent = JSON.stringify({images: imgs.length, undecoded: bad,
    overview: !!(ov && ov.complete && ov.naturalWidth > 0), cards_without_figure: bare});
});
</script>"""


def open_in_chromium(html: Path, tmp: Path) -> tuple[dict, list[str]]:
    """Load a copy of ``html`` with a probe appended; return the probe's findings (images, the
    ones that did not decode) and the console messages Chromium logged."""
    probe = tmp / "probe.html"
    probe.write_text(html.read_text().replace("</body>", PROBE + "</body>"))
    run = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=1",
                          "--virtual-time-budget=30000", "--dump-dom", probe.as_uri()],
                         capture_output=True, text=True, timeout=300)
    found = re.search(r'<pre id="dpregret-probe">([^<]*)</pre>', run.stdout)
    assert found and found.group(1) != "pending", run.stderr[-2000:]
    return json.loads(found.group(1)), [ln for ln in run.stderr.splitlines() if ":CONSOLE" in ln]


def _tiny_report(tmp: Path) -> Path:
    claim = Claim("ZTC-demo-bound", "ZTC22", "Theorem 4", "bound", "a statement", "metric", "control")
    paths = []
    for i, (v, c) in enumerate((("PASS", "FAIL"), ("INCONCLUSIVE", "PASS"))):
        rec = record(claim, Result(v, 0.5, 1.0, 0.4, 0.6, 0.0), Result(c, 2.0, 1.0, 1.5, 2.5, 0.0),
                     scenario="ztc22", env=f"e{i}", ci_level=0.95)
        paths.append(tmp / f"{rec['claim_id']}.json")
        paths[-1].write_text(json.dumps(rec))
    claims_table([str(p) for p in paths]).to_csv(tmp / "claims.csv", index=False)
    fig, ax = plt.subplots()
    ax.loglog([1, 10, 100], [1, 3, 10])
    fig.savefig(tmp / "ztc22_subopt_vs_T.png")
    plt.close(fig)
    out = tmp / "index.html"
    write_claim_figures(str(tmp / "claims.csv"), [str(p) for p in paths], tmp / "claims")
    write_report(str(tmp / "claims.csv"), [str(p) for p in paths], [str(tmp / "ztc22_subopt_vs_T.png")], str(out),
                 {"preset": "test", "seed": 1, "ci_level": 0.95}, claim_figures=str(tmp / "claims"))
    return out


def test_a_rendered_report_loads_without_console_errors_and_its_figures_decode(tmp_path):
    found, console = open_in_chromium(_tiny_report(tmp_path), tmp_path)
    assert found["images"] >= 1 and found["undecoded"] == [] and console == []
    assert found["overview"] and found["cards_without_figure"] == []  # the overview on top, a figure per card


def test_the_probe_sees_a_figure_that_does_not_decode(tmp_path):
    report = _tiny_report(tmp_path)
    report.write_text(report.read_text().replace("</body>",
                                                 '<img alt="broken" src="data:image/png;base64,AAAA"></body>'))
    found, _ = open_in_chromium(report, tmp_path)
    assert found["undecoded"] == ["broken"]


def test_the_pipelines_report_loads_without_console_errors_and_its_figures_decode(tmp_path):
    report = ROOT / "report" / "index.html"
    if not report.exists():
        pytest.skip("no report/index.html here: run `snakemake --cores 2` first (CI runs the tests after it)")
    found, console = open_in_chromium(report, tmp_path)
    assert found["images"] >= 10 and found["undecoded"] == [] and console == []
    assert found["overview"] and found["cards_without_figure"] == []  # the overview on top, a figure per card
    assert report.stat().st_size < 10e6  # one self-contained file under 10 MB
