#!/usr/bin/env bash
# Build the sdist and the wheel from it, install the wheel into a fresh virtual environment
# outside the source tree and build the starter study's report from there: the sdist must hold
# what the wheel needs, and the wheel every file reportgen needs (templates, JSON Schema,
# starter study; see reportgen/resources.py), its type hints marker and its licence.
# Usage: scripts/wheel-smoke.sh   (PYTHON=python3.12 to choose the interpreter; needs `build`)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }
fail() { echo "wheel-smoke: $*" >&2; exit 1; }
sdist=$(ls "$work"/dist/reportgen-*.tar.gz)
wheel=$(ls "$work"/dist/reportgen-*.whl)
# The sdist: sources only — no test suite, no rendered report, no example data but the starter's.
sdist_files=$(tar tzf "$sdist")
if grep -E '/(tests|out)/|/example_studies/[^q]' <<<"$sdist_files"; then
  fail "the sdist holds the files above, which it should not"
fi
[ "$(stat -c %s "$sdist")" -lt 2000000 ] || fail "the sdist is over 2 MB"
wheel_files=$("$python" -m zipfile -l "$wheel")
for f in reportgen/py.typed reportgen/_resources/templates/report.css \
         reportgen/_resources/schemas/study.schema.json licenses/LICENSE; do
  grep -q "$f" <<<"$wheel_files" || fail "the wheel lacks $f"
done
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel"
cd "$work"   # nothing of the source tree is reachable from here
venv/bin/reportgen init x
venv/bin/reportgen run --quiet x/study.yaml
for f in report.html report.pdf results.json; do
  test -s "x/out/$f" || fail "x/out/$f was not written"
done
echo "wheel-smoke: the installed wheel wrote x/out/report.html and report.pdf"
