"""The summary's heat maps: names and numbers that do not overlap however many rankings they
show."""

from __future__ import annotations

import itertools
import math
from types import SimpleNamespace

import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Text

from reportgen.figures.agreement import agreement_figure, column_names, uncertainty_figure
from reportgen.figures.style import PRINT_WIDTH, make_style
from reportgen.synthesis.uncertainty import ALL, PROBLEMS_AND_RUNS, Uncertainty

# The eleven resampled rankings of the CEC 2022 example, with their labels as the report gives
# them: turned by 55° and wrapped on three lines, neighbouring names overlapped (issue: the
# report's Figure 1, "U-score total (U-scores at fractions of the budget)" over "profiles").
CEC2022_RANKINGS = [
    "U-score total",
    "U-score total (U-scores at fractions of the budget)",
    "profiles τ = 10⁻⁵, λ = 2",
    "mean final value",
    "accuracy",
    "robustness",
    "mean final value (Perspectives in 10-D only)",
    "robustness (Perspectives in 10-D only)",
    "mean final value (Perspectives in 20-D only)",
    "robustness (Perspectives in 20-D only)",
    "relation layers σ = 0.5",
]
ALGORITHMS = ["EA4", "NL-LBC", "NL-MID", "S-DP", "jSObin", "IUMO", "IMPML", "OMCSO", "NLSOMA"]


def _result(labels: list[str]) -> SimpleNamespace:
    rows = [
        (f"r{j}", ALL, a, i + 1, 1.0 if i == 0 else 0.0, i + 1, i + 1, PROBLEMS_AND_RUNS)
        for j in range(len(labels))
        for i, a in enumerate(ALGORITHMS)
    ]
    columns = ["ranking", "group", "algorithm", "rank", "p_first", "rank_low", "rank_high"]
    table = pd.DataFrame(rows, columns=[*columns, "resampled"])
    return SimpleNamespace(
        uncertainty=Uncertainty(table, 2000, 1),
        rankings=[SimpleNamespace(id=f"r{j}", label=label) for j, label in enumerate(labels)],
        algorithms=tuple(ALGORITHMS),
    )


def _thickness(text: Text, renderer: object) -> float:
    """Pixels across a tick label's lines (its extent before it is turned)."""
    angle = text.get_rotation()
    text.set_rotation(0)
    height = text.get_window_extent(renderer).height
    text.set_rotation(angle)
    return float(height)


@pytest.mark.parametrize("count", [3, 6, 11, 14])
def test_column_names_of_the_uncertainty_map_do_not_overlap(count: int) -> None:
    labels = (CEC2022_RANKINGS * 2)[:count]
    spec = uncertainty_figure(_result(labels), make_style(ALGORITHMS))  # type: ignore[arg-type]
    assert spec is not None
    fig = spec.figure
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    ticks = ax.get_xticklabels()
    centres = ax.transData.transform([(j, 0) for j in range(count)])[:, 0]
    pitch = float(centres[1] - centres[0])
    for tick in ticks:
        # Parallel names anchored a column apart lie pitch · sin θ apart, across their lines.
        across = pitch * math.sin(math.radians(tick.get_rotation()))
        assert _thickness(tick, renderer) <= across, (count, tick.get_text())
    # Every name is whole, and on the figure.
    assert [t.get_text().replace("\n", " ") for t in ticks] == [
        label.replace(" = ", "\u00a0=\u00a0") + "\u00a0†" for label in labels
    ]
    figure_box = fig.bbox
    for tick in ticks:
        box = tick.get_window_extent(renderer)
        assert box.y0 >= figure_box.y0 - 1 and box.x0 >= figure_box.x0 - 1


def test_few_columns_keep_three_lines_at_30_degrees() -> None:
    names, rotation = column_names(CEC2022_RANKINGS[:4], pitch=0.95)
    assert rotation == 30
    assert max(n.count("\n") + 1 for n in names) == 3


def test_narrow_columns_wrap_on_fewer_lines_turned_steeper() -> None:
    names, rotation = column_names(CEC2022_RANKINGS, pitch=0.4)
    lines = max(n.count("\n") + 1 for n in names)
    assert lines == 2 and rotation == 60  # 0.4 in x sin 60° = 24.9 pt: two lines (21.2 pt)


def _agreement(labels: list[str], tau: float) -> SimpleNamespace:
    """Counted rankings ``labels`` whose every pair agrees by ``tau`` (1 on the diagonal)."""
    ids = [f"r{j}" for j in range(len(labels))]
    matrix = pd.DataFrame(tau, index=ids, columns=ids)
    for i in ids:
        matrix.loc[i, i] = 1.0
    return SimpleNamespace(
        counted=[SimpleNamespace(id=i, label=label) for i, label in zip(ids, labels, strict=True)],
        agreement=SimpleNamespace(tau=matrix),
    )


@pytest.mark.parametrize("count", [3, 8, 11])
def test_numbers_and_names_of_the_agreement_map_do_not_overlap(count: int) -> None:
    # CEC 2022: the long row names left the eleven columns 0.24 in wide, the numbers 0.23 in:
    # neighbouring cells' numbers touched, and "−0.33" (0.31 in) would run into the next.
    spec = agreement_figure(_agreement(CEC2022_RANKINGS[:count], -0.33))  # type: ignore[arg-type]
    assert spec is not None
    fig = spec.figure
    assert fig.get_figwidth() <= PRINT_WIDTH
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    ax = fig.axes[0]
    boxes = {
        tuple(round(v) for v in t.get_position()): t.get_window_extent(renderer) for t in ax.texts
    }
    gap = 2 * fig.dpi / 72  # 2 pt between neighbouring numbers
    for (column, row), box in boxes.items():
        right = boxes.get((column + 1, row))
        if right is not None:
            assert box.x1 + gap <= right.x0, (column, row)
    names = [t.get_window_extent(renderer) for t in ax.get_yticklabels()]
    for upper, lower in itertools.pairwise(sorted(names, key=lambda b: b.y0)):
        assert upper.y1 <= lower.y0 or lower.y1 <= upper.y0
    for tick, label in zip(ax.get_yticklabels(), CEC2022_RANKINGS[:count], strict=True):
        assert tick.get_text().replace("\n", " ").replace("\u00a0", " ").startswith(label)
