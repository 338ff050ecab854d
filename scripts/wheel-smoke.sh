#!/usr/bin/env bash
# Build the wheel, install it into a fresh virtual environment outside the source tree and build
# the starter study's report from there: the wheel must carry every file reportgen needs
# (templates, JSON Schema, starter study; see reportgen/resources.py).
# Usage: scripts/wheel-smoke.sh   (PYTHON=python3.12 to choose the interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m pip wheel --quiet --no-deps --wheel-dir "$work/dist" .
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$work"/dist/reportgen-*.whl
cd "$work"   # nothing of the source tree is reachable from here
venv/bin/reportgen init x
venv/bin/reportgen run --quiet x/study.yaml
for f in report.html report.pdf results.json; do
  test -s "x/out/$f" || { echo "wheel-smoke: x/out/$f was not written" >&2; exit 1; }
done
echo "wheel-smoke: the installed wheel wrote x/out/report.html and report.pdf"
