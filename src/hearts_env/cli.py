"""The ``hearts-env`` command: ``arena``, ``rules`` and ``bench``.

    hearts-env arena heuristic greedy --deals 500 --jobs 2 --out runs/h-vs-g.jsonl [--resume] [--json]
    hearts-env rules [PRESET]
    hearts-env bench
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hearts_env.arena import format_summary, run_arena, summarize
from hearts_env.rules import PRESET_DOCS, PRESETS, RulesError, describe_options, make_rules


def _arena(args: argparse.Namespace) -> int:
    try:
        records = run_arena(args.agents, deals=args.deals, rules=make_rules(args.rules, game="deal"), seed=args.seed,
                            jobs=args.jobs, out=args.out, resume=args.resume, progress=not args.json)
    except (ValueError, FileExistsError) as e:
        print(f"hearts-env arena: {e}", file=sys.stderr)
        return 2
    summary = summarize(records)
    print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.preset:
        try:
            rules = make_rules(args.preset)
        except RulesError as e:
            print(f"hearts-env rules: {e}", file=sys.stderr)
            return 2
        for name, _, doc in describe_options():
            print(f"{name:<32} {getattr(rules, name)!s:<16} {doc}")
        return 0
    print("presets:")
    for name in PRESETS:
        print(f"  {name:<11} {PRESET_DOCS[name]}")
    print("\noptions (name, default of Rules(), meaning):")
    for name, default, doc in describe_options():
        print(f"  {name:<32} {default:<14} {doc}")
    print("\nspec strings: 'standard(jd_bonus=true, target=50)'; see docs/rules.md")
    return 0


def _bench(args: argparse.Namespace) -> int:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "run.py"
    if not script.exists():
        print("hearts-env bench: the benchmarks ship with the source checkout (benchmarks/run.py); "
              "run `make bench` there", file=sys.stderr)
        return 2
    import runpy

    sys.argv = [str(script), *args.rest]
    runpy.run_path(str(script), run_name="__main__")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hearts-env", description="Hearts for reinforcement learning.")
    sub = parser.add_subparsers(dest="command", required=True)

    arena = sub.add_parser("arena", help="duplicate-deal tournament between 1, 2 or 4 agent specs")
    arena.add_argument("agents", nargs="+", help="agent specs, e.g. heuristic greedy 'pkg.mod:Factory(k=1)'")
    arena.add_argument("--deals", type=int, default=200, help="number of duplicate deals (default 200)")
    arena.add_argument("--rules", default="standard", help="rules preset or spec (played one deal at a time)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the deals (0 is a seed)")
    arena.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    arena.add_argument("--out", help="JSONL file: one record per game, written as games finish")
    arena.add_argument("--resume", action="store_true", help="continue the run recorded in --out")
    arena.add_argument("--json", action="store_true", help="print the summary as JSON")
    arena.set_defaults(func=_arena)

    rules = sub.add_parser("rules", help="list presets and options, or show one preset's values")
    rules.add_argument("preset", nargs="?", help="a preset or spec string to show")
    rules.set_defaults(func=_rules)

    bench = sub.add_parser("bench", help="speed benchmarks (source checkout)")
    bench.add_argument("rest", nargs=argparse.REMAINDER, help="arguments for benchmarks/run.py")
    bench.set_defaults(func=_bench)

    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
