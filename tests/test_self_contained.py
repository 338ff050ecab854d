"""The product is self-contained: nothing users receive points at files they do not have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The development tree keeps papers and a decisions file beside the project; users have
# neither, so the product cites papers by author and title and its decisions live in docs/.
FORBIDDEN = re.compile(r"\.\./shared|papers/0\d\d|METHODS\.md")


def product_files() -> list[Path]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for folder in ("reportgen", "templates", "schemas"):
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.is_file())
    return [p for p in files if p.suffix in {".py", ".md", ".j2", ".css", ".js", ".json"}]


def test_no_pointer_outside_the_project() -> None:
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in product_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if FORBIDDEN.search(line)
    ]
    assert not hits, "\n".join(hits)


def test_methods_doc_cites_every_paper_by_title() -> None:
    text = (ROOT / "docs" / "methods.md").read_text(encoding="utf-8")
    for title in (
        "Benchmarking stochastic algorithms for global optimization problems by visualizing",
        "Probabilistic\n  performance profiles for the experimental evaluation of stochastic",
        "Trial-based dominance enables",
        "Perspectives of\n  algorithmic performance",
        "Significance relations for the benchmarking of",
    ):
        assert " ".join(title.split()) in " ".join(text.split())
