#!/usr/bin/env bash
# Install the Debian packages reportgen needs outside Python, when they are missing:
#   report: pango (weasyprint's text layout) and the DejaVu fonts the report uses;
#   tests:  poppler-utils (pdftoppm/pdftotext/pdffonts) and chromium, to read the PDF and the HTML as a
#           person would; texlive-latex-base (pdflatex) and texlive-latex-recommended (booktabs) to
#           compile the LaTeX tables as a paper would.
# Usage: scripts/system-deps.sh [report|test]   (needs root or sudo when something is missing)
set -euo pipefail
want=(libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
if [ "${1:-report}" = "test" ]; then
  want+=(poppler-utils chromium texlive-latex-base texlive-latex-recommended)
fi
missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "reportgen: please install ${missing[*]} with your system's package manager" >&2; exit 1
fi
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "reportgen: installing ${missing[*]}" >&2
$sudo apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
  || { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "${missing[@]}" >/dev/null; }
