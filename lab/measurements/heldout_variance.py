"""The held-out format's resolution against the solo format's, measured on the shipped quick rows.

    python lab/measurements/heldout_variance.py [AGENT ...]       # default: every quick row that ships records

The solo format (the suite's deals) shows the agent each deal 16 times: four rotations against each of four rungs,
and a deal's ladder margin is the mean of those 16 games. The held-out format (``format="once"``) shows it each deal
once: game k of a rung is a new deal with the agent in one seat; a unit is one game per rung.

The quick rows ship every game of the solo format, so the once format's spread can be read off them: for each rung and
each (deal, seat), X = the agent's margin in that seat (its records). Rung deals of a held-out run are independent, so
a unit's variance is the mean of the rungs' variances over 4. Two ways of pairing each game with another game of the
same deal in the same chair against the same opponents (same seeds) are measured beside it, as bridge's duplicate
would: Y = the rung's own agent in the chair (played here, as four copies of itself), and H = `heuristic` in the
chair (its quick row). The script prints, per agent, the solo format's per-deal sd; the once format's per-unit sd
alone (X), paired with the rung (X - Y) and paired with heuristic (X - H); and the agent games the once format needs
for the solo quick tier's 95% half-width, as a ratio to the solo quick tier's 3,200.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from hearts_env.evaluation.arena.game import play_game, seatings, solo_seatings
from hearts_env.evaluation.benchmark.verify import PACKED_SUFFIX, unpack_records
from hearts_env.rules import make_rules

ROWS = Path("results/leaderboard/v1/quick")


def seat_margins(points: list[int], seat: int) -> float:
    """The margin of ``seat``: the other three seats' mean points minus its own."""
    return (sum(points) - points[seat]) / 3 - points[seat]


def house_margins(spec: str, rules_spec: str, seed: int, deals: int) -> np.ndarray:
    """Y[d, s]: the rung's margin in seat s of deal d, played as four copies of itself seeded as the solo games."""
    rules = make_rules(rules_spec)
    out = np.zeros((deals, 4))
    for d in range(deals):
        for index in solo_seatings():
            seat = seatings(2)[index].index(0)
            record = play_game([spec, spec], rules, seed, d, index)
            out[d, seat] = seat_margins(record["points"], seat)
    return out


def main(agents: list[str]) -> None:
    rows = sorted(p for p in ROWS.glob("*.json")) if not agents else [ROWS / f"{a}.json" for a in agents]
    first = json.loads(rows[0].read_text())
    deals = first["deals"]
    houses = {name: house_margins(rung["spec"], first["rules"], first["seed"], deals)
              for name, rung in first["rungs"].items()}
    heuristic = chair_margins(ROWS / "heuristic.json", deals)[1]
    print("| agent | solo sd/deal | once sd/unit: alone | paired with the rung | paired with heuristic "
          "| once games for the solo quick interval, / solo's |")
    print("|---|---|---|---|---|---|")
    for path in rows:
        result, x = chair_margins(path, deals)
        solo = np.mean([x[name].mean(axis=1) for name in x], axis=0)  # the four rotations, then the rungs
        alone = unit_sd(x)
        with_rung = unit_sd({n: x[n] - houses[n] for n in x})
        with_heuristic = unit_sd({n: x[n] - heuristic[n] for n in x})
        ratio = (alone / solo.std(ddof=1)) ** 2 / 4  # once games for the solo interval, over the solo games
        print(f"| {result['agent']} | {solo.std(ddof=1):.2f} | {alone:.2f} | {with_rung:.2f} | {with_heuristic:.2f} "
              f"| {ratio:.2f} |")


def unit_sd(values: dict[str, np.ndarray]) -> float:
    """The sd of a unit's margin (one game per rung, the rungs' deals independent) from each rung's per-game values."""
    return float(np.sqrt(np.mean([v.var(ddof=1) for v in values.values()]) / len(values)))


def chair_margins(path: Path, deals: int) -> tuple[dict, dict[str, np.ndarray]]:
    """A quick row's result and, per rung, X[d, s]: the agent's margin in seat s of deal d."""
    result = json.loads(path.read_text())
    records = unpack_records(result, path.with_name(path.stem + PACKED_SUFFIX).read_bytes())
    out = {}
    for name, games in records.items():
        x = np.zeros((deals, 4))
        for r in games:
            seat = seatings(2)[r["seating_index"]].index(0)
            x[r["deal"], seat] = seat_margins(r["points"], seat)
        out[name] = x
    return result, out


if __name__ == "__main__":
    main(sys.argv[1:])
