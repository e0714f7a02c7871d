"""A benchmark result as a Markdown table and a ladder plot, and the paired comparison of two results."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.evaluation.benchmark.stats import paired, unpaired

COMPARABLE = ("benchmark", "suite", "preset", "rules")
"""What two results must share to be compared at all (and a format measuring the same margin: :data:`MARGIN_OF`)."""
MARGIN_OF = {"solo": "solo", "once": "solo", "mixed": "mixed"}
"""The margin a format measures: ``once`` (held-out rows) estimates the solo format's margin, each deal once."""


def resolution(sd: float | None, deals: int) -> float | None:
    """Half-width of a normal 95% interval of a mean of ``deals`` per-deal differences with this spread:
    the smallest margin a run of this size tells apart from zero."""
    return None if sd is None else 1.96 * sd / math.sqrt(deals)


def format_interval(figure: dict[str, Any]) -> str:
    """``+m.mm [+lo, +hi]``: a paired figure's mean and 95% interval (the mean alone below two deals)."""
    if figure["ci95"] is None:  # too few deals
        return f"{figure['mean']:+.2f}"
    lo, hi = figure["ci95"]
    return f"{figure['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}]"


def _p(figure: dict[str, Any]) -> str:
    p = figure["wilcoxon_p"] if "wilcoxon_p" in figure else figure["welch_p"]
    return "-" if p is None else "<0.001" if p < 0.001 else f"{p:.3f}"


def shown(value: Any, limit: int = 160) -> str:
    """Text that a submitter or an agent's program states (its spec, its weights' name and checksum), as a page or
    a table shows it: one line of printable characters, no table cell or code span closed by it, at most ``limit``
    characters — so a stated field can never add a row, a line or markup to a result."""
    text = "".join(c if c.isprintable() else " " for c in str(value)).replace("|", "\\|").replace("`", "'")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def markdown(result: dict[str, Any]) -> str:
    """The result as a Markdown page: the headline, one table row per rung, the protocol and the machine."""
    h = result["headline"]
    held_out = _held_out(result)
    reference = result.get("track") == "reference"
    once = result["format"] == "once"
    lines = [f"# hearts-bench {result['suite']} ({result['tier']}{', held-out deals' if held_out else ''}"
             f"{', reference track' if reference else ''}): `{shown(result['agent'])}`", "",
             f"**{h['name'].capitalize()}: {format_interval(h)}** points per deal (95% bootstrap interval over "
             f"{result['deals']} deals; Wilcoxon p {_p(h)}): the points the opponents took minus the points the agent "
             f"took, per deal, averaged over the {len(result['rungs'])} opponents. Positive: the agent took "
             f"fewer.", "",
             "| opponent | agent pts/deal | opponent pts/deal | margin, 95% | Wilcoxon p | matchpoints | wins/deal "
             "| wins/game to 100 (games) | moons shot / suffered | Q♠ taken | ms/decision (slowest) | agent errors |"
             + (" opponent ms/decision | opponent fallbacks (games) |" if reference else ""),
             "|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if reference else "")]
    for name, r in result["rungs"].items():
        errors = ", ".join(f"{n} {kind}" for kind, n in sorted(r["errors"].items())) or "0"
        per_move = "-" if r["seconds_per_decision"] is None else \
            f"{1000 * r['seconds_per_decision']:.2f} ({1000 * r['slowest_decision']:.0f})"
        games = "-" if not r["games"] else f"{r['win_rate_game']:.1%} ({r['games']})"
        qs = "-" if r["qs_taken"] is None else f"{r['qs_taken']:.1%}"
        lines.append(f"| {name} | {r['agent_points']:.3f} | {r['opponent_points']:.3f} | "
                     f"{format_interval(r['margin'])} | {_p(r['margin'])} | {r['matchpoints']:.3f} | "
                     f"{r['win_rate_deal']:.1%} | {games} | "
                     f"{r['moons_shot']} / {r['moons_suffered']} | {qs} | {per_move} | {errors} |"
                     + (f" {_ms(r.get('opponent_seconds_per_decision'))} | {_fallbacks(r)} |" if reference else ""))
    if result.get("track") == "llm":
        lines += ["", "The model, rung by rung (the dealer made its calls; every prompt and answer is in the records):",
                  "", "| opponent | decisions | calls | retries | forfeits | tokens in | tokens out (reasoning) | "
                  "rate-limit waits | cost a deal |", "|---|---|---|---|---|---|---|---|---|"]
        for name, r in result["rungs"].items():
            m = r["model"]
            cost = "-" if m.get("cost_per_deal_usd") is None else f"${m['cost_per_deal_usd']:.4f}"
            lines.append(f"| {name} | {m['decisions']} | {m['calls']} | {m['retries']} | {m['forfeits']} | "
                         f"{m['prompt_tokens']:,} | {m['completion_tokens']:,} ({m['reasoning_tokens']:,}) | "
                         f"{m['waits']} | {cost} |")
    failures = [f"- {name}, {kind} ({r['errors'][kind]} game(s)); the first: {shown(text)}"
                for name, r in result["rungs"].items() for kind, text in r.get("first_errors", {}).items()]
    if failures:
        lines += ["", "The agent's errors (each charged as a forfeit; every one is in the rung's records, with its "
                  "traceback in the run folder's errors.log):", *failures]
    smallest = resolution(h["sd"], h["deals"])
    hw = result["hardware"]
    lines += ["", f"Smallest {h['name']} this run resolves (1.96 sd/√deals): "
              f"{'-' if smallest is None else f'{smallest:.2f}'} points per deal.", "",
              f"Protocol: suite {result['suite']}, tier {result['tier']} ({result['deals']} "
              f"{_deal_set(result)}), rules `{result['rules']}`, format {result['format']} "
              f"({result['format_meaning']}); "
              f"opponents: " + ", ".join(f"{n} = `{r['spec']}`" for n, r in result["rungs"].items()) + "."
              + _weights(result),
              f"Checks passed: {'; '.join(result['checks'].values())}.",
              f"hearts-env {result['package_version']}, {hw['cpus']} CPUs {hw['machine']}, Python {hw['python']}, "
              f"NumPy {hw['numpy']}; {result['seconds']:.0f} s, started {result['started']}.", ""]
    if held_out and not once:
        lines.append("Held-out deals played in the solo format are not a leaderboard row: the agent saw each deal "
                     "four times against each opponent.")
    elif (replayed := _replayed(result)) is not None:
        lines.append(f"Not a leaderboard row: {replayed}; the agent may have seen part of a deal twice.")
    elif _in_dealer(result):
        lines.append(f"Not a leaderboard row: the agent ran inside the dealer's processes (isolation "
                     f"{result['isolation']}); a row needs it in a program of its own (isolation process).")
    elif result["tier"] == "smoke":
        lines.append("A smoke run checks that an agent runs; the leaderboard's rows are quick and full runs.")
    elif reference:
        lines += ["Its row for the reference table (docs/reference.md):", "", "```", reference_row(result), "```"]
    elif once:
        lines += ["Its ranked row for the leaderboard's table (docs/benchmark.md, \"The leaderboard\"), run by whoever "
                  "publishes the table on their own machine:", "", "```", leaderboard_row(result), "```"]
    else:
        lines += ["Its row as the submitter's claim beside the ranked held-out row (docs/benchmark.md, \"The "
                  "leaderboard\"):", "", "```", leaderboard_row(result), "```"]
    return "\n".join(lines)


def replayed_sittings(result: dict[str, Any]) -> tuple[list[dict[str, Any]], ...]:
    """The sittings after which a game was played again from its start — those that died with their dealer, lost a
    node of their cluster, or stopped with games in play (a pause finishes them) — which bar a leaderboard row."""
    sittings = result.get("sittings", [])
    return ([s for s in sittings if s.get("ended") is None], [s for s in sittings if s.get("dealer_faults")],
            [s for s in sittings if s["status"] != "finished" and not str(s["status"]).startswith("paused")])


def _replayed(result: dict[str, Any]) -> str | None:
    """Why some game of the run was played again from its start (:func:`replayed_sittings`), or None."""
    died, faulted, stopped = replayed_sittings(result)
    if died:
        return "a sitting died with its dealer (its games in play were played again)"
    if faulted:
        games = sum(len(fault.get("games", [])) for fault in faulted[0]["dealer_faults"])
        return f"a sitting lost a node of its cluster ({games} game(s) played again on other nodes)"
    if stopped:
        return "a sitting stopped with games in play (they were played again)"
    return None


def _fallbacks(rung: dict[str, Any]) -> str:
    """The reference seats' fallbacks (xinxin's lowest legal card past its deadline, or on its failure) and the games
    they were in, as the programs reported them; ``-``: not reported (results before the seats reported them)."""
    notes = rung.get("opponent_notes")
    return "-" if notes is None else f"{notes.get('fallback', 0)} ({notes['games']})"


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{1000 * seconds:.2f}"


def reference_row(result: dict[str, Any]) -> str:
    """The result's row in the reference table of docs/reference.md: agent, deals, and per reference opponent the
    margin, moons shot / suffered and both sides' milliseconds per decision."""
    _check_row(result)
    if result.get("track") != "reference":
        raise ValueError("a reference row is a run of the reference track (track='reference', --track reference)")
    cells = [f"`{shown(result['agent'])}`", f"{result['tier']} ({result['deals']})"]
    for r in result["rungs"].values():
        cells += [format_interval(r["margin"]), f"{r['moons_shot']} / {r['moons_suffered']}",
                  f"{_ms(r['seconds_per_decision'])} / {_ms(r.get('opponent_seconds_per_decision'))}"]
    return "| " + " | ".join([*cells, result["started"][:10]]) + " |"


def _check_row(result: dict[str, Any]) -> None:
    """Refuse runs that are no table's row: held-out deals played in a format that repeats them, or the agent
    inside the dealer's processes."""
    if _held_out(result) and result["format"] != "once":
        raise ValueError(f"a run on held-out deals in format {result['format']!r} is not a leaderboard row: it showed "
                         f"the agent each deal more than once (held-out rows play format once)")
    if _in_dealer(result):
        raise ValueError(f"a run with the agent inside the dealer's processes (isolation {result['isolation']}) is "
                         f"not a leaderboard row: run it with isolation process")


def _held_out(result: dict[str, Any]) -> bool:
    """Whether ``result`` was played on held-out deals (``run_benchmark(holdout=...)``), not the suite's."""
    return result.get("deal_set") == "holdout"


def _in_dealer(result: dict[str, Any]) -> bool:
    """Whether the agent ran inside the dealer's processes (``isolation`` seating or none; results from before
    the seat protocol carry no ``isolation`` and are the leaderboard's older rows)."""
    return result.get("isolation") in ("seating", "none")


def _deal_set(result: dict[str, Any]) -> str:
    if _held_out(result):
        return f"held-out deals from secret {result['holdout']}, not the suite's"
    return f"deals, seed {result['seed']}"


def leaderboard_row(result: dict[str, Any], robustness: str | None = None) -> str:
    """The result's row in the leaderboard tables of docs/benchmark.md: agent, tier (deals), ladder margin,
    the margin against each rung, mean milliseconds per decision over the rungs, the ``robustness`` cell where
    the table has that column (:func:`hearts_env.evaluation.exploit.track.robustness_cell`), and the day it started."""
    _check_row(result)
    if result.get("track", "ladder") != "ladder":
        raise ValueError("a run of the reference track is a row of the reference table (reference_row)")
    times = [r["seconds_per_decision"] for r in result["rungs"].values()]
    per_move = "-" if None in times else f"{1000 * float(np.mean(times)):.2f}"
    cells = [f"`{shown(result['agent'])}`", f"{result['tier']} ({result['deals']})",
             f"**{format_interval(result['headline'])}**",
             *(format_interval(r["margin"]) for r in result["rungs"].values()), per_move,
             *(() if robustness is None else (robustness,)), result["started"][:10]]
    return "| " + " | ".join(cells) + " |"


def ranked_row(ranked: dict[str, Any], claim: dict[str, Any] | None = None) -> str:
    """The row of a held-out run (format ``once``) in the leaderboard's ranked table of docs/benchmark.md: agent,
    tier (held-out deals), ladder margin, the margin against each rung, then beside it the ``claim`` — the same agent's
    run on the suite's public deals — with its ladder margin and the agreement test (claim minus held-out, Welch's
    interval and p: an honest agent's agree), mean milliseconds per decision, and the day the held-out run started."""
    _check_row(ranked)
    if ranked["format"] != "once" or not _held_out(ranked):
        raise ValueError("a ranked row is a held-out run (format once); a run on the suite's deals is its claim")
    times = [r["seconds_per_decision"] for r in ranked["rungs"].values()]
    per_move = "-" if None in times else f"{1000 * float(np.mean(times)):.2f}"
    if claim is None:
        beside = ["-", "-"]
    else:
        agreement = compare(claim, ranked)["ladder"]
        beside = [f"{format_interval(claim['headline'])} ({claim['tier']})",
                  f"{format_interval(agreement)} ({_p(agreement)})"]
    cells = [f"`{shown(ranked['agent'])}`", f"{ranked['tier']} ({ranked['deals']} held-out)",
             f"**{format_interval(ranked['headline'])}**",
             *(format_interval(r["margin"]) for r in ranked["rungs"].values()), *beside, per_move,
             ranked["started"][:10]]
    return "| " + " | ".join(cells) + " |"


def resolution_rows(results: Sequence[dict[str, Any]]) -> list[str]:
    """The table of what each tier resolves in docs/benchmark.md, computed from shipped rows ``results``: one row per
    deal set, format and tier (public rows first, then held-out; each by size) with how many rows were measured and
    the smallest ladder margin (and margin against one opponent) their runs tell apart from zero — the 95% half-width
    :func:`resolution` of each run's own spread — as its range over the rows and its median."""
    groups: dict[tuple[bool, str, int], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((_held_out(r), r["format"], r["deals"]), []).append(r)
    rows = []
    for (held_out, format, deals), rs in sorted(groups.items()):
        ladder = [resolution(r["headline"]["sd"], r["headline"]["deals"]) for r in rs]
        single = [resolution(g["margin"]["sd"], g["margin"]["deals"]) for r in rs for g in r["rungs"].values()
                  if g["margin"]["sd"]]  # not an agent against its own rule player's copies (sd 0)
        cells = [f"{'held-out' if held_out else 'public'} ({format})", f"{rs[0]['tier']} ({deals:,} a rung)",
                 str(len(rs)), _spread([x for x in ladder if x is not None]),
                 _spread([x for x in single if x is not None])]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def _spread(values: list[float]) -> str:
    """``lo–hi (median m)`` to two decimals."""
    if not values:
        return "-"
    return f"{min(values):.2f}–{max(values):.2f} (median {float(np.median(values)):.2f})"


def _label(result: dict[str, Any]) -> str:
    """The agent's spec, with its weights' checksum when it has weights (two builds of ``ppo`` differ there)."""
    weights = result.get("agent_weights")
    agent = shown(result["agent"])
    return agent if not weights else f"{agent} (weights {shown(weights['sha256'])[:12]})"


def _weights(result: dict[str, Any]) -> str:
    """The agent's weights file and checksum, for agents that play with one (older results lack it)."""
    weights = result.get("agent_weights")
    if not weights:
        return ""
    whose = ", as the agent's program states them" if result.get("isolation") == "process" else ""
    shipped = f" (the file {shown(weights['shipped_by'])} ships)" if weights.get("shipped_by") else ""
    return f" Agent weights{whose}: {shown(weights['file'])}, SHA-256 {shown(weights['sha256'])[:16]}…{shipped}."


def plot_ladder(result: dict[str, Any], path: str | Path) -> None:
    """The agent's margin against each opponent with its 95% interval (matplotlib, the ``arena`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'hearts-env[arena]'") from None
    names = [*result["rungs"], "ladder"]
    figures = [r["margin"] for r in result["rungs"].values()] + [result["headline"]]
    means = np.array([f["mean"] for f in figures])
    lo = np.array([f["mean"] if f["ci95"] is None else f["ci95"][0] for f in figures])
    hi = np.array([f["mean"] if f["ci95"] is None else f["ci95"][1] for f in figures])
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 1.5))
    ax.errorbar(means, range(len(names)), xerr=[means - lo, hi - means], fmt="o",
                capsize=4)
    ax.axvline(0, color="grey", lw=1)
    ax.set(yticks=range(len(names)), yticklabels=names,
           xlabel="margin, points per deal (opponent - agent; 95% interval)",
           title=f"hearts-bench {result['suite']} {result['tier']}: {result['agent']}")
    ax.invert_yaxis()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


class IncomparableResults(ValueError):
    """Two results of different suites, tiers, rules, formats or ladders."""


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Compare two results of one suite, rules and format: per opponent, and for the ladder margin, A's
    margin minus B's with its 95% interval and p. Positive: A did better. On the same deals (one seed:
    the suite's, or one held-out secret) the margins are paired deal for deal over the deals both played
    — all of them, or the smaller tier's, which are the first deals of the larger — with the bootstrap
    interval and signed-rank p; on different deals (held-out against the suite's) they are compared
    unpaired (Welch's t interval and p, wider), and ``paired`` is False."""
    for name, result in (("A", a), ("B", b)):
        if not isinstance(result, dict) or result.get("benchmark") != "hearts-bench" or "rungs" not in result:
            raise IncomparableResults(f"{name} is not a result of hearts-env benchmark (its result.json)")
    for key in COMPARABLE:
        if a.get(key) != b.get(key):
            raise IncomparableResults(f"the results differ in {key} ({a.get(key)!r} vs {b.get(key)!r}): only runs of "
                                      f"one suite, rules and format compare")
    if MARGIN_OF.get(str(a.get("format"))) != MARGIN_OF.get(str(b.get("format"))):
        raise IncomparableResults(f"the results differ in format ({a.get('format')!r} vs {b.get('format')!r}): only "
                                  f"runs of one format compare (solo and once measure the same margin)")
    ladder_a = {n: r["spec"] for n, r in a["rungs"].items()}
    ladder_b = {n: r["spec"] for n, r in b["rungs"].items()}
    if ladder_a != ladder_b:
        raise IncomparableResults(f"the results were played against different opponents ({ladder_a} vs {ladder_b})")
    # one seed, one set of deals: deal k is the same deal in every tier, so a quick run and a full run
    # pair on the quick tier's deals, the first of both
    same_deals = a.get("seed") == b.get("seed") and a["format"] == b["format"]
    common = min(a["deals"], b["deals"])

    def difference(x: np.ndarray, y: np.ndarray) -> dict[str, Any]:
        return paired(x[:common] - y[:common]) if same_deals else unpaired(x, y)

    rungs = {name: difference(np.array(a["rungs"][name]["per_deal_margin"]),
                              np.array(b["rungs"][name]["per_deal_margin"])) for name in ladder_a}
    both = [np.mean([a["rungs"][n]["per_deal_margin"] for n in ladder_a], axis=0),
            np.mean([b["rungs"][n]["per_deal_margin"] for n in ladder_a], axis=0)]
    return {"a": _label(a), "b": _label(b), "suite": a["suite"], "tier": a["tier"], "rules": a["rules"],
            "format": a["format"] if a["format"] == b["format"] else f"{a['format']} / {b['format']}",
            "paired": same_deals, "deals": [_deals(a), _deals(b)], "rungs": rungs,
            "ladder": difference(both[0], both[1])}


def _deals(result: dict[str, Any]) -> str:
    held_out = " held-out" if _held_out(result) else ""
    return f"{result['tier']} ({result['deals']}{held_out} deals)"


def format_compare(c: dict[str, Any]) -> str:
    if c["paired"]:
        test = "Wilcoxon p"
        how = (f"the same {c['deals'][0]}, paired deal for deal" if c["deals"][0] == c["deals"][1] else
               f"A {c['deals'][0]} and B {c['deals'][1]}, paired deal for deal on the {c['ladder']['deals']} "
               f"deals both played (the first of each)")
    else:
        how, test = (f"different deals, A {c['deals'][0]} and B {c['deals'][1]}: unpaired, so the intervals are "
                     f"wider than a paired comparison's"), "Welch t p"
    lines = [f"A = {c['a']}, B = {c['b']} (suite {c['suite']}, `{c['rules']}`, {c['format']}; {how}): "
             f"A's margin minus B's, points per deal; positive: A did better", "",
             f"| opponent | A − B, 95% | {test} | deals |", "|---|---|---|---|"]
    for name, f in [*c["rungs"].items(), ("ladder", c["ladder"])]:
        deals = f["deals"] if c["paired"] else " / ".join(map(str, f["deals"]))
        lines.append(f"| {name} | {format_interval(f)} | {_p(f)} | {deals} |")
    return "\n".join(lines)
