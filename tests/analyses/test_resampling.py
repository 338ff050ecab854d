"""The run draws of the ranking bootstrap (:mod:`reportgen.analyses.resampling`): chunks drawn
into shared buffers give the draws of a fresh array per chunk."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from reportgen.analyses import resampling
from reportgen.analyses.resampling import drawn_runs


def _plain_draws(
    values: np.ndarray, counts: np.ndarray, slots: np.ndarray, rng: np.random.Generator
) -> Iterator[tuple[slice, np.ndarray, np.ndarray, np.ndarray]]:
    """The definition: per chunk, a new array of uniforms, ``floor(u · n)`` of each cell's own
    ``n`` runs, looked up by index."""
    n_slots, width = slots.shape
    n_alg, n_max = values.shape[1], values.shape[2]
    step = max(1, resampling.CHUNK // max(1, width * n_alg * n_max))
    for start in range(0, n_slots, step):
        rows = slots[start : start + step]
        count = counts[rows]
        draw = (rng.random((*count.shape, n_max)) * count[..., None]).astype(np.intp)
        drawn = values[rows[..., None, None], np.arange(n_alg)[:, None], draw]
        yield slice(start, start + step), rows, drawn, np.arange(n_max) < count[..., None]


@pytest.mark.parametrize("short", [False, True])
@pytest.mark.parametrize("seed", range(10))
def test_drawn_runs_are_the_plain_draws(
    seed: int, short: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(seed)
    n_rows, n_alg, n_max = 6, 4, 7
    counts = rng.integers(1, n_max + 1, size=(n_rows, n_alg)) if short else None
    counts = np.full((n_rows, n_alg), n_max) if counts is None else counts
    values = np.where(
        np.arange(n_max) < counts[..., None], rng.normal(size=(n_rows, n_alg, n_max)), np.nan
    )
    slots = rng.integers(0, n_rows, size=(23, 5))
    monkeypatch.setattr(resampling, "CHUNK", 5 * n_alg * n_max * 4)  # chunks of 4 slot rows
    plain, buffered = np.random.default_rng(seed), np.random.default_rng(seed)
    expected = list(_plain_draws(values, counts, slots, plain))
    chunks = 0
    for (where, rows, drawn, present), (at, own, reference, mask) in zip(
        drawn_runs(values, counts, slots, buffered), expected, strict=True
    ):
        chunks += 1
        assert where == at and np.array_equal(rows, own)
        assert np.array_equal(np.broadcast_to(present, mask.shape), mask)
        # compared before the next chunk overwrites the buffer
        assert np.array_equal(drawn[mask], reference[mask])
        assert not np.isnan(drawn).any()  # beyond a short cell's runs: its own runs too
    assert chunks == 6
    assert plain.random() == buffered.random()  # the same draws were taken


class _Largest:
    """A generator whose every uniform is the largest double below 1."""

    def random(self, shape: tuple[int, ...], out: np.ndarray) -> np.ndarray:
        out[...] = np.nextafter(1.0, 0.0)
        return out


@pytest.mark.parametrize("n_max", [1, 2, 3, 7, 8, 30, 1000, 2**20, 2**20 + 1])
def test_the_largest_uniform_draws_each_cells_last_run(n_max: int) -> None:
    # floor(u · n) < n for every u < 1: the gather's "clip" never clips.
    counts = np.array([[n_max, max(1, n_max - 1)]])
    values = np.arange(2.0 * n_max).reshape(1, 2, n_max)
    ((_, _, drawn, _),) = drawn_runs(values, counts, np.zeros((1, 1), dtype=int), _Largest())  # type: ignore[arg-type]
    assert drawn[0, 0, 0, 0] == n_max - 1 and drawn[0, 0, 1, 0] == n_max + counts[0, 1] - 1
