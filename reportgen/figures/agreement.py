"""The agreement heat map: Kendall's τ-b between the rankings of the analyses."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from reportgen.figures.style import FigureSpec
from reportgen.synthesis.summary import SynthesisResult


def agreement_figure(result: SynthesisResult) -> FigureSpec | None:
    """Heat map of Kendall's τ-b between every pair of rankings (None with fewer than three).

    With two rankings the one number is in the summary's sentence; a 2 × 2 map adds nothing.
    """
    if len(result.rankings) < 3:
        return None
    labels = [r.label for r in result.rankings]
    tau = result.agreement.tau.to_numpy(dtype=float)
    n = len(labels)
    size = max(3.2, 0.42 * n + 1.8)
    # Long ranking labels ("CI profiles τ=10⁻⁵ λ=2") need room beside and below the square map.
    longest = max(len(label) for label in labels)
    fig = Figure(figsize=(size + 1.2 + 0.06 * longest, size + 0.04 * longest), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(tau), cmap="RdBu", vmin=-1, vmax=1)
    ax.set_xticks(range(n), labels, rotation=40, ha="right", rotation_mode="anchor", fontsize=8)
    ax.set_yticks(range(n), labels, fontsize=8)
    for i in range(n):
        for j in range(n):
            value = tau[i, j]
            text = "–" if np.isnan(value) else f"{value:.2f}"
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=7.5,
                color="white" if abs(value) > 0.6 else "black",
            )
    colorbar = fig.colorbar(image, ax=ax, shrink=0.8)
    colorbar.set_label("Kendall's τ-b", fontsize=8)
    colorbar.ax.tick_params(labelsize=8)
    return FigureSpec(
        name="kendall_tau",
        caption="Agreement between the rankings the analyses produce: Kendall's τ-b (1 = same order, "
        "−1 = reversed, – = undefined because one ranking ties every algorithm).",
        figure=fig,
    )
