"""The PDF report: weasyprint renders the same HTML with the print stylesheet.

weasyprint may read only ``data:`` URIs and files inside the output folder; it never fetches
a URL from the network, whatever the data or spec contain.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse


def _confined_fetcher(root: Path) -> Any:
    """A weasyprint URL fetcher for ``data:`` URIs and files under ``root``, refusing the rest."""
    from weasyprint.urls import URLFetcher  # imported here: weasyprint loads slowly

    class ConfinedFetcher(URLFetcher):
        def fetch(self, url: str, headers: dict[str, str] | None = None) -> Any:
            if url.startswith("file:"):
                path = Path(unquote(urlparse(url).path)).resolve()
                if not path.is_relative_to(root.resolve()):
                    raise ValueError(
                        f"reportgen: refusing to read {path} outside the output folder"
                    )
            elif not url.startswith("data:"):
                raise ValueError(f"reportgen: refusing to fetch {url}")
            return super().fetch(url, headers)

    return ConfinedFetcher(allowed_protocols=("data", "file"))


def write_pdf(html: str, output_dir: Path, target: Path) -> None:
    """Render ``html`` to ``target`` with reads confined to ``output_dir``."""
    # weasyprint logs every unsupported CSS property at WARNING; keep the console clean.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    from weasyprint import HTML

    document = HTML(
        string=html, base_url=str(output_dir) + "/", url_fetcher=_confined_fetcher(output_dir)
    )
    document.write_pdf(target)
