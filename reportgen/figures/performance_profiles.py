"""Figures of the performance-profile analysis: step profiles on a log axis.

One figure per profile kind and tolerance τ. Without λ it has one panel, the profiles of the
mean curves. With λ values it pairs the mean profiles with one confirmation panel per λ (the
winner's upper bound curve against the others' lower bound curves) — Liu et al.'s Figs. 6/7
and 10/11 side by side. The winner is drawn thicker and named in the legend.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from reportgen.analyses.performance_profiles import PerformanceProfilesResult
from reportgen.figures.format import file_token, power_of_ten
from reportgen.figures.style import FigureSpec, FigureStyle

_AXIS_LABEL = {
    "performance": "performance ratio γ = t / min t (log scale)",
    "data": "budget κ = t / (D + 1)  (simplex gradients, log scale)",
}
_Y_LABEL = {"performance": "fraction of problems ρ(γ)", "data": "fraction of problems d(κ)"}


def _draw_panel(
    ax,
    rows: pd.DataFrame,
    order: list[str],
    winner: str | None,
    kind: str,
    x_right: float,
    style: FigureStyle,
    curve_names: dict[str, str],
) -> None:
    for algorithm in order:
        part = rows[rows["algorithm"] == algorithm]
        look = style.of(algorithm)
        xs = np.r_[part["x"].to_numpy(), x_right]
        ys = np.r_[part["value"].to_numpy(), part["value"].to_numpy()[-1]]
        is_winner = algorithm == winner
        ax.step(
            xs,
            ys,
            where="post",
            color=look.color,
            linestyle=look.linestyle,
            linewidth=2.8 if is_winner else 1.4,
            zorder=3 if is_winner else 2,
            label=style.label(algorithm)
            + curve_names.get(algorithm, "")
            + (" — winner" if is_winner else ""),
        )
        if len(style.algorithms) > 8:
            ax.plot(
                xs[:-1],
                ys[:-1],
                linestyle="none",
                marker=look.marker,
                markersize=3.5,
                color=look.color,
                zorder=2,
            )
    ax.set_xscale("log", base=2 if kind == "performance" else 10)
    ax.set_xlim(rows["x"].min() if kind == "data" else 1.0, x_right)
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
    ax.set_xlabel(_AXIS_LABEL[kind])
    if kind == "performance":
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    else:
        ax.xaxis.set_major_locator(LogLocator(base=10))
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.spines[["top", "right"]].set_visible(False)


def figures(result: PerformanceProfilesResult, style: FigureStyle) -> list[FigureSpec]:
    """One figure per profile kind and τ (with confirmation panels per λ)."""
    specs: list[FigureSpec] = []
    profiles = result.profiles
    mean_rank = result.mean_ranking
    for kind in result.profile_kinds:
        of_kind = profiles[profiles["profile"] == kind]
        finite_x = of_kind["x"][np.isfinite(of_kind["x"])]
        x_right = float(finite_x.max()) * 1.15 if len(finite_x) else 2.0
        x_right = max(x_right, 2.0 if kind == "performance" else x_right)
        for tau in result.tolerances:
            rows = of_kind[of_kind["tolerance"] == tau]
            ranked = (
                mean_rank[mean_rank["tolerance"] == tau].sort_values("rank")["algorithm"].tolist()
            )
            panels = [("mean", None)] + [("confirmation", lam) for lam in result.lambdas]
            width = 5.6 * len(panels) if len(panels) > 1 else 7.0
            fig = Figure(
                figsize=(min(width, 17.0), 4.6 if len(style.algorithms) <= 12 else 5.6),
                layout="constrained",
            )
            axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
            for ax, (step, lam) in zip(axes, panels, strict=True):
                if step == "mean":
                    part = rows[rows["step"] == "mean"]
                    winner = ranked[0]
                    curve_names: dict[str, str] = {}
                    ax.set_title(f"mean curves, τ = {power_of_ten(tau)}", fontsize=10)
                else:
                    part = rows[(rows["step"] == "confirmation") & (rows["lambda"] == lam)]
                    verdicts = result.verdicts[
                        (result.verdicts["profile"] == kind)
                        & (result.verdicts["tolerance"] == tau)
                        & (result.verdicts["lambda"] == lam)
                    ]
                    winner = str(verdicts["winner"].iloc[0])
                    curve_names = {a: " (lower)" for a in result.algorithms}
                    curve_names[winner] = " (upper)"
                    ax.set_title(
                        f"{style.label(winner)} upper vs others lower, λ = {lam:g}", fontsize=10
                    )
                _draw_panel(ax, part, ranked, winner, kind, x_right, style, curve_names)
            axes[0].set_ylabel(_Y_LABEL[kind])
            handles, labels = axes[0].get_legend_handles_labels()
            if len(panels) == 1:
                axes[0].legend(
                    handles,
                    labels,
                    loc="lower right",
                    fontsize=8,
                    ncols=2 if len(labels) > 10 else 1,
                    frameon=True,
                )
            else:
                for ax in axes:
                    ax.legend(
                        loc="lower right",
                        fontsize=7.5,
                        ncols=2 if len(labels) > 10 else 1,
                        frameon=True,
                    )
            name = f"{kind}_tau_{file_token(tau)}"
            what = (
                "Performance profiles (Dolan–Moré, Liu et al. Eq. 4)"
                if kind == "performance"
                else "Data profiles (Moré–Wild, Liu et al. Eq. 5)"
            )
            caption = f"{what} of the mean curves over runs at tolerance τ = {power_of_ten(tau)}, budget μ_f = {result.budget:g} evaluations."
            if result.lambdas:
                caption += (
                    " Right: the winner's upper confidence-bound curve (mean + λS/√n_r) against the other algorithms' lower "
                    f"bound curves (mean − λS/√n_r) for λ = {', '.join(f'{v:g}' for v in result.lambdas)} (Algorithm 2); an algorithm "
                    "whose curve ends below the winner's is significantly worse."
                )
            caption += (
                " Curves end at the fraction of problems solved; the winner is drawn thicker."
            )
            specs.append(FigureSpec(name=name, caption=caption, figure=fig))
    return specs
