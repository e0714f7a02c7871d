"""The ``hearts-env`` command: ``arena``, ``benchmark`` (hearts-bench), ``play``, ``replay``, ``rules`` and
``speed`` (the speed benchmarks of ``make speed``; ``bench`` is its deprecated name).

    hearts-env arena heuristic greedy --deals 500 --jobs 2 --out runs/h-vs-g.jsonl [--resume] [--json]
    hearts-env benchmark heuristic --tier quick --out runs/bench-heuristic [--resume]
    hearts-env benchmark compare runs/bench-a/result.json runs/bench-b/result.json
    hearts-env play --seat 0 --opponents heuristic greedy random --rules standard
    hearts-env replay runs/h-vs-g.jsonl --deal 3 [--seating 5]
    hearts-env rules [PRESET]
    hearts-env speed [--only vector]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

from hearts_env import __version__, terminal
from hearts_env.agents import AgentError, make_agent
from hearts_env.agents.failures import ERRORS_LOG, FailureReport, errors_log_beside
from hearts_env.cards import card_name, format_cards
from hearts_env.engine import Deal
from hearts_env.evaluation.arena import format_summary, read_records, replay_record, run_arena, summarize
from hearts_env.evaluation.arena.game import SeatOptions
from hearts_env.evaluation.arena.on_ray import ClusterFault
from hearts_env.evaluation.arena.pause import RunPaused
from hearts_env.evaluation.arena.report import plot, ratings
from hearts_env.evaluation.arena.runner import BACKENDS, WorkerDied
from hearts_env.evaluation.benchmark import (
    BenchmarkCheckFailed,
    IncomparableResults,
    compare,
    draw_holdout,
    format_compare,
    get_suite,
    markdown,
    run_benchmark,
)
from hearts_env.evaluation.benchmark.report import shown
from hearts_env.evaluation.benchmark.runner import AGENT_ISOLATION, MOVE_TIME_LIMIT
from hearts_env.evaluation.benchmark.suite import FORMATS, ONCE_GAMES_PER_DEAL, TRACKS
from hearts_env.evaluation.benchmark.verify import (
    PACKED_SUFFIX,
    VerificationFailed,
    check_run,
    pack_records,
    read_run,
    verify_run,
)
from hearts_env.evaluation.exploit.track import PROBES, format_probes, format_trained, run_probes, run_trained
from hearts_env.evaluation.records import FORMAT, deals_of_record, read_record
from hearts_env.evaluation.seat import Sandbox, SandboxError
from hearts_env.evaluation.seat.sandbox import MODES as SANDBOX_MODES
from hearts_env.events import Received, Scored, TrickTaken
from hearts_env.render import format_hand
from hearts_env.rules import PRESET_DOCS, PRESETS, RulesError, describe_options, make_rules

PLOT_FORMATS = ("png", "pdf", "svg")


def _arena(args: argparse.Namespace) -> int:
    if args.plot and (Path(args.plot).suffix.lstrip(".").lower() not in PLOT_FORMATS
                      or not Path(args.plot).parent.is_dir()):
        print(f"hearts-env arena: --plot {args.plot}: needs an existing folder and a .png, .pdf or .svg name "
              "(checked before playing)", file=sys.stderr)
        return 2
    try:
        with _seat_server(args, "arena"):
            records = run_arena(args.agents, deals=args.deals, rules=make_rules(args.rules), seed=args.seed,
                                jobs=args.jobs, out=args.out, resume=args.resume, progress=not args.json,
                                move_time_limit=args.move_time_limit, backend=args.backend, isolation=args.isolation,
                                seats=SeatOptions(sandbox=Sandbox(mode=args.sandbox)))
        summary = summarize(records)
        if args.ratings:
            summary["ratings"] = ratings(records)
        if args.plot:
            plot(records, summary, args.plot)
    except (ValueError, FileExistsError, ImportError, WorkerDied, ClusterFault, SandboxError) as e:
        print(f"hearts-env arena: {e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
    if args.ratings and not args.json:
        for spec, r in summary["ratings"].items():
            print(f"rating {spec}: mu {r['mu']:.2f}, sigma {r['sigma']:.2f}, ordinal {r['ordinal']:.2f} (OpenSkill)")
    if summary["errors"]:
        failures = FailureReport(errors_log_beside(args.out)).add_records(records)
        then = "" if args.allow_errors else "; pass --allow-errors to exit 0 anyway"
        print(f"hearts-env arena: {failures.total} game(s) ended by an agent error, each charged as a forfeit: "
              f"{failures.line()}{then}", file=sys.stderr)
        return 0 if args.allow_errors else 3
    return 0


def _seat_server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seat-server", metavar="HOST:PORT",
                        help="listen here for remote seats ('remote:NAME' specs: programs elsewhere that join with "
                             "`hearts-env seat connect`; docs/seat-protocol.md)")
    parser.add_argument("--seat-tokens", metavar="FILE",
                        help='the remote seats\' tokens: a JSON object {"NAME": "TOKEN", ...} (16 characters or more)')
    parser.add_argument("--seat-cert", metavar="PEM", help="serve remote seats over TLS with this certificate")
    parser.add_argument("--seat-key", metavar="PEM", help="the certificate's private key (when not in --seat-cert)")


def _seat_server(args: argparse.Namespace, command: str) -> Any:
    """The seat server the command's remote seats join (``--seat-server``), or a context that does nothing."""
    if args.seat_server is None:
        for option in ("seat_tokens", "seat_cert", "seat_key"):
            if getattr(args, option) is not None:
                raise ValueError(f"--{option.replace('_', '-')} serves remote seats: give --seat-server HOST:PORT too")
        return contextlib.nullcontext()
    from hearts_env.evaluation.seat.bridge import parse_address
    from hearts_env.evaluation.seat.remote import SeatServer

    host, port = parse_address(args.seat_server)
    if args.seat_tokens is None:
        raise ValueError('--seat-server needs --seat-tokens FILE: a JSON object {"NAME": "TOKEN", ...}')
    tokens = _load_json(args.seat_tokens)
    if not isinstance(tokens, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tokens.items()):
        raise ValueError(f'--seat-tokens {args.seat_tokens}: expected a JSON object {{"NAME": "TOKEN", ...}}')
    server = SeatServer(tokens, host, port, certfile=args.seat_cert, keyfile=args.seat_key)
    shown_host, shown_port = server.address
    print(f"hearts-env {command}: remote seats {', '.join(sorted(tokens))} join at {shown_host}:{shown_port} "
          f"({'TLS' if args.seat_cert else 'plain TCP: loopback or a trusted network only'})", file=sys.stderr)
    return server


def _seat(args: argparse.Namespace) -> int:
    """``hearts-env seat connect HOST:PORT --seat NAME -- COMMAND...``."""
    from hearts_env.evaluation.seat.bridge import Bridge, parse_address, read_token

    command = list(args.program)
    try:
        host, port = parse_address(args.address)
        token = read_token(args.token_file, os.environ)
        bridge = Bridge(host, port, args.seat, token, command, tls=args.tls, cafile=args.cafile,
                        max_programs=args.max_programs)
    except ValueError as e:
        print(f"hearts-env seat connect: {e}", file=sys.stderr)
        return 2
    return bridge.run()


def _benchmark(args: argparse.Namespace) -> int:
    if args.spec == "verify":
        return _verify(args)
    if args.spec == "pack":
        return _pack(args)
    if args.spec == "compare":
        if len(args.files) != 2:
            print("hearts-env benchmark compare: give two result.json files", file=sys.stderr)
            return 2
        try:
            results = [_load_json(path) for path in args.files]
            comparison = compare(*results)
        except (OSError, ValueError) as e:  # IncomparableResults and JSON errors are ValueErrors
            print(f"hearts-env benchmark compare: {e}", file=sys.stderr)
            return 2
        print(json.dumps(comparison, indent=1) if args.json else format_compare(comparison))
        return 0
    if args.files:
        print(f"hearts-env benchmark: one agent spec at a time (got also {args.files}); "
              "`hearts-env benchmark compare A.json B.json` pairs two results", file=sys.stderr)
        return 2
    try:
        holdout = _holdout(args)
        failures = FailureReport(Path(args.out) / ERRORS_LOG if args.out else None)
        with contextlib.redirect_stdout(sys.stderr), _seat_server(args, "benchmark"):  # stdout: --json's alone
            result = run_benchmark(args.spec, suite=args.suite, tier=args.tier, preset=args.rules, format=args.format,
                                   out=args.out, resume=args.resume, jobs=args.jobs, progress=not args.json,
                                   isolation=args.isolation, rungs=args.opponents, holdout=holdout,
                                   move_time_limit=args.move_time_limit, sandbox=Sandbox(mode=args.sandbox),
                                   agent_secret=args.agent_secret, track=args.track, extend=args.extend,
                                   failures=failures, prices=args.prices, token_budget=args.token_budget,
                                   backend=args.backend)
    except BenchmarkCheckFailed as e:
        print(f"hearts-env benchmark: {e}", file=sys.stderr)
        return 4
    except (ValueError, FileExistsError, ImportError, WorkerDied, ClusterFault, IncomparableResults,
            SandboxError) as e:
        print(f"hearts-env benchmark: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=1) if args.json else markdown(result))
    errors = sum(sum(r["errors"].values()) for r in result["rungs"].values())
    if errors and not args.allow_errors:
        first = next(text for r in result["rungs"].values() for text in r.get("first_errors", {}).values())
        print(f"hearts-env benchmark: {errors} game(s) ended by an error of {args.spec} (charged as forfeits; the "
              f"first: {shown(first)}; result.md names the first of each kind; every traceback in {failures.log}; "
              "pass --allow-errors to exit 0 anyway)", file=sys.stderr)
        return 3
    return 0


def _verify(args: argparse.Namespace) -> int:
    """``hearts-env benchmark verify DIR|RESULT.json ... [--leaderboard]``: exit 1 naming the first discrepancy."""
    if not args.files:
        print("hearts-env benchmark verify: give run folders or leaderboard result files", file=sys.stderr)
        return 2
    for path in args.files:
        try:
            result = verify_run(path, leaderboard=args.leaderboard, ladder_sample=args.ladder_sample,
                                sample_seed=args.sample_seed)
        except VerificationFailed as e:
            named = str(e).startswith(str(path))  # the file's own refusal names it already
            print(f"hearts-env benchmark verify: {'' if named else f'{path}: '}{e}", file=sys.stderr)
            return 1
        games = sum(r["seat_games"] for r in result["rungs"].values())
        print(f"{path}: verified ({result['agent']}, {result['tier']}, {result['deals']} deals, {games} seat-games "
              f"replayed; {result['headline']['name']} {result['headline']['mean']:+.2f})")
    return 0


def _pack(args: argparse.Namespace) -> int:
    """``hearts-env benchmark pack DIR DEST.json``: a verified run as a leaderboard row's two files."""
    if len(args.files) != 2:
        print("hearts-env benchmark pack: give a run's folder and the result file to write (e.g. "
              "results/leaderboard/v1/quick/AGENT.json)", file=sys.stderr)
        return 2
    folder, dest = Path(args.files[0]), Path(args.files[1])
    try:
        result, records = read_run(folder)
        check_run(result, records, ladder_sample=args.ladder_sample, sample_seed=args.sample_seed)
        packed = dest.with_name(dest.name.removesuffix(".json") + PACKED_SUFFIX)
        data = pack_records(result, records)
        dest.write_text(json.dumps(result, indent=1, allow_nan=False) + "\n")
        packed.write_bytes(data)
        verify_run(dest, ladder_sample=0)  # the same games, packed: their ladder cards were checked above
    except (VerificationFailed, OSError, ValueError) as e:
        print(f"hearts-env benchmark pack: {e}", file=sys.stderr)
        return 1
    print(f"{dest} and {packed.name}: {len(data):,} bytes of records")
    return 0


DRAW = -1
"""``--holdout`` without a secret: draw one."""


def _share(text: str) -> float:
    """An argparse type: a share from 0 to 1, refused in one line otherwise."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:  # NaN fails too
        raise argparse.ArgumentTypeError(f"expected a share from 0 to 1, got {text!r}")
    return value


def _prices(text: str) -> tuple[float, float]:
    """``--prices IN,OUT``: two numbers >= 0 (argparse names the option when this raises)."""
    try:
        prices = tuple(float(part) for part in text.split(","))
    except ValueError:
        prices = ()
    if len(prices) != 2 or not all(p >= 0 and p != float("inf") for p in prices):
        raise argparse.ArgumentTypeError(f"expected IN,OUT: two numbers >= 0 (US dollars per million tokens), "
                                         f"got {text!r}")
    return prices[0], prices[1]


def _at_least(minimum: float, kind: type = int) -> Any:
    """An argparse type: a number of ``kind`` that is at least ``minimum``, refused in one line otherwise."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or value != value or value < minimum:  # value != value: NaN
            raise argparse.ArgumentTypeError(f"expected {'an integer' if kind is int else 'a number'} >= {minimum}, "
                                             f"got {text!r}")
        return value
    parse.__name__ = "count" if kind is int else "number"  # argparse names the type in its message
    return parse


def _port(text: str) -> int:
    port = _at_least(0)(text)
    if port > 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535 (0: any free port), got {text!r}")
    return int(port)


def _secret(text: str) -> int:
    try:
        secret = int(text)
    except ValueError:
        secret = -1
    if secret < 0:
        raise argparse.ArgumentTypeError(f"the secret must be an integer >= 0, got {text!r}")
    return secret


def _holdout(args: argparse.Namespace) -> int | None:
    """The secret of ``--holdout``: the one given, the one of the run ``--resume`` (or ``--extend``) continues, or a
    new one."""
    if args.holdout != DRAW:
        return args.holdout
    manifest = Path(args.out) / "manifest.json" if args.out else None
    if (args.resume or args.extend) and manifest is not None and manifest.exists():
        secret = json.loads(manifest.read_text()).get("holdout")
        if secret is None:
            raise ValueError(f"{args.out} holds a run on the suite's deals, not held-out ones: resume it "
                             f"without --holdout")
        return int(secret)
    secret = draw_holdout()
    print(f"hearts-env benchmark: held-out deals from secret {secret} (--holdout {secret} reproduces them; "
          f"--resume --holdout continues this run)", file=sys.stderr)
    return secret


def _read_text(path: str) -> str:
    """A text file's contents; a file that is not text is refused in one line naming it."""
    try:
        return Path(path).read_text()
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not a text file (not UTF-8)") from None


def _load_json(path: str) -> Any:
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None


def _play(args: argparse.Namespace) -> int:
    return terminal.play(args.rules, args.opponents, args.seat, args.seed)



def _replay(args: argparse.Namespace) -> int:
    try:
        games = _game_records(args.file)
        if games is not None:
            return _replay_game(games, args)
        records = list(read_records(args.file))
    except (OSError, ValueError) as e:
        print(f"hearts-env replay: {e}", file=sys.stderr)
        return 2
    if args.deal is None:
        print("hearts-env replay: an arena results file holds many games: choose one with --deal K "
              "(and --seating S)", file=sys.stderr)
        return 2
    matching = [r for r in records if r["deal"] == args.deal and (args.seating is None
                                                                  or r["seating_index"] == args.seating)]
    if not matching:
        deals = sorted({r["deal"] for r in records})
        seating = f" and seating {args.seating}" if args.seating is not None else ""
        there = f"; deals there: {deals[0]}..{deals[-1]}" if deals else ""
        print(f"hearts-env replay: no game with deal {args.deal}{seating} in {args.file}{there}", file=sys.stderr)
        return 2
    record = matching[0]
    names = [f"seat {s} ({spec})" for s, spec in enumerate(record["seating"])]
    print(f"episode {record['deal']}, seating {record['seating_index']}: rules {record['rules']}")
    for k in range(len(record["deals"])):
        _print_deal(replay_record(record, k), names, k)
    if record["error"]:
        print(f"game ended by an error of {record['error']['spec']}: {record['error']['message']}")
    return 0


def _game_records(path: str) -> list[dict[str, Any]] | None:
    """The games of a ``hearts-record/1`` file (one JSON object, or one per line), or None for another file."""
    text = _read_text(path)
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        first = next((line for line in text.splitlines() if line.strip()), "")
        try:
            if json.loads(first).get("format") != FORMAT:
                return None
        except (json.JSONDecodeError, AttributeError):
            return None
        return [read_record(line) for line in text.splitlines() if line.strip()]
    if isinstance(whole, dict) and whole.get("format") == FORMAT:
        return [read_record(whole)]
    return None


def _replay_game(games: list[dict[str, Any]], args: argparse.Namespace) -> int:
    """Every deal of one game of a ``hearts-record/1`` file (``--game``), trick by trick."""
    if not 0 <= args.game < len(games):
        print(f"hearts-env replay: {args.file} holds {len(games)} game(s); --game {args.game} is not one of them",
              file=sys.stderr)
        return 2
    game = games[args.game]
    players = game.get("players") or [None] * 4
    names = [f"seat {s}" + (f" ({p})" if p else "") for s, p in enumerate(players)]
    deals = deals_of_record(game)
    print(f"game {args.game}: rules {game['rules']}")
    for k, deal in enumerate(deals):
        if args.deal is None or args.deal == k:
            _print_deal(deal, names, k)
    print(f"scores: {terminal.by_seat(game['scores'], names)}")
    return 0


def _print_deal(deal: Deal, names: list[str], k: int) -> None:
    deck = deal.deck
    print(f"-- deal {k + 1}: pass {deal.pass_direction_name}")
    for s in range(4):
        print(f"  {names[s]:<28} {format_hand(deal.dealt[s], deck)}")
    for event in deal.events():
        if isinstance(event, Received):
            print(f"  {names[event.seat]} receives {format_cards(event.cards, deck, symbols=True)}")
        elif isinstance(event, TrickTaken):
            plays = ", ".join(f"seat {(event.leader + i) % 4} {card_name(c, deck, symbols=True)}"
                              for i, c in enumerate(event.cards))
            print(f"trick {event.index + 1}: {plays} -> {names[event.seat]} ({event.points} points)")
        elif isinstance(event, Scored):
            moon = event.moon_shooter
            print(f"points: {list(event.points)}" + (f"; moon by {names[moon]}" if moon is not None else ""))


def _serve(args: argparse.Namespace) -> int:
    """The local page to play, watch and replay (docs/serve.md); needs the extra 'web'."""
    missing = [path for path in args.records if not Path(path).is_file()]
    if missing:
        print(f"hearts-env serve: --records: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    try:
        from hearts_env import web

        web.require()
    except ImportError as e:
        print(f"hearts-env serve: {e}", file=sys.stderr)
        return 2
    for spec in args.agent:  # a spec the page could not build is refused now, not when a game begins
        try:
            make_agent(spec)
        except (AgentError, ValueError, ImportError) as e:
            print(f"hearts-env serve: --agent {spec}: {e}", file=sys.stderr)
            return 2
    try:
        web.serve(args.host, args.port, [Path(p) for p in args.records], args.agent,
                  ready=lambda url: print(f"hearts-env serve: {url} (Ctrl-C stops)", flush=True))
    except OSError as e:
        print(f"hearts-env serve: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0


def _rules(args: argparse.Namespace) -> int:
    if args.preset:
        try:
            rules = make_rules(args.preset)
        except RulesError as e:
            print(f"hearts-env rules: {e}", file=sys.stderr)
            return 2
        for name, _, doc in describe_options():
            print(f"{name:<32} {getattr(rules, name)!s:<16} {_plain(doc)}")
        return 0
    print("presets:")
    for name in PRESETS:
        print(f"  {name:<11} {_plain(PRESET_DOCS[name])}")
    print("\noptions (name, default of Rules(), meaning):")
    for name, default, doc in describe_options():
        print(f"  {name:<32} {default:<14} {_plain(doc)}")
    print("\nspec strings: 'standard(jd_bonus=true, target=50)'; see docs/rules.md")
    return 0


def _plain(text: str) -> str:
    """Docstring text for a terminal: the reStructuredText literal and reference marks dropped."""
    return re.sub(r":\w+:`([^`]*)`", r"\1", text).replace("``", "").replace("`", "")


def _speed(args: argparse.Namespace) -> int:
    if args.command == "bench":
        print("hearts-env bench is deprecated (removed in 0.3): the speed benchmarks are `hearts-env speed`; "
              "hearts-bench is `hearts-env benchmark`", file=sys.stderr)
    script = Path(__file__).resolve().parents[2] / "speed" / "run.py"
    if not script.exists():
        print(f"hearts-env {args.command}: the speed benchmarks ship with the source checkout (speed/run.py); "
              "run `make speed` there", file=sys.stderr)
        return 2
    import runpy

    runpy.run_path(str(script), run_name="speed_run")["main"](args.forwarded, prog=f"hearts-env {args.command}")
    return 0


PAUSED_EXIT = 75
"""The exit status of a run paused by a signal (EX_TEMPFAIL: ``--resume`` continues it)."""

BACKEND_HELP = ("where the games are played: local worker processes, or a Ray cluster (RAY_ADDRESS names one; else a "
                "local instance of --jobs CPUs; pip install 'hearts-env[ray]')")

POOL_COMMANDS = ("arena", "benchmark", "seat")
"""Commands that run worker processes or pass bytes on (the seat bridge's sockets and pipes): SIGPIPE stays ignored
there (as Python sets it), so a pipe to a worker or a peer that went away raises and is reported, instead of killing
the command silently."""


def _exploit(args: argparse.Namespace) -> int:
    failures = FailureReport(Path(args.out) / ERRORS_LOG if args.out else None)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            if args.train:
                if not args.out:
                    raise ValueError("--train needs --out, the folder its training and records go to")
                result = run_trained(args.spec, tier=args.tier, preset=args.rules, out=args.out, minutes=args.minutes,
                                     iterations=args.iterations, seed=args.seed, train_jobs=args.train_jobs,
                                     jobs=args.jobs, resume=args.resume, progress=not args.json, failures=failures,
                                     backend=args.backend)
            else:
                result = run_probes(args.spec, probes=args.probes, tier=args.tier, preset=args.rules, jobs=args.jobs,
                                    out=args.out, resume=args.resume, progress=not args.json, failures=failures,
                                    backend=args.backend)
    except (ValueError, FileExistsError, ImportError, WorkerDied, ClusterFault, SandboxError) as e:
        print(f"hearts-env exploit: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(format_trained(result) if args.train else format_probes(result))
    if failures.total:
        then = "" if args.allow_errors else "; pass --allow-errors to exit 0 anyway"
        print(f"hearts-env exploit: {failures.total} game(s) ended by an error, each charged as a forfeit: "
              f"{failures.line()}{then}", file=sys.stderr)
        return 0 if args.allow_errors else 3
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``hearts-env`` command's parser (every subcommand and option)."""
    parser = argparse.ArgumentParser(prog="hearts-env", description="Hearts for reinforcement learning.")
    parser.add_argument("--version", action="version", version=f"hearts-env {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    defaults = argparse.ArgumentDefaultsHelpFormatter  # --help shows every default
    arena = sub.add_parser("arena", help="duplicate-deal tournament between 1, 2 or 4 agent specs",
                           formatter_class=defaults)
    arena.add_argument("agents", nargs="+", help="agent specs, e.g. heuristic greedy 'pkg.mod:Factory(k=1)'")
    arena.add_argument("--deals", type=_at_least(1), default=200, help="number of duplicate deals")
    arena.add_argument("--rules", default="standard(game=deal)",
                       help="rules preset or spec; game=match plays games to the target (win rates)")
    arena.add_argument("--seed", type=_at_least(0), default=0, help="seed of the deals (0 is a seed)")
    arena.add_argument("--jobs", type=_at_least(1), default=None, help="worker processes (None: all cores)")
    arena.add_argument("--out", help="JSONL file: one record per game, written as games finish")
    arena.add_argument("--resume", action="store_true", help="continue the run recorded in --out")
    arena.add_argument("--json", action="store_true", help="print the summary as JSON")
    arena.add_argument("--move-time-limit", type=_at_least(0.001, float),
                       help="seconds per move; a slower move ends the episode")
    arena.add_argument("--allow-errors", action="store_true",
                       help="exit 0 even if agent errors ended games (they are charged as forfeits either way)")
    arena.add_argument("--backend", choices=BACKENDS, default="processes", help=BACKEND_HELP)
    arena.add_argument("--isolation", choices=["seating", "none"], default="seating",
                       help="seating (default): each seating's pass over the deals runs in fresh processes, so no "
                            "agent process sees a deal twice; none: any worker plays any game (trusted agents)")
    arena.add_argument("--sandbox", choices=list(SANDBOX_MODES), default="auto",
                       help="the sandbox of seated agents ('seat:COMMAND', 'hosted:SPEC'; docs/seat-protocol.md)")
    _seat_server_arguments(arena)
    arena.add_argument("--ratings", action="store_true", help="add OpenSkill ratings (extra 'arena')")
    arena.add_argument("--plot", help="write points distributions and the ladder to this PNG (extra 'arena')")
    arena.set_defaults(func=_arena)

    bench_help = "run one agent against the hearts-bench ladder, or compare two results (docs/benchmark.md)"
    benchmark = sub.add_parser("benchmark", help=bench_help, description=bench_help, formatter_class=defaults)
    benchmark.add_argument("spec", help="the agent spec to benchmark; or 'compare' A.json B.json; 'verify' "
                           "DIR|ROW.json ...; 'pack' DIR ROW.json (a leaderboard row with its records)")
    benchmark.add_argument("files", nargs="*", help="the files of compare, verify and pack")
    benchmark.add_argument("--leaderboard", action="store_true",
                           help="with verify: also require what a leaderboard row needs (isolation process in the "
                                "bwrap sandbox, no sitting that died, no agent error)")
    benchmark.add_argument("--suite", default="v1", help="suite version")
    v1 = get_suite("v1")
    benchmark.add_argument("--tier", default="quick", help="deals played (suite v1): " + ", ".join(
        f"{tier} {deals:,}" for tier, deals in v1.tiers.items()))
    benchmark.add_argument("--rules", default="standard", help="the suite's rules preset: " + ", ".join(v1.presets))
    benchmark.add_argument("--format", default=None, choices=list(FORMATS),
                           help="solo (the default on the suite's deals): the agent against three copies of each "
                                "opponent (4 rotations); mixed: the 14 seatings of the two; once (held-out runs, and "
                                f"their default): every game a new deal, {ONCE_GAMES_PER_DEAL} games per deal of the "
                                "tier")
    benchmark.add_argument("--track", choices=list(TRACKS), default="ladder",
                           help="ladder: the suite's bundled opponents; reference: the programs the literature "
                                "measures against, xinxin and OpenSpiel's ISMCTS (docs/reference.md); llm: a language "
                                "model, llm(model=..., base_url=...), its calls made by the dealer (docs/llm.md)")
    benchmark.add_argument("--prices", type=_prices, default=None, metavar="IN,OUT",
                           help="llm track: US dollars per million tokens in and out, for the cost a deal")
    benchmark.add_argument("--token-budget", type=_at_least(1), default=None, metavar="TOKENS",
                           help="llm track: pause the run once the model's tokens in and out reach this many (the "
                                "games in play finish; --resume with a larger budget continues)")
    benchmark.add_argument("--opponents", nargs="+", help="only these opponents of the track (ladder, for development: "
                           + ", ".join(rung.name for rung in v1.ladder) + "; reference: "
                           + ", ".join(rung.name for rung in v1.references) + ", default "
                           + ", ".join(v1.reference_default) + ")")
    benchmark.add_argument("--out", help="folder for the records, result.json, result.md and ladder.png")
    benchmark.add_argument("--resume", action="store_true", help="continue the run in --out")
    benchmark.add_argument("--extend", action="store_true",
                           help="continue the run in --out (paused or finished) on the larger --tier, keeping its "
                                "games: a tier's deals are the first of every larger tier's")
    benchmark.add_argument("--jobs", type=_at_least(1), default=None, help="worker processes (None: all cores)")
    benchmark.add_argument("--backend", choices=BACKENDS, default="processes", help=BACKEND_HELP)
    benchmark.add_argument("--isolation", choices=list(AGENT_ISOLATION), default="process",
                           help="process: the agent plays from a sandboxed program of its own (a leaderboard row "
                                "needs it); seating, none: inside the dealer's workers, for trusted agents")
    _seat_server_arguments(benchmark)
    benchmark.add_argument("--sandbox", choices=list(SANDBOX_MODES), default="auto",
                           help="the agent program's sandbox: bwrap (bubblewrap namespaces), basic (limits, empty "
                                "folder and environment only), auto: bwrap where it works")
    benchmark.add_argument("--move-time-limit", type=_at_least(0.001, float), default=MOVE_TIME_LIMIT,
                           help="seconds a decision may take; the agent's program is killed past it and the game "
                                "forfeited")
    benchmark.add_argument("--agent-secret", type=_secret, default=None,
                           help="the secret mixed into the agent's seeds (default: drawn per run, published in the "
                                "result when it ends): give a result's to reproduce its games")
    benchmark.add_argument("--holdout", nargs="?", type=_secret, const=DRAW, metavar="SECRET",
                           help="play held-out deals dealt from SECRET (none given: a new one from the OS, printed) "
                                "instead of the suite's public ones, every deal once (format once): the leaderboard's "
                                "ranked rows")
    benchmark.add_argument("--allow-errors", action="store_true", help="exit 0 even if the agent's errors ended games")
    benchmark.add_argument("--json", action="store_true", help="print the result (or comparison) as JSON")
    benchmark.set_defaults(func=_benchmark)

    exploit_help = ("how much a seat pressing one weakness gains against three seats of an agent: the probes "
                    "moon-seeker and queen-dumper, or with --train an exploiter trained against it (PPO from the "
                    "apprentice, at most --minutes), on the suite's duplicate deals (docs/reference.md)")
    exploit = sub.add_parser("exploit", help=exploit_help, description=exploit_help, formatter_class=defaults)
    exploit.add_argument("spec", help="the agent spec probed (played from a sandboxed program of its own)")
    exploit.add_argument("--probes", nargs="+", default=list(PROBES), choices=list(PROBES), help="the probes played")
    exploit.add_argument("--tier", default="quick", help="the suite's deals: " + ", ".join(
        f"{tier} {deals:,}" for tier, deals in v1.tiers.items()))
    exploit.add_argument("--rules", default="standard", help="the suite's rules preset: " + ", ".join(v1.presets))
    exploit.add_argument("--out", help="folder for the records and result.json")
    exploit.add_argument("--resume", action="store_true", help="continue the run in --out")
    exploit.add_argument("--jobs", type=_at_least(1), default=None, help="worker processes (None: all cores)")
    exploit.add_argument("--backend", choices=BACKENDS, default="processes", help=BACKEND_HELP)
    exploit.add_argument("--json", action="store_true", help="print the result as JSON")
    exploit.add_argument("--allow-errors", action="store_true",
                         help="exit 0 even if games ended by an error (each is charged as a forfeit; exit 3 otherwise)")
    exploit.add_argument("--train", action="store_true", help="train an exploiter instead of playing the probes "
                         "(needs --out and the train extra)")
    exploit.add_argument("--minutes", type=_at_least(0.01, float), default=30.0,
                         help="--train: the training's wall-time budget")
    exploit.add_argument("--iterations", type=_at_least(1), default=None, help="--train: exactly this many iterations "
                         "instead of the budget (replays a run: its result gives the number)")
    exploit.add_argument("--seed", type=_at_least(0), default=0, help="--train: the training's seed")
    exploit.add_argument("--train-jobs", type=_at_least(1), default=1,
                         help="--train: processes playing the training deals")
    exploit.set_defaults(func=_exploit)

    play = sub.add_parser("play", help="play one seat in the terminal against agents", formatter_class=defaults)
    play.add_argument("--seat", type=int, choices=range(4), default=0, help="your seat")
    play.add_argument("--opponents", nargs=3, default=["heuristic", "heuristic", "heuristic"],
                      help="three agent specs for the other seats, in seat order")
    play.add_argument("--rules", default="standard(game=deal)", help="rules preset or spec")
    play.add_argument("--seed", type=_at_least(0), default=None,
                      help="seed of the deals (None: a new one each time, printed so the deals can be played again)")
    play.set_defaults(func=_play)

    replay = sub.add_parser("replay", help="show a recorded game trick by trick: an arena results file or a "
                            "hearts-record/1 file", formatter_class=defaults)
    replay.add_argument("file", help="JSONL written by hearts-env arena --out, or a hearts-record/1 JSON file "
                        "(one game, or one per line)")
    replay.add_argument("--deal", type=_at_least(0),
                        help="arena file: the deal (episode) index, required; record file: show only this deal of "
                             "the game")
    replay.add_argument("--seating", type=_at_least(0), help="arena file: seating index (None: the first recorded)")
    replay.add_argument("--game", type=_at_least(0), default=0, help="record file: which game (line) to show")
    replay.set_defaults(func=_replay)

    seat = sub.add_parser("seat", help="take a seat in a dealer's run from this machine (docs/seat-protocol.md)",
                          formatter_class=defaults)
    seat_tools = seat.add_subparsers(dest="tool", required=True)
    connect = seat_tools.add_parser("connect", formatter_class=defaults,
                                    usage="hearts-env seat connect HOST:PORT --seat NAME [options] -- COMMAND ...",
                                    help="join HOST:PORT as remote seat NAME and run COMMAND for each game, its stdin "
                                         "and stdout the seat protocol")
    connect.add_argument("address", metavar="HOST:PORT", help="the dealer's seat server (--seat-server)")
    connect.add_argument("--seat", required=True, help="the remote seat's name (remote:NAME in the dealer's command)")
    connect.add_argument("--token-file", metavar="FILE",
                         help="a file whose first line is the seat's token (default: $HEARTS_ENV_SEAT_TOKEN)")
    connect.add_argument("--tls", action="store_true", help="the dealer serves TLS: verify its certificate")
    connect.add_argument("--cafile", metavar="PEM", help="verify the dealer's certificate against this (implies --tls)")
    connect.add_argument("--max-programs", type=_at_least(1), default=8,
                         help="programs playing at once, at most (one per game the dealer runs in parallel)")
    connect.set_defaults(func=_seat)  # the program to run for each game: the words after `--`

    serve = sub.add_parser("serve", help="a local page to play, watch and replay games (extra 'web'; docs/serve.md)",
                           formatter_class=defaults)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (only this machine by default)")
    serve.add_argument("--port", type=_port, default=8765, help="port to listen on")
    serve.add_argument("--records", nargs="+", default=[], metavar="FILE.jsonl",
                       help="arena records (hearts-env arena --out) the page may replay: the only files it reads")
    serve.add_argument("--agent", action="append", default=[], metavar="SPEC",
                       help="an agent spec the page may use besides the registered names, e.g. "
                            "'pkg.module:Factory(k=1)' (requests cannot name such specs themselves); repeatable")
    serve.set_defaults(func=_serve)

    rules = sub.add_parser("rules", help="list presets and options, or show one preset's values")
    rules.add_argument("preset", nargs="?", help="a preset or spec string to show")
    rules.set_defaults(func=_rules)

    speed = sub.add_parser("speed", help="the speed benchmarks (source checkout; `make speed`); every argument, "
                           "--help included, goes to speed/run.py", add_help=False)
    speed.set_defaults(func=_speed)
    sub.add_parser("bench", help="deprecated name of `speed`", add_help=False).set_defaults(func=_speed)
    return parser


def split_program(argv: list[str]) -> tuple[list[str], list[str]]:
    """``hearts-env seat connect ... -- COMMAND ...``: the command's own words (after ``--``, whatever they look like)
    apart from hearts-env's; other commands' arguments as they are."""
    if argv[:2] == ["seat", "connect"] and "--" in argv:
        return argv[:argv.index("--")], argv[argv.index("--") + 1:]
    return argv, []


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if len(argv) >= 2 and argv[0] == "benchmark" and argv[1] in BENCHMARK_TOOLS:
        parser = _tool_parser(argv[1])
        args = parser.parse_args(argv[2:])
        args.command, args.spec = "benchmark", argv[1]
    else:
        argv, program = split_program(argv)
        parser = build_parser()
        args, unknown = parser.parse_known_args(argv)
        args.program = program
        if args.command in ("speed", "bench"):  # its options are speed/run.py's, which argparse cannot know
            args.forwarded = unknown
        elif unknown:
            parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    if os.getcwd() not in sys.path:  # `module:Class` specs import from the folder the command runs in, as
        sys.path.append(os.getcwd())  # `python -m` would (appended: it never shadows an installed module)
    quiet_pipe = hasattr(signal, "SIGPIPE") and args.command not in POOL_COMMANDS
    # `hearts-env rules | head` ends quietly, like Unix tools; restored after, so a main() called in a process that goes
    # on (a test, a notebook) leaves SIGPIPE as it was: a later write to a closed socket there raised BrokenPipeError
    # instead of killing the whole process
    before = signal.signal(signal.SIGPIPE, signal.SIG_DFL) if quiet_pipe else None
    try:
        return _run(args)
    finally:
        if quiet_pipe:
            signal.signal(signal.SIGPIPE, before)


def _run(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args))
    except RunPaused as e:  # a first SIGINT/SIGTERM: every game in play finished and written
        print(f"hearts-env {args.command}: {e}", file=sys.stderr)
        return PAUSED_EXIT
    except KeyboardInterrupt:  # a second signal (or Ctrl-C in a command that does not pause)
        print(f"\nhearts-env {args.command}: stopped; any game in play was abandoned (--resume plays it again)"
              if args.command in POOL_COMMANDS else f"\nhearts-env {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # a pool command's stdout reader went away: end quietly too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as e:  # a file the command reads or writes: one line naming it, never a traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"hearts-env {args.command}: {where}{e.strerror or e}", file=sys.stderr)
        return 2


LADDER_SAMPLE_OPTION: tuple[str, dict[str, Any]] = ("--ladder-sample", {
    "type": _share, "default": 1.0, "metavar": "SHARE",
    "help": "the share of each ladder rung's games whose ladder cards are replayed (default 1: every card; the pimc "
            "rung costs about 0.16 s a game: 2.2 min for a quick row, about 30 min for a full one)"})
SAMPLE_SEED_OPTION: tuple[str, dict[str, Any]] = ("--sample-seed", {
    "type": _at_least(0), "default": 0, "help": "the seed that draws the games of --ladder-sample (default 0)"})
"""The options of ``verify`` and ``pack`` that say how many of the ladder's cards are replayed."""

BENCHMARK_TOOLS: dict[str, tuple[str, list[tuple[str, dict[str, Any]]]]] = {
    "compare": ("pair two results deal by deal: the difference of their ladder margins and of each rung's",
                [("files", {"nargs": 2, "metavar": "RESULT.json", "help": "two result.json files"}),
                 ("--json", {"action": "store_true", "help": "print the comparison as JSON"})]),
    "verify": ("re-derive runs from their records: every game re-dealt and replayed, every figure recomputed, "
               "the ladder's cards replayed by the ladder agents; exit 1 naming the first discrepancy",
               [("files", {"nargs": "+", "metavar": "DIR|ROW.json", "help": "run folders or leaderboard rows"}),
                ("--leaderboard", {"action": "store_true", "help": "also require what a leaderboard row needs "
                                   "(isolation process in the bwrap sandbox, no sitting that died, no agent error)"}),
                LADDER_SAMPLE_OPTION, SAMPLE_SEED_OPTION]),
    "pack": ("a verified run as a leaderboard row: its result.json and its packed records",
             [("files", {"nargs": 2, "metavar": "PATH", "help": "the run's folder, then the row to write (e.g. "
                         "results/leaderboard/v1/quick/AGENT.json; its records go beside it)"}),
              LADDER_SAMPLE_OPTION, SAMPLE_SEED_OPTION]),
}
"""``hearts-env benchmark compare|verify|pack``: what each does and its arguments (a parser of its own each, so
``--help`` shows them and not the benchmark's)."""


def _tool_parser(name: str) -> argparse.ArgumentParser:
    description, arguments = BENCHMARK_TOOLS[name]
    parser = argparse.ArgumentParser(prog=f"hearts-env benchmark {name}", description=description)
    for flag, options in arguments:
        parser.add_argument(flag, **options)
    parser.set_defaults(func=_benchmark, leaderboard=False, json=False)
    return parser


if __name__ == "__main__":
    sys.exit(main())
