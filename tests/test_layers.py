"""The layers of reportgen, read from the code's own imports: data flows one way.

Every module belongs to the layer of its top-level package (``reportgen/render/sections/x.py``
to ``render``). A module may import its own package and any lower layer; never a higher one,
and never a sibling package of its own layer (figures and narrative are peers: neither knows
the other). Imports inside functions and under ``TYPE_CHECKING`` count too.

Run ``python -m tests.test_layers`` from the project root to print every import that breaks
the order (the test asserts there is none).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "paths", "warning_codes"),  # problems in the user's input, how a long name is
    # shortened, the user's paths made absolute, and the codes a warning may carry
    ("execution",),  # where the analyses' per-problem work runs (this process or Dask)
    ("present", "resources"),  # the vocabulary (labels, numbers, findings, caveats) and where
    # the package's own files are
    ("spec",),
    ("data",),
    ("analyses",),
    ("synthesis",),  # rankings across analyses: reads results, draws nothing
    ("figures", "narrative"),
    ("render",),
    ("registry", "changes", "published", "bundle"),  # changes since a previous report,
    # published numbers, the supplement archive
    ("pipeline", "starter"),
    ("verify",),  # reruns a supplement's study through the pipeline
    ("cli", "__init__"),  # the command line and the Python API (reportgen.run_study, …)
    ("__main__",),
)
LAYER_OF = {package: floor for floor, packages in enumerate(LAYERS) for package in packages}


def _package(module: str) -> str:
    """``reportgen.render.sections.x`` → ``render``; ``reportgen`` itself → ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported reportgen module) for every import statement of a file."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("reportgen")]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "reportgen":  # from reportgen import pipeline
                found += [(node.lineno, f"reportgen.{a.name}") for a in node.names]
            elif node.module.startswith("reportgen."):
                found.append((node.lineno, node.module))
    return found


def layer_violations(root: Path = ROOT) -> list[str]:
    """Every import in ``root/reportgen`` that runs up the layers or across to a sibling."""
    package_dir = root / "reportgen"
    out = []
    for path in sorted(package_dir.rglob("*.py")):
        relative = path.relative_to(root)
        module = ".".join(relative.with_suffix("").parts)
        source = _package(module)  # reportgen/__init__.py is the package's face: "__init__"
        for line, target in _imports(path):
            imported = _package(target)
            if imported == source or imported == "__init__":
                continue
            if source not in LAYER_OF or imported not in LAYER_OF:
                out.append(f"{relative}:{line}: {source} or {imported} is in no layer")
            elif LAYER_OF[imported] >= LAYER_OF[source]:
                how = "up" if LAYER_OF[imported] > LAYER_OF[source] else "across"
                out.append(f"{relative}:{line}: {source} imports {target} ({how})")
    return out


def test_every_import_runs_down_the_layers():
    assert layer_violations() == []


def test_the_check_sees_a_wrong_import(tmp_path):
    # A data module that imports an analysis, and a figure that imports a narrative module.
    (tmp_path / "reportgen" / "data").mkdir(parents=True)
    (tmp_path / "reportgen" / "figures").mkdir()
    (tmp_path / "reportgen" / "data" / "x.py").write_text(
        "from reportgen.analyses.base import AnalysisResult\nfrom reportgen.errors import Problem\n"
    )
    (tmp_path / "reportgen" / "figures" / "y.py").write_text(
        "def f():\n    from reportgen.narrative import u_scores\n"
    )
    assert layer_violations(tmp_path) == [
        "reportgen/data/x.py:1: data imports reportgen.analyses.base (up)",
        "reportgen/figures/y.py:2: figures imports reportgen.narrative (across)",
    ]


if __name__ == "__main__":
    import sys

    root = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    violations = layer_violations(root)
    print("\n".join(violations) or "no import runs up or across the layers")
    print(f"{len(violations)} import(s) out of order")
