"""Expert iteration: the apprentice fitted to the gated searcher that rolls out with it, then searched again.

    make xinxin        # xinxin's driver (GPL-3.0, built from third_party/; never in the wheel)
    python -m hearts_baselines.apprentice.expert --out runs/expert --rounds 3 --jobs 2

Round ``r`` starts from an apprentice ``A`` (round 1: the bundled weights; later, the last round's fit, if it paid).
Its teacher is the strength curve's searcher (docs/search.md) with ``A`` in its rollouts and as the network it
overrides, ``pimc(n=N, policy=A, elsewhere=A, confidence=Z)``: ``A``'s card, unless ``N`` worlds show another
better by more than ``Z`` standard errors (and the search's card where a moon may be on). A fixed ``N`` rather than a
time limit, so the data is a function of the seeds, not of the machine's speed. Three stages, each resumed where it
stopped:

1. **data** (:mod:`~hearts_baselines.apprentice.data`, ``--deals`` deals each): ``OUT/round-r/xinxin``, the teacher in
   one seat against three xinxin seats at OpenSpiel's setting under OpenSpiel's rules (the positions the claim is
   measured on, moons included); ``OUT/round-r/dagger``, ``A`` plays that seat and the teacher labels each of its
   decisions (the positions ``A``'s own play leads to). Seeds ``10·r + 1`` and ``10·r + 2``: no round, and not the
   moon stage (seeds 1 and 2), sees another's deals.
2. **fit** (:mod:`~hearts_baselines.apprentice.supervised`): ``A`` fitted again (``init``) to every round's folders so
   far, ``--epochs`` at ``--lr``, into ``OUT/round-r/fit/apprentice.npz``: the candidate ``A'``.
3. **check**: ``A'`` and ``A`` each play one seat against three xinxin seats at OpenSpiel's setting under OpenSpiel's
   rules, on ``--check-deals`` deals in the four rotations — arena deals of seed :data:`CHECK_SEED`, neither the
   data's nor hearts-bench's — paired deal for deal (``OUT/round-r/check-*.jsonl``, resumable). The round **pays**
   when the 95 % interval of ``A'`` − ``A`` lies above 0: the next round starts from ``A'``. Otherwise the iteration
   stops and ``A`` stands.

``OUT/rounds.json`` holds every round's verdict (both margins, the paired gain with its interval, the weights); a
rerun skips the rounds it holds. Same seeds and thread count → same data and weights.
"""

from __future__ import annotations

import json
import os
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearts_baselines.apprentice import data, supervised
from hearts_baselines.apprentice.agent import BUNDLED
from hearts_baselines.apprentice.moon import XINXIN
from hearts_baselines.run_args import arg, parse
from hearts_env.evaluation.arena import run_arena
from hearts_env.evaluation.arena.game import solo_seatings
from hearts_env.evaluation.arena.pause import RunPaused
from hearts_env.evaluation.benchmark.stats import paired, per_deal_margin

CHECK_SEED = zlib.crc32(b"hearts-apprentice/expert-check")
"""The arena seed of the check's deals (two-number seeds ``[CHECK_SEED, k]``: not the data's three-number ones)."""
RULES = "openspiel"
"""The rules of the data and the check: OpenSpiel's, where the claim is measured (docs/search.md)."""


@dataclass
class Args:
    out: str = arg()
    rounds: int = arg(3, "rounds at most (the iteration stops at the first that does not pay)")
    deals: int = arg(1200, "deals of each data folder per round (a multiple of --unit-deals)")
    worlds: int = arg(80, "the teacher's worlds a decision (pimc's n)")
    confidence: float = arg(2.0, "standard errors by which the teacher's search must beat the apprentice's card")
    epochs: int = 5
    lr: float = 1e-4
    check_deals: int = arg(400, "held-out deals of each round's check (each in the four rotations)")
    jobs: int = arg(1, "processes of the data and check stages (neither depends on it)")
    seed: int = arg(0, "the fit's seed")
    unit_deals: int = arg(50, "deals per data file")
    eval_deals: int = arg(2000, "deals of the fit's quick measure against heuristic after each epoch")
    opponents: str = arg(XINXIN, "the three opponent seats of the data and the check (an agent spec)")


def apprentice_spec(weights: Path) -> str:
    """The agent spec that plays ``weights`` (``apprentice`` for the bundled ones)."""
    return "apprentice" if weights == BUNDLED else f"apprentice(weights={str(weights)!r})"


def teacher(apprentice: str, worlds: int, confidence: float) -> str:
    """The gated searcher around ``apprentice`` (an agent spec)."""
    return f"pimc(n={worlds}, policy={apprentice!r}, elsewhere={apprentice!r}, confidence={confidence})"


def check(candidate: str, incumbent: str, opponents: str, deals: int, jobs: int, folder: Path) -> dict[str, Any]:
    """Both agents, one seat against three ``opponents``, on the same held-out deals; the candidate's paired gain."""
    runs = {}
    for name, spec in (("candidate", candidate), ("incumbent", incumbent)):
        out = folder / f"check-{name}.jsonl"
        records = run_arena([spec, opponents], deals, rules=RULES, seed=CHECK_SEED, jobs=jobs, out=out,
                            resume=out.exists(), only_seatings=solo_seatings(), isolation="none")
        runs[name] = per_deal_margin(records, deals)
    gain = paired(runs["candidate"] - runs["incumbent"])
    return {"candidate": candidate, "incumbent": incumbent, "deals": deals, "games": 4 * deals,
            "candidate_margin": float(runs["candidate"].mean()), "incumbent_margin": float(runs["incumbent"].mean()),
            "gain": gain, "pays": gain["ci95"] is not None and gain["ci95"][0] > 0}


def write_json(path: Path, value: Any) -> None:
    """Write ``value`` as strict JSON, atomically."""
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(value, indent=1, allow_nan=False) + "\n")
    os.replace(tmp, path)


def iterate(args: Args) -> list[dict[str, Any]]:
    """Run (or resume) the rounds; returns every round's verdict."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    ledger = out / "rounds.json"
    verdicts: list[dict[str, Any]] = json.loads(ledger.read_text()) if ledger.exists() else []
    weights = BUNDLED
    folders: list[str] = []
    for r in range(1, args.rounds + 1):
        apprentice = apprentice_spec(weights)
        searcher = teacher(apprentice, args.worlds, args.confidence)
        round_dir = out / f"round-{r}"
        how: dict[str, dict[str, Any]] = {"xinxin": {"seed": 10 * r + 1},
                                          "dagger": {"seed": 10 * r + 2, "player": apprentice}}
        for name, options in how.items():
            data.generate(round_dir / name, args.deals, jobs=args.jobs, unit_deals=args.unit_deals, searcher=searcher,
                          rules=RULES, opponents=args.opponents, **options)
            folders.append(str(round_dir / name))
        fit = round_dir / "fit"
        if len(verdicts) < r:
            supervised.train(",".join(folders), str(fit), seed=args.seed, epochs=args.epochs, lr=args.lr,
                             init=str(weights), resume=True, eval_deals=args.eval_deals)
            verdict = {"round": r, "teacher": searcher, "data": folders[-2:],
                       **check(apprentice_spec(fit / "apprentice.npz"), apprentice, args.opponents,
                               args.check_deals, args.jobs, round_dir)}
            verdicts.append(verdict)
            write_json(ledger, verdicts)
        verdict = verdicts[r - 1]
        low, high = verdict["gain"]["ci95"] or (float("nan"), float("nan"))
        print(f"round {r}: {verdict['candidate_margin']:+.2f} against {verdict['incumbent_margin']:+.2f}, gain "
              f"{verdict['gain']['mean']:+.2f} [{low:+.2f}, {high:+.2f}] over {verdict['deals']} deals: "
              f"{'pays' if verdict['pays'] else 'does not pay; the iteration stops'}")
        if not verdict["pays"]:
            break
        weights = fit / "apprentice.npz"
    return verdicts


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__.split("\n\n")[0])
    try:
        iterate(args)
    except RunPaused as e:  # SIGTERM during a check: its games in play were written; a rerun resumes them
        sys.exit(f"hearts_baselines.apprentice.expert: paused: {e}")


if __name__ == "__main__":
    main()
