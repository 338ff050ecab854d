"""Build step: copy templates, the JSON Schema and the starter studies into the wheel.

The metadata lives in pyproject.toml; this file only adds the copy (see reportgen/resources.py).
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_reportgen_resources", HERE / "reportgen" / "resources.py")
assert _spec is not None and _spec.loader is not None
resources = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(resources)


class BuildPyWithResources(build_py):
    """``build_py`` plus the package data whose sources live outside ``reportgen/``."""

    def run(self) -> None:
        super().run()
        # An editable install reads the sources in place (reportgen.resources falls back to them).
        if not getattr(self, "editable_mode", False):
            resources.copy_resources(Path(self.build_lib) / "reportgen" / "_resources", HERE)


setup(cmdclass={"build_py": BuildPyWithResources})
