"""The PDF report: weasyprint renders the same HTML with the print stylesheet.

weasyprint may read only ``data:`` URIs and files inside the output folder; it never fetches
a URL from the network, whatever the data or spec contain.

weasyprint needs system libraries pip does not install (Pango, through cffi). Without them
its import fails with an ``OSError`` — after the analyses, when the PDF was laid out, and
reported as "cannot write the report to out/" — so :func:`pdf_unavailable` tries the import
before any work, for ``run`` and ``validate`` alike.
"""

from __future__ import annotations

import io
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

PANGO_PACKAGES = "libpango-1.0-0 libpangoft2-1.0-0"
"""The Debian/Ubuntu packages weasyprint needs (scripts/system-deps.sh installs them)."""


def pdf_unavailable() -> str | None:
    """Why no PDF can be rendered in this environment (weasyprint cannot load its system
    libraries), or None when it can."""
    # weasyprint prints a banner to stdout before it raises: not on reportgen's stdout.
    with redirect_stdout(io.StringIO()):
        try:
            import weasyprint  # noqa: F401
        except OSError as exc:
            return (
                f"a PDF needs the Pango library, which weasyprint cannot load here ({exc}); "
                f"install it (Debian/Ubuntu: apt-get install {PANGO_PACKAGES}; elsewhere see "
                "weasyprint's installation guide) or leave pdf out of report.formats"
            )
    return None


def _confined_fetcher(root: Path) -> Any:
    """A weasyprint URL fetcher for ``data:`` URIs and files under ``root``, refusing the rest."""
    from weasyprint.urls import URLFetcher  # imported here: weasyprint loads slowly

    class ConfinedFetcher(URLFetcher):  # type: ignore[misc]  # weasyprint ships no types
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


@contextmanager
def _ticking(say: Callable[[str], None], message: str, every: float) -> Iterator[None]:
    """Repeat ``message`` with the elapsed seconds every ``every`` s while the body runs.

    weasyprint offers no progress hook; layout of a long report takes a minute, and a cron log
    or a terminal that shows nothing for a minute looks hung.
    """
    stop = threading.Event()
    start = time.monotonic()

    def tick() -> None:
        while not stop.wait(every):
            say(f"{message} ({time.monotonic() - start:.0f} s)")

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def write_pdf(
    html: str,
    output_dir: Path,
    target: Path,
    progress: Callable[[str], None] | None = None,
    every: float = 10.0,
) -> None:
    """Render ``html`` to ``target`` with reads confined to ``output_dir``.

    ``progress`` is told each stage (laying out pages, writing N pages) and, during the long
    layout, the elapsed time every ``every`` seconds.
    """
    say = progress or (lambda _: None)
    # weasyprint logs every unsupported CSS property at WARNING; keep the console clean.
    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    from weasyprint import HTML

    document = HTML(
        string=html, base_url=str(output_dir) + "/", url_fetcher=_confined_fetcher(output_dir)
    )
    say("rendering the PDF: laying out pages")
    with _ticking(say, "rendering the PDF: laying out pages", every):
        rendered = document.render()
    pages = len(rendered.pages)
    say(f"rendering the PDF: writing {pages} page{'s' if pages != 1 else ''}")
    rendered.write_pdf(target)
