"""Errata found while implementing the papers: where a printed formula disagrees with its
own definition, the pipeline implements the definition; each entry names the test that
shows the disagreement independently.  Each paper keeps its errata in its folder
(``dpregret.papers.as17.errata``, ``dpregret.papers.env21.errata``, ``dpregret.papers.vdh19.errata``,
``dpregret.papers.ztc22.errata``); this module collects them for the report, in the papers' order."""


def _from_module(entries: list[dict]) -> list[dict]:
    """Errata kept beside the code they concern (key ``test`` there, ``evidence`` here)."""
    return [{**{k: v for k, v in e.items() if k != "test"}, "evidence": e["test"]} for e in entries]


from dpregret.papers.as17.errata import ERRATA as _AS17  # noqa: E402
from dpregret.papers.env21.errata import ERRATA as _ENV21  # noqa: E402
from dpregret.papers.vdh19.errata import ERRATA as _VDH19  # noqa: E402
from dpregret.papers.ztc22.errata import ERRATA as _ZTC22  # noqa: E402

ERRATA = _from_module(_AS17) + _from_module(_ENV21) + _from_module(_VDH19) + _from_module(_ZTC22)
