"""Running one agent through a suite's ladder: checks first, each rung an arena tournament written as it
goes (resumable), then the figures, the Markdown table, the JSON and the plot."""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env import __version__
from hearts_env.agents import make_agent
from hearts_env.arena.runner import run_arena
from hearts_env.benchmark.checks import BenchmarkCheckFailed, check_even, check_ladder, check_totals
from hearts_env.benchmark.report import markdown, plot_ladder
from hearts_env.benchmark.stats import headline, per_deal, rung_figures
from hearts_env.benchmark.suite import (
    FORMATS,
    LADDER_CHECK_DEALS,
    deals_fingerprint,
    format_seatings,
    get_suite,
    holdout_seeds,
)

CHECK_AGENT = "greedy"
"""The deterministic agent of the even check (it draws no random numbers)."""
CHECK_DEALS = 8
"""Deals of the even check: two of each pass direction."""


def run_benchmark(spec: str, suite: str = "v1", tier: str = "quick", preset: str = "standard",
                  format: str = "solo", out: str | os.PathLike | None = None, resume: bool = False,
                  jobs: int | None = None, progress: bool = False, isolation: str = "seating",
                  rungs: Sequence[str] | None = None, holdout: int | None = None) -> dict[str, Any]:
    """Benchmark agent ``spec`` against every opponent of the ``suite``'s ladder (or the named ``rungs``)
    on the tier's deals under the preset's rules, and return the result (also written to ``out``:
    ``result.json``, ``result.md``, ``ladder.png`` and one arena JSONL per rung, which ``resume``
    continues). Raises :class:`BenchmarkCheckFailed` when a self-check fails.

    ``holdout``: play held-out deals instead of the suite's published ones — dealt from a secret
    (:func:`~hearts_env.benchmark.suite.draw_holdout`; keep it to resume or reproduce the run) that
    no agent can know in advance, with agent seeds that do not reveal it. The suite's deals are
    public, so an agent could look its hand up among them; an honest agent's margins on held-out deals
    agree with its suite run's (``compare`` pairs nothing then: it compares the two unpaired)."""
    the_suite = get_suite(suite)
    deals = the_suite.deals(tier)
    rules = the_suite.rules(preset)
    seatings = format_seatings(format)
    ladder = the_suite.ladder if rungs is None else tuple(the_suite.rung(name) for name in rungs)
    if holdout is not None and (isinstance(holdout, bool) or not isinstance(holdout, int) or holdout < 0):
        raise ValueError(f"holdout must be an integer >= 0 (the secret the held-out deals are dealt from; "
                         f"draw_holdout() draws one), got {holdout!r}")
    weights = agent_weights(make_agent(spec))  # a bad spec fails before anything is played
    manifest: dict[str, Any] = {"benchmark": "hearts-bench", "suite": suite, "tier": tier, "preset": preset,
                                "format": format, "agent": spec}
    if weights is not None:  # resuming with other weights behind the same spec would mix two agents
        manifest["agent_weights_sha256"] = weights["sha256"]
    if holdout is not None:
        manifest["holdout"] = holdout
    folder = _prepare(Path(out) if out is not None else None, resume, manifest)
    seed, agent_seed = (the_suite.seed(preset), None) if holdout is None else holdout_seeds(holdout)
    published = the_suite.fingerprints.get((preset, tier)) if holdout is None else None
    if published is not None and deals_fingerprint(rules, seed, deals) != published:
        raise BenchmarkCheckFailed(f"self-check failed: this installation deals other cards than suite {suite} "
                                   f"({preset}, {tier}) published (a NumPy release that changed its random streams?); "
                                   f"its results would not be comparable")
    if holdout is not None:
        deals_check = "held-out deals, not the suite's: for comparing with a run on the suite's deals"
    else:
        deals_check = "the deals' fingerprint is the suite's" if published is not None else "no published fingerprint"
    check_ladder(the_suite, preset, ladder)
    check = run_arena([CHECK_AGENT, CHECK_AGENT], deals=min(CHECK_DEALS, deals), rules=rules, seed=seed, jobs=1,
                      isolation="none", only_seatings=seatings, agent_seed=agent_seed)
    check_totals(check)
    check_even(*per_deal(check, min(CHECK_DEALS, deals)), CHECK_AGENT)

    started = time.time()
    figures = {}
    for k, rung in enumerate(ladder):
        if progress:
            print(f"[{k + 1}/{len(ladder)}] {spec} against {rung.name}: {deals} deals x {len(seatings)} seatings",
                  file=sys.stderr)
        path = folder / f"{rung.name}.jsonl" if folder is not None else None
        records = run_arena([spec, rung.spec], deals=deals, rules=rules, seed=seed, jobs=jobs, out=path,
                            resume=path is not None and path.exists(), progress=progress, isolation=isolation,
                            only_seatings=seatings, agent_seed=agent_seed)
        check_totals(records)
        figures[rung.name] = {"spec": rung.spec, **rung_figures(records, deals)}
    result = {"benchmark": "hearts-bench", "suite": suite, "tier": tier, "preset": preset, "rules": rules.spec(),
              "format": format, "format_meaning": FORMATS[format], "agent": spec, "agent_weights": weights,
              "deals": deals, "deal_set": "suite" if holdout is None else "holdout", "seed": seed,
              **({} if holdout is None else {"holdout": holdout}),
              "package_version": __version__, "hardware": hardware(),
              "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
              "seconds": round(time.time() - started, 1),
              "checks": {"even": f"{CHECK_AGENT} against itself exactly even on {min(CHECK_DEALS, deals)} deals",
                         "totals": "every deal's points sum to the rules' total",
                         "deals": deals_check,
                         "ladder": f"each opponent's play on {LADDER_CHECK_DEALS} deals is the suite's"},
              "headline": {"name": "ladder margin", **headline(figures)}, "rungs": figures}
    if folder is not None:
        (folder / "result.json").write_text(json.dumps(result, indent=1, allow_nan=False) + "\n")
        (folder / "result.md").write_text(markdown(result) + "\n")
        try:
            plot_ladder(result, folder / "ladder.png")
        except ImportError as e:
            print(f"hearts-env benchmark: no plot ({e})", file=sys.stderr)
    return result


def agent_weights(agent: Any) -> dict[str, str] | None:
    """The file name and SHA-256 of the weights ``agent`` plays with (its ``weights_file``), or None."""
    path = getattr(agent, "weights_file", None)
    if path is None:
        return None
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return {"file": Path(path).name, "sha256": digest}


def _prepare(folder: Path | None, resume: bool, manifest: dict[str, Any]) -> Path | None:
    """Create the output folder (its parent must exist), or check that ``resume`` continues the same run."""
    if folder is None:
        if resume:
            raise ValueError("resume needs the output folder of the run to continue (out=, --out)")
        return None
    if not folder.parent.is_dir():
        raise ValueError(f"the folder holding {folder} does not exist; create it first")
    stored = folder / "manifest.json"
    if stored.exists():
        if not resume:
            raise FileExistsError(f"{folder} holds a benchmark run: pass resume=True (--resume) to continue it, "
                                  f"or choose another folder")
        previous = json.loads(stored.read_text())
        if previous != manifest:
            differ = ", ".join(f"{k}: {previous.get(k)!r} there, {manifest.get(k)!r} now"
                               for k in [*manifest, *(k for k in previous if k not in manifest)]
                               if previous.get(k) != manifest.get(k))
            raise ValueError(f"{folder} holds another benchmark run ({differ}); choose another folder")
        return folder
    if folder.exists() and any(folder.iterdir()):
        raise FileExistsError(f"{folder} is not empty and holds no benchmark run; choose another folder")
    folder.mkdir(exist_ok=True)
    stored.write_text(json.dumps(manifest, indent=1) + "\n")
    return folder


def hardware() -> dict[str, Any]:
    """The machine and software a result was measured on (the seconds per decision depend on them)."""
    return {"machine": platform.machine(), "processor": platform.processor() or None, "cpus": os.cpu_count(),
            "system": platform.platform(), "python": platform.python_version(), "numpy": np.__version__}
