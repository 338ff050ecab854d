"""The HTML report: one self-contained file (CSS and SVG figures inline, no external fetches).

Every string from the spec or the data reaches the page through jinja2's autoescaping, so an
algorithm called ``<script>alert(1)</script>`` appears as text.
"""

from __future__ import annotations

import jinja2
from markupsafe import Markup

from reportgen.errors import shorten_words
from reportgen.render.document import Document
from reportgen.resources import resource


def _readable(value: object) -> object:
    """Every plain string printed by the template, with absurdly long words shortened.

    Markup (our SVG figures, CSS, script) and data URIs pass unchanged.
    """
    if isinstance(value, str) and not isinstance(value, Markup) and not value.startswith("data:"):
        return shorten_words(value)
    return value


def template_environment() -> jinja2.Environment:
    """The jinja2 environment over ``templates/``, autoescaping everything."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(resource("templates")),
        autoescape=True,
        finalize=_readable,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_html(document: Document) -> str:
    """The report as one HTML string."""
    env = template_environment()
    css = resource("templates/report.css").read_text(encoding="utf-8")
    script = resource("templates/report.js").read_text(encoding="utf-8")
    # Our own stylesheet and script (trusted files); everything else is autoescaped.
    return env.get_template("report.html.j2").render(
        doc=document, css=Markup(css), script=Markup(script)
    )
