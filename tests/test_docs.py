"""docs/claims.md's claim tables are the claims' declarations (``dpregret.pipeline.docs``): the file is
what the generator writes, every declared claim and audit has one row, and each cell renders as the
declared text (no markdown in a statement breaks its table)."""
from __future__ import annotations

import html
import re

import pytest

from dpregret import papers
from dpregret.pipeline import docs, registry

REGENERATE = f"run `PYTHONPATH=src {docs.COMMAND}` and commit docs/claims.md"


def _blocks(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) for m in re.finditer(r"<!-- claims:(\S+) begin -->\n(.*?)<!-- claims:\1 end -->",
                                                         text, re.S)}


def _ids(block: str) -> list[str]:
    return re.findall(r"^\| `([^`]+)` \|", block, re.M)


def test_claims_md_is_what_the_generator_writes(registry_restored):
    text = docs.DOC.read_text(encoding="utf-8")
    new = docs.render(text)
    if new != text:
        old_b, new_b = _blocks(text), _blocks(new)
        stale = [k for k in new_b if old_b.get(k) != new_b[k]]
        pytest.fail(f"docs/claims.md's claim tables differ from the claims declared in code (stale: {stale}); "
                    f"{REGENERATE} (the tables are generated: change a claim in code, not in the file)")


def test_one_row_per_declared_claim_paper_by_paper():
    blocks = _blocks(docs.DOC.read_text(encoding="utf-8"))
    claims = registry.all_claims()
    builtin = [key for key in papers.ORDER if papers.folders()[key] in papers.BUILTIN]
    assert list(blocks) == [docs.LEGEND, *builtin, docs.REGISTERED, docs.AUDITS], REGENERATE
    for key in builtin:
        assert _ids(blocks[key]) == [cid for cid, c in claims.items() if c.paper == key], key
        assert f"**{papers.paper(key).cite}**, *{papers.paper(key).title}*" in blocks[key]
    assert _ids(blocks[docs.AUDITS]) == list(registry.audit_specs())


def test_cells_render_as_the_declared_text():
    markdown_it = pytest.importorskip("markdown_it")
    md = markdown_it.MarkdownIt("commonmark").enable("table").enable("strikethrough")
    claims = registry.all_claims()
    tables = docs.claim_tables()
    for key in papers.ORDER:
        rendered = md.render(tables[key])
        rows = re.findall(r"<tr>(.*?)</tr>", rendered, re.S)[1:]
        mine = [c for c in claims.values() if c.paper == key]
        assert len(rows) == len(mine)
        for row, c in zip(rows, mine):
            cells = re.findall(r"<td>(.*?)</td>", row, re.S)
            assert len(cells) == len(docs.COLUMNS), c.claim_id
            for (name, _, _), got in zip(docs.COLUMNS, cells):
                field = {"theorem": c.theorem, "statement": c.statement, "metric": c.metric,
                         "secondary controls": c.secondary, "primary control (near miss)": c.control}.get(name)
                if field is not None:
                    if name == "primary control (near miss)" and not c.near_miss:  # the straw man's marker, in code
                        got = re.sub(r" \(a straw man, <code>near_miss=False</code>: .*\)$", "", got)
                    assert "<" not in got.replace("&lt;", ""), (c.claim_id, name, got)  # no emphasis, code or tag
                    assert html.unescape(got) == " ".join(field.split()), (c.claim_id, name)


def test_cell_escapes_what_would_break_a_table():
    assert docs.cell("a | b\n  c") == r"a \| b c"
    assert docs.cell("x_t and D_{D'} and ||l||_2 and u*") == r"x_t and D\_{D'} and \|\|l\|\|\_2 and u\*"
    assert docs.cell("O~(T) <x, y> <= <b>") == r"O\~(T) &lt;x, y> <= &lt;b>"


def test_render_replaces_only_the_marked_blocks_and_names_what_is_missing():
    tables = {"A": "| t |\n|---|\n| 1 |", "B": "b"}
    text = ("prose\n\n<!-- claims:A begin -->\nold\n<!-- claims:A end -->\n\nmore prose\n"
            "<!-- claims:B begin -->\n<!-- claims:B end -->\n")
    out = docs.render(text, tables)
    assert out.startswith("prose\n\n<!-- claims:A begin -->\n" + docs.GENERATED + "\n| t |")
    assert "old" not in out and "\n\nmore prose\n" in out and docs.render(out, tables) == out
    with pytest.raises(ValueError, match=r"no place for the tables of C: add <!-- claims:C begin -->"):
        docs.render(text, {**tables, "C": "c"})
    with pytest.raises(ValueError, match="markers for 'B', which has no generated table"):
        docs.render(text, {"A": "a"})
    with pytest.raises(ValueError, match="is not followed by"):
        docs.render("<!-- claims:A begin -->\n", tables)


def test_workflow_md_doors_table_is_what_applicable_declares():
    """docs/workflow.md's table of the claims your own learner can get is generated from the doors
    (``dpregret.applicable()``): one row per claim, in its order."""
    import dpregret

    path = docs.DOCS / "workflow.md"
    text = path.read_text(encoding="utf-8")
    tables = docs.DOCUMENTS["workflow.md"](text)
    assert docs.render(text, tables, name="docs/workflow.md") == text, \
        f"run `PYTHONPATH=src {docs.COMMAND}` and commit docs/workflow.md"
    assert _ids(_blocks(text)["doors"]) == list(dpregret.applicable().index)
