"""The summary's profile ranking is one tolerance's: where another tolerance puts another
algorithm first, the summary says so (cec2022: S-DP first at τ = 10⁻⁵, EA4 at 0.1, 10⁻³ and
10⁻⁷, while the summary said "S-DP is first by the profiles family")."""

from __future__ import annotations

import dataclasses

from reportgen.analyses.performance_profiles import compute as profiles
from reportgen.present.caveats import named_text
from reportgen.present.labels import Labels
from reportgen.spec.analyses.performance_profiles import PerformanceProfilesOptions
from reportgen.synthesis.rankings import FINAL_VALUES, PROFILES, U_SCORES, Ranking
from reportgen.synthesis.rankings import performance_profiles as profile_rankings
from reportgen.synthesis.summary import synthesise
from tests.analyses.test_performance_profiles import histories


def _profiles(tolerances: list[float]) -> Ranking:
    # One problem, f(x0) = 100. A's runs reach 1 at 10 evaluations and stay there; B's reach 0
    # at 1000. f_L = 0. τ = 0.1: the test is f ≤ 10, A passes at 10, B at 1000: both solve, A
    # is faster (1/r: A 1, B 0.01), A first. τ = 10⁻⁵: f ≤ 0.001, only B passes: B first.
    records = {
        ("A", "p1", 2): [[(1.0, 100.0), (10.0, 1.0)]] * 30,
        ("B", "p1", 2): [[(1.0, 100.0), (1000.0, 0.0)]] * 30,
    }
    result = profiles(
        histories(records),
        PerformanceProfilesOptions.model_validate(
            {"kind": "performance_profiles", "data": "h", "tolerances": tolerances}
        ),
    )
    (ranking,) = profile_rankings("pp", result)
    return ranking


def test_another_tolerances_first_place_is_named() -> None:
    ranking = _profiles([0.1, 1e-5])
    assert ranking.first == ["B"]
    labels = Labels({"A": "Alpha", "B": "Beta"})
    assert named_text(ranking.caveat, ranking.caveat_algorithms, labels) == (
        "The profiles rank at τ = 10⁻⁵, the level Liu et al. report (Remark 2); by the "
        "mean-curve profiles Alpha is first at τ = 0.1."
    )
    # Tolerances that agree: no caveat.
    assert _profiles([1e-3, 1e-5]).caveat == ""


def test_the_bottom_line_scopes_the_other_familys_first_place() -> None:
    # A leads the final-value and U-score families, B is first by the profiles at τ = 10⁻⁵ only:
    # the bottom line's "B is first by the profiles family" now names A's first place at 0.1.
    # The registry gives an adapter's rankings their family.
    profile = dataclasses.replace(_profiles([0.1, 1e-5]), family=PROFILES)
    finals = [
        Ranking(f"f{k}", f"f{k}", f"f{k}", {"A": 1.0, "B": 2.0}, family=family)
        for k, family in enumerate((FINAL_VALUES, U_SCORES))
    ]
    result = synthesise([profile, *finals], ("A", "B"), Labels({}), resamples=20)
    assert result.bottom_line is not None
    bottom = result.bottom_line.text
    assert "B is first by the profiles family" in bottom
    assert "by the mean-curve profiles A is first at τ = 0.1." in bottom
    texts = [f.text for f in result.findings]
    assert not any("A is first at τ = 0.1" in t for t in texts)  # said once
