"""PDF rendering reports progress: its stages, and the elapsed time while pages are laid out."""

from __future__ import annotations

import time

from reportgen.render import pdf


def test_pdf_stages_are_reported(tmp_path):
    messages: list[str] = []
    html = "<html><body><p>one page</p></body></html>"
    pdf.write_pdf(html, tmp_path, tmp_path / "r.pdf", progress=messages.append)
    assert messages == [
        "rendering the PDF: laying out pages",
        "rendering the PDF: writing 1 page",
    ]
    assert (tmp_path / "r.pdf").read_bytes().startswith(b"%PDF")


def test_a_long_stage_ticks():
    messages: list[str] = []
    with pdf._ticking(messages.append, "laying out", every=0.05):
        time.sleep(0.3)
    count = len(messages)
    assert count >= 2 and all(m.startswith("laying out (") and m.endswith(" s)") for m in messages)
    time.sleep(0.15)
    assert len(messages) == count  # the ticker stops with the stage
