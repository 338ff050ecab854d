"""Build ``data/cec2017_10d_histories.csv.gz`` from the CEC 2017 competition checkpoints.

Input: ``checkpoints_wide.csv`` of github.com/mmalk03/cec2017 (see README.md, "Source"): one
row per run with the error ``f(x) − f*`` after {0.01, 0.02, 0.03, 0.05, 0.1, 0.2, …, 1.0} ×
MaxFEs evaluations, MaxFEs = 10 000 · D.

Transformations (all listed in README.md):

1. keep D = 10 and the six entrants in ``ALGORITHMS`` (all 30 functions, all 51 runs);
2. one record per checkpoint: ``evaluations = fraction × 100 000``, ``error`` as submitted;
3. best-so-far: a checkpoint value larger than an earlier one of the same run is replaced by
   the running minimum (the count of such values is printed and recorded in the README);
4. drop records that do not improve on the previous one of the run (a histories table holds
   improvements only; the loader would drop them too);
5. functions named ``f1`` … ``f30``.

Run from the repository root::

    .venv/bin/python example_studies/cec2017_profiles/make_data.py [path/to/checkpoints_wide.csv]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = (
    HERE.parents[2] / "shared" / "data" / "cec2017-competition-mmalk03" / "checkpoints_wide.csv"
)
ALGORITHMS = ("EBOwithCMAR", "jSO", "LSHADE_SPACMA", "DES", "RB-IPOP-CMA-ES", "PPSO")
DIMENSION = 10
FRACTIONS = (0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def convert(source: Path) -> tuple[pd.DataFrame, int]:
    """The histories table and the number of checkpoint values replaced by a running minimum."""
    wide = pd.read_csv(source, dtype={"paper_id": str})
    wide = wide[(wide["dim"] == DIMENSION) & wide["algorithm"].isin(ALGORITHMS)]
    rank = wide["algorithm"].map({name: i for i, name in enumerate(ALGORITHMS)})
    wide = wide.assign(_rank=rank).sort_values(["_rank", "function", "run"], kind="stable")
    checkpoint_columns = [f"e{f}" for f in FRACTIONS]
    errors = wide[checkpoint_columns].to_numpy(dtype=float)
    best_so_far = np.minimum.accumulate(errors, axis=1)
    replaced = int((best_so_far < errors).sum())
    improving = np.ones_like(errors, dtype=bool)
    improving[:, 1:] = best_so_far[:, 1:] < best_so_far[:, :-1]
    n = len(FRACTIONS)
    long = pd.DataFrame(
        {
            "algorithm": np.repeat(wide["algorithm"].to_numpy(), n),
            "function": np.repeat([f"f{f}" for f in wide["function"]], n),
            "dim": DIMENSION,
            "run": np.repeat(wide["run"].to_numpy(), n),
            "fes": np.tile([round(f * 10_000 * DIMENSION) for f in FRACTIONS], len(wide)),
            "error": best_so_far.ravel(),
        }
    )
    return long[improving.ravel()].reset_index(drop=True), replaced


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else DEFAULT_SOURCE
    histories, replaced = convert(source)
    out = HERE / "data" / "cec2017_10d_histories.csv.gz"
    out.parent.mkdir(exist_ok=True)
    histories.to_csv(
        out, index=False, float_format="%.17g", compression={"method": "gzip", "mtime": 0}
    )
    print(
        f"{out}: {len(histories):,} records, {out.stat().st_size / 1e6:.2f} MB; "
        f"{replaced} checkpoint values replaced by the run's running minimum"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
