"""One notation for percentages in a report: "92 %" (README and docs), never "100%".

The executive summary wrote "92 %" while sections, tables and captions wrote "100%" (about
35 strings: profile shares, the head-to-head table, the normal-mass caveat, the U-score
table's own helper); every percentage now comes from :func:`reportgen.present.format.share`.
"""

from __future__ import annotations

import html
import math
import re
from pathlib import Path

from reportgen.pipeline import run_study
from reportgen.present.format import ecdf_share, share

CLOSED_UP = re.compile(r"\d%")
"""A number and its per cent sign without the space of the house style."""


def visible_text(page: str) -> str:
    """The text a reader sees: no scripts, styles, tags or attributes."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_share_formats_write_the_house_style() -> None:
    assert (share(0.8333), share(1.0), share(0.0), share(math.nan)) == ("83 %", "100 %", "0 %", "–")
    assert ecdf_share(0.168) == "16.8 %"


def test_a_rendered_report_has_no_closed_up_percent(tiny_study: Path) -> None:
    """The tiny study's report states shares in the summary (bootstrap), the profile
    findings and the place table: each as "100 %" (no-break space in HTML), none as "100%"."""
    results = run_study(tiny_study)
    assert results.output_dir is not None
    text = visible_text((results.output_dir / "report.html").read_text(encoding="utf-8"))
    spaced = re.findall(r"\d\u00a0%", text)
    assert len(spaced) > 5, "the report states shares"
    closed = [text[max(0, m.start() - 40) : m.end() + 10] for m in CLOSED_UP.finditer(text)]
    assert closed == []
