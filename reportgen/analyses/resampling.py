"""Runs drawn with replacement, for the two-stage ranking bootstrap of the executive summary.

Shared by the analyses whose per-problem score is a statistic of runs (perspectives: the final
values; runtime ECDF: each run's share of the area). The problems are drawn by
:mod:`reportgen.synthesis.uncertainty`; here every drawn problem ("slot") gets, for every
algorithm, as many runs as it has, drawn with replacement from its own runs on that problem.

Decisions
---------
- Cells hold different numbers of runs: the runs are padded with NaN to the largest count
  and every draw ``floor(u · n)`` (``u`` uniform on [0, 1)) picks one of the cell's own ``n``.
- Memory is bounded: slots are drawn in chunks of at most :data:`CHUNK` run values. The
  chunks share two buffers (uniforms, then drawn values; positions) instead of three new
  arrays each: an array of megabytes is fresh pages that the system maps and zeroes (numpy
  also asks for huge pages beyond 4 MB), about a third of a chunk's cost when measured alone.
  The cec2022 summary, first run in its process: 5.05 -> 4.65 s CPU (system 0.26 -> 0.16 s,
  page faults 41-49 k -> 38 k). ``drawn`` is therefore only valid until the next chunk.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pandas as pd

CHUNK = 2_000_000
"""Run values drawn at a time (bounds the bootstrap's memory to some 50 MB)."""


def run_array(
    frame: pd.DataFrame,
    column: str,
    rows: Sequence[object],
    algorithms: Sequence[str],
    key: str = "problem",
) -> tuple[np.ndarray, np.ndarray]:
    """``[rows, algorithms, n_max]`` values of ``column`` per run (NaN beyond each cell's runs)
    and the ``[rows, algorithms]`` counts; ``frame[key]`` names each run's row.

    Raises
    ------
    ValueError
        When some algorithm has no run on some row (nothing to draw from).

    Examples
    --------
    >>> frame = pd.DataFrame({"problem": ["f", "f", "f"], "algorithm": ["A", "A", "B"],
    ...                       "value": [1.0, 2.0, 3.0]})
    >>> values, counts = run_array(frame, "value", ["f"], ["A", "B"])
    >>> values.tolist(), counts.tolist()
    ([[[1.0, 2.0], [3.0, nan]]], [[2, 1]])
    """
    frame = frame.loc[frame[column].notna(), [key, "algorithm", column]]
    row = {r: i for i, r in enumerate(rows)}
    col = {a: j for j, a in enumerate(algorithms)}
    frame = frame[frame[key].isin(row) & frame["algorithm"].isin(col)]
    i = frame[key].map(row).to_numpy(dtype=np.intp)
    j = frame["algorithm"].map(col).to_numpy(dtype=np.intp)
    cell = i * len(algorithms) + j
    order = np.argsort(cell, kind="stable")
    cell = cell[order]
    counts = np.bincount(cell, minlength=len(rows) * len(algorithms))
    if (counts == 0).any():
        raise ValueError(f"no {column} for some algorithm on one of {list(rows)}")
    position = np.arange(len(cell)) - np.repeat(np.cumsum(counts) - counts, counts)
    values = np.full((len(rows), len(algorithms), int(counts.max())), np.nan)
    values[cell // len(algorithms), cell % len(algorithms), position] = frame[column].to_numpy(
        dtype=float
    )[order]
    return values, counts.reshape(len(rows), len(algorithms))


def drawn_runs(
    values: np.ndarray, counts: np.ndarray, slots: np.ndarray, rng: np.random.Generator
) -> Iterator[tuple[slice, np.ndarray, np.ndarray, np.ndarray]]:
    """Chunks of slot rows with their drawn runs.

    Yields
    ------
    where : slice
        The slot rows (first axis of ``slots``) of this chunk.
    rows : numpy.ndarray
        ``slots[where]``: the problem row of each slot.
    drawn : numpy.ndarray
        ``[chunk, width, algorithms, n_max]`` drawn run values, in a buffer that the next
        chunk overwrites (read, or change, it before asking for the next).
    present : numpy.ndarray of bool
        Same shape: which of the ``n_max`` positions hold a drawn run (the first ``n``);
        a read-only view of one ``True`` where every cell of the chunk has ``n_max`` runs.
    """
    n_slots, width = slots.shape
    n_alg, n_max = values.shape[1], values.shape[2]
    step = max(1, CHUNK // max(1, width * n_alg * n_max))
    flat = values.reshape(-1)
    cell = np.arange(n_alg) * n_max  # where each algorithm's runs start within a row
    # Two buffers for every chunk (the uniforms, then the drawn values; the positions): three
    # fresh arrays of up to 16 MB a chunk are pages the system maps and zeroes each time.
    size = min(n_slots, step) * width * n_alg * n_max
    uniforms, positions = np.empty(size), np.empty(size, dtype=np.intp)
    for start in range(0, n_slots, step):
        where = slice(start, start + step)
        rows = slots[where]
        count = counts[rows]  # [chunk, width, algorithms]
        full = bool((count == n_max).all())  # the usual design: every cell has n_max runs
        shape = (*count.shape, n_max)
        uniform = uniforms[: count.size * n_max].reshape(shape)
        rng.random(shape, out=uniform)  # the same numbers as rng.random(shape)
        # The same products either way; by one number, not broadcast over runs of n_max, is
        # several times cheaper.
        uniform *= float(n_max) if full else count[..., None]
        draw = positions[: uniform.size].reshape(shape)
        np.copyto(draw, uniform, casting="unsafe")  # floor(u · n): one of the cell's own n runs
        # flat positions: one gather, no copy of the drawn rows' values first
        draw += (rows[..., None] * (n_alg * n_max) + cell)[..., None]
        # Into the uniforms' buffer, no longer needed. Every position is in range (u < 1, so
        # floor(u · n) < n: see test_resampling), and "clip" then gathers exactly as "raise",
        # without the copy that "raise" makes of a gather into ``out``.
        drawn = np.take(flat, draw, out=uniform, mode="clip")
        if full:  # no padding: no mask to build
            present = np.broadcast_to(np.True_, drawn.shape)
        else:
            present = np.arange(n_max) < count[..., None]
        yield where, rows, drawn, present


def filled(drawn: np.ndarray, present: np.ndarray, fill: float) -> np.ndarray:
    """``drawn`` with the padding (where not ``present``) set to ``fill``, for a statistic
    over the last axis; ``drawn`` itself when every cell has the largest number of runs
    (the usual design: nothing to fill, and one pass over the draws less).
    """
    return drawn if all_present(present) else np.where(present, drawn, fill)


def all_present(present: np.ndarray) -> bool:
    """Whether every position of ``present`` holds a drawn run — read from its one value
    where it is :func:`drawn_runs`'s broadcast ``True`` (``all()`` would visit each of its
    millions of positions, every chunk of every bootstrap)."""
    if present.size and not any(present.strides):  # one value, broadcast
        return bool(present.flat[0])
    return bool(present.all())
