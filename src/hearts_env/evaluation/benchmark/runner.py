"""Running one agent through a suite's ladder: checks first, each rung an arena tournament written as it
goes (resumable), then the figures, the Markdown table, the JSON and the plot."""

from __future__ import annotations

import calendar
import hashlib
import json
import os
import platform
import re
import secrets
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env import __version__
from hearts_env.agents import AgentSpec, make_agent
from hearts_env.agents.failures import ERRORS_LOG, FailureReport
from hearts_env.evaluation.arena.game import SeatOptions
from hearts_env.evaluation.arena.owner import owning
from hearts_env.evaluation.arena.pause import RunPaused, pausable
from hearts_env.evaluation.arena.runner import check_backend, check_jobs, probe_agent, read_records, run_arena
from hearts_env.evaluation.benchmark.checks import (
    BenchmarkCheckFailed,
    check_even,
    check_ladder,
    check_totals,
    ladder_check,
)
from hearts_env.evaluation.benchmark.report import markdown, plot_ladder
from hearts_env.evaluation.benchmark.stats import (
    headline,
    model_figures,
    per_deal,
    require_statistics,
    rung_figures,
)
from hearts_env.evaluation.benchmark.suite import (
    FORMATS,
    HEADLINES,
    HELD_OUT_FORMAT,
    Rung,
    Suite,
    deals_fingerprint,
    format_deals,
    format_games,
    format_seatings,
    get_suite,
    holdout_seeds,
    rung_seed,
)
from hearts_env.evaluation.benchmark.weights import check_shipped
from hearts_env.evaluation.seat import Sandbox, SeatError, seated_agent
from hearts_env.evaluation.seat.sandbox import describe_limits, seal_kernels
from hearts_env.rules import Rules

CHECK_AGENT = "greedy"
"""The deterministic agent of the even check (it draws no random numbers)."""
CHECK_DEALS = 8
"""Deals of the even check: two of each pass direction."""


AGENT_ISOLATION = {"process": "the agent plays from a sandboxed program of its own through the seat protocol",
                   "seating": "the agent runs inside the dealer's worker processes (fresh ones per seating pass)",
                   "none": "the agent runs inside the dealer's worker processes"}
"""How the agent under test is kept from the dealer; only ``process`` makes a leaderboard row."""
MOVE_TIME_LIMIT = 10.0
"""Seconds a decision of the agent may take by default; its program is killed and the game forfeited past it."""


def run_benchmark(spec: str | AgentSpec, suite: str = "v1", tier: str = "quick", preset: str = "standard",
                  format: str | None = None, out: str | os.PathLike | None = None, resume: bool = False,
                  jobs: int | None = None, progress: bool = False, isolation: str = "process",
                  rungs: Sequence[str] | None = None, holdout: int | None = None,
                  move_time_limit: float | None = MOVE_TIME_LIMIT, sandbox: Sandbox | None = None,
                  agent_secret: int | None = None, track: str = "ladder", extend: bool = False,
                  failures: FailureReport | None = None,
                  prices: tuple[float, float] | None = None, token_budget: int | None = None,
                  backend: str = "processes") -> dict[str, Any]:
    """Benchmark agent ``spec`` against every opponent of the ``suite``'s ladder (or the named ``rungs``)
    on the tier's deals under the preset's rules, and return the result (also written to ``out``:
    ``result.json``, ``result.md``, ``ladder.png`` and one arena JSONL per rung, which ``resume``
    continues). Raises :class:`BenchmarkCheckFailed` when a self-check fails.

    ``format``: ``solo`` (the default on the suite's deals), ``mixed``, or ``once`` (held-out runs, and their
    default).

    ``holdout``: play held-out deals instead of the suite's published ones — dealt from a secret
    (:func:`~hearts_env.evaluation.benchmark.suite.draw_holdout`; keep it to resume or reproduce the run) that
    no agent can know in advance, with agent seeds that do not reveal it, in the ``once`` format: every game a new
    deal, each rung's from its own stream, so no deal reaches the agent twice and nothing it could carry between
    games (through any channel of the machine) is about a deal it will see again. These are the
    leaderboard's ranked rows; a run on the suite's public deals is the development tool and the submitter's claim
    (``compare`` sets the two side by side, unpaired).

    ``isolation="process"`` (the default, and the only mode of a leaderboard row) plays the agent from a
    program of its own (``hosted:SPEC``, :mod:`hearts_env.evaluation.seat.host`) under ``sandbox``: it never shares
    a process with the dealer, the ladder or the bookkeeping, is killed past ``move_time_limit`` seconds
    a decision, and gets seeds digested with ``agent_secret`` (drawn per run unless given; published in
    the result when the run ends), so no seed tells it which deal it plays. Every sitting of the run is
    logged in ``sittings.jsonl``; :func:`~hearts_env.evaluation.benchmark.verify.verify_run` checks a finished run.

    ``extend``: continue the run in ``out`` — paused or finished, of a smaller tier — on ``tier``, keeping every
    game it played (deal *k* is the same in every tier, so a tier's deals are the first of every larger one's);
    its earlier result files are kept as ``result.<its tier>.json`` and ``.md``.

    ``track="llm"``: a language model through the ``llm`` agent (and only it), played by the dealer itself — the model
    proxy: its calls leave from the dealer's process, which holds the key; the prompt and the parser are this
    project's code and the model behind its endpoint is the only thing under test — against the ladder; each rung's
    ``model`` figures count its decisions, calls, retries, forfeits and tokens, and with ``prices`` (US dollars per
    million tokens in and out) its cost a deal. Every decision's prompt and answers are in the records. With
    ``token_budget`` the dealer stops the run once the model's tokens (in and out, every sitting's) reach it: the games
    in play finish (so it may pass the budget by what they spend) and :class:`RunPaused` says so; ``resume`` with a
    larger budget continues.

    ``backend="ray"``: the rungs' games on a Ray cluster (``pip install 'hearts-env[ray]'``; the cluster ``RAY_ADDRESS``
    names, else a local instance of ``jobs`` CPUs), each seat's program sandboxed on the node that plays it; the
    records are those of a local run. A node lost mid-run is the dealer's fault: its unfinished games are played again
    elsewhere and the sitting records each loss (``dealer_faults``). A run may change backend when it resumes.

    ``failures``: where every game's error goes, each seat's with its traceback (default: ``errors.log`` in
    ``out``, written when there is one; none without ``out``).
    """
    spec = spec.text if isinstance(spec, AgentSpec) else spec  # the result and the records keep the text as written
    format = format or (HELD_OUT_FORMAT if holdout is not None else "solo")
    the_suite, deals, rules, seatings, ladder = _checked_arguments(spec, suite, tier, preset, format, jobs, isolation,
                                                                   rungs, holdout, agent_secret, track, prices,
                                                                   token_budget, backend)
    sandbox = sandbox or Sandbox()
    if track == "llm":
        isolation = "none"  # the dealer plays the model's harness itself (its own code): the model proxy
    played = played_spec(spec, isolation)
    folder_path = Path(out).absolute() if out is not None else None
    if failures is None and out is not None:
        failures = FailureReport(Path(out) / ERRORS_LOG)
    seats = SeatOptions(sandbox=replace(sandbox, hidden=(*sandbox.hidden, str(folder_path))) if folder_path else
                        sandbox, secret=None)
    cache_folder = tempfile.TemporaryDirectory(prefix="hearts-bench-seat-cache-")  # removed when the run ends
    cache = cache_folder.name  # the agent's compiled kernels, copied to each of its programs
    weights = _weights(spec, played, rules, seats, cache)  # a bad spec fails before anything is played
    for rung in ladder:  # and so does an opponent that cannot take its seat (xinxin not built, pyspiel missing):
        probe_agent(rung.spec, rules, seats)  # found at its first game, it would leave a stopped sitting
    manifest: dict[str, Any] = {"benchmark": "hearts-bench", "suite": suite, "tier": tier, "preset": preset,
                                "format": format, "agent": spec, "isolation": isolation,
                                "move_time_limit": move_time_limit}
    if track != "ladder":  # a ladder run's manifest stays as it was, so runs begun before tracks resume
        manifest["track"] = track
    if isolation == "process" and AgentSpec.parse(spec).scheme == "remote":
        manifest["seat"] = REMOTE_SEAT
    elif isolation == "process":
        manifest["seat"] = describe_limits(sandbox)
    if weights is not None:  # resuming with other weights behind the same spec would mix two agents
        manifest["agent_weights_sha256"] = weights["sha256"]
    if holdout is not None:
        manifest["holdout"] = holdout
    seed, agent_seed = (the_suite.seed(preset), None) if holdout is None else holdout_seeds(holdout)
    published = the_suite.fingerprints.get((preset, tier)) if holdout is None else None
    if published is not None and deals_fingerprint(rules, seed, deals) != published:
        raise BenchmarkCheckFailed(f"self-check failed: this installation deals other cards than suite {suite} "
                                   f"({preset}, {tier}) published (a NumPy release that changed its random streams?); "
                                   f"its results would not be comparable")
    with owning(folder_path, folder=True):  # a second command writing this run is refused (arena.owner)
        if extend:
            _extend(folder_path, manifest, the_suite, agent_secret)
        folder = _prepare(folder_path, resume or extend, manifest, agent_secret)
        secret = _agent_secret(folder, agent_secret)
        seats = replace(seats, secret=secret, cache=cache)
        sitting = Sittings(folder)
        if holdout is not None:
            deals_check = "held-out deals, each played once"
        else:
            deals_check = ("the deals' fingerprint is the suite's" if published is not None
                           else "no published fingerprint")
        check_ladder(the_suite, preset, ladder)
        check = run_arena([CHECK_AGENT, CHECK_AGENT], deals=min(CHECK_DEALS, deals), rules=rules, seed=seed, jobs=1,
                          isolation="none", only_seatings=seatings, agent_seed=agent_seed)
        check_totals(check)
        check_even(*per_deal(check, min(CHECK_DEALS, deals)), CHECK_AGENT)

        started = time.time()
        games = format_games(format, deals)
        meter = None if token_budget is None else TokenMeter(token_budget, played, [
            record for rung in ladder if folder is not None and (folder / f"{rung.name}.jsonl").exists()
            for record in read_records(folder / f"{rung.name}.jsonl")])
        figures = {}
        sitting.begin({rung.name: _count(folder, rung.name) for rung in ladder}, tier, backend)
        try:
            with pausable() as pause:  # a first SIGINT/SIGTERM finishes the games in play, then stops the sitting
                for k, rung in enumerate(ladder):
                    if pause.asked:  # between two rungs: nothing in play
                        raise RunPaused(f"paused before the games against {rung.name}; resume continues")
                    if meter is not None and meter.spent_all():
                        raise RunPaused(f"paused before the games against {rung.name} ({meter.said()}); resume "
                                        "with a larger budget continues")
                    if progress:
                        games_of = "one game each" if format == "once" else f"x {len(seatings)} seatings"
                        print(f"[{k + 1}/{len(ladder)}] {spec} against {rung.name}: {deals} deals {games_of}",
                              file=sys.stderr)
                    path = folder / f"{rung.name}.jsonl" if folder is not None else None
                    records = run_arena([played, rung.spec], deals=deals, rules=rules,
                                        seed=rung_seed(format, seed, holdout, rung.name), jobs=jobs, out=path,
                                        resume=path is not None and path.exists(), progress=progress,
                                        isolation="none" if isolation == "none" else "seating",
                                        only_seatings=seatings, agent_seed=agent_seed, move_time_limit=move_time_limit,
                                        seats=seats, games=games, watch=meter, backend=backend,
                                        faults=sitting.faults_of(rung.name))
                    check_totals(records)
                    if failures is not None:
                        failures.add_records(records)
                    figures[rung.name] = {"spec": rung.spec,
                                          **rung_figures(records, deals, opponent_time=track == "reference"),
                                          **({"model": model_figures(records, prices)} if track == "llm" else {})}
        except RunPaused as e:
            sitting.end(public_message(str(e), folder)[:500])  # "paused: ...": no game abandoned
            raise
        except BaseException as e:
            sitting.end(public_message(f"stopped: {type(e).__name__}: {e}", folder)[:500])
            raise
        finally:
            cache_folder.cleanup()
        sitting.end("finished")
        result = {"benchmark": "hearts-bench", "suite": suite, "tier": tier, "preset": preset, "rules": rules.spec(),
                  "format": format, "format_meaning": FORMATS[format], "track": track, "agent": public_spec(spec),
                  "agent_weights": weights,
                  "deals": deals, "deal_set": "suite" if holdout is None else "holdout", "seed": seed,
                  **({} if holdout is None else {"holdout": holdout}),
                  "package_version": __version__, "hardware": hardware(),
                  "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started)),
                  "seconds": round(_earlier_seconds(sitting.summary()[:-1]) + time.time() - started, 1),
                  "isolation": isolation, "move_time_limit": move_time_limit,
                  **({"seat": manifest["seat"]} if "seat" in manifest else {}),
                  "agent_secret": secret, "sittings": sitting.summary(),
                  "checks": {"even": f"{CHECK_AGENT} against itself exactly even on {min(CHECK_DEALS, deals)} deals",
                             "totals": "every deal's points sum to the rules' total",
                             "deals": deals_check,
                             "ladder": ladder_check(the_suite, preset, ladder)},
                  "headline": {"name": HEADLINES[track], **headline(figures)}, "rungs": figures}
        if folder is not None:
            (folder / "result.json").write_text(json.dumps(result, indent=1, allow_nan=False) + "\n")
            (folder / "result.md").write_text(markdown(result) + "\n")
            try:
                plot_ladder(result, folder / "ladder.png")
            except ImportError as e:
                print(f"hearts-env benchmark: no plot ({e})", file=sys.stderr)
        return result


REMOTE_SEAT = {"sandbox": "remote",
               "where": "a program on its own machine that joined the run's seat server (remote:NAME): no sandbox "
                        "of the dealer's holds it, and its code never runs on the dealer's"}
"""What a result says of the agent's seat when it played remotely (``seat``; a local program's: its sandbox's
limits)."""


class TokenMeter:
    """The llm track's token budget, kept by the dealer: the model's tokens in and out over the records of ``played``
    (its spec in them) already written, then each record as it is written (:func:`run_arena`'s ``watch``), which
    returns why the run must pause once the budget is spent."""

    def __init__(self, budget: int, played: str, records: Sequence[dict[str, Any]]):
        self.budget, self.played, self.spent = budget, played, 0
        for record in records:
            self(record)

    def __call__(self, record: dict[str, Any]) -> str | None:
        for seat, spec in enumerate(record["seating"]):
            if spec == self.played:
                notes = record.get("notes", {}).get(str(seat), {})
                self.spent += notes.get("prompt_tokens", 0) + notes.get("completion_tokens", 0)
        return self.said() if self.spent_all() else None

    def spent_all(self) -> bool:
        return self.spent >= self.budget

    def said(self) -> str:
        return f"the token budget is spent: {self.spent:,} of {self.budget:,} tokens"


_MACHINE_FOLDERS = re.compile(r"(?<![\w.~/])(?:/|[A-Za-z]:[\\/])(?:[^\s'\",()\\/]+[\\/])+")
"""The folders of an absolute path (POSIX or Windows) in a spec or a message, up to the file's name."""


def public_spec(spec: str) -> str:
    """``spec`` as a result records it: every absolute path it names reduced to the file's name
    (``apprentice(weights='/home/me/runs/a.npz')`` -> ``apprentice(weights='a.npz')``). A result names no path of
    the machine it ran on; the file itself is named by its name and SHA-256 (``agent_weights``)."""
    return _MACHINE_FOLDERS.sub("", spec)


def public_message(message: str, folder: Path | None) -> str:
    """``message`` as a result records it: the run's folder left out of every path in it, any other absolute
    path reduced to the file's name (as :func:`public_spec`)."""
    if folder is not None:
        message = message.replace(f"{folder}{os.sep}", "")
    return public_spec(message)


def _checked_arguments(spec: str, suite: str, tier: str, preset: str, format: str, jobs: int | None,
                       isolation: str, rungs: Sequence[str] | None, holdout: int | None, agent_secret: int | None,
                       track: str, prices: tuple[float, float] | None, token_budget: int | None,
                       backend: str) -> tuple[Suite, int, Rules, list[int], tuple[Rung, ...]]:
    """:func:`run_benchmark`'s arguments checked, each refusal one line naming what is allowed: the suite, its
    tier's deals, the preset's rules, the format's seatings and the rungs to play."""
    if isolation not in AGENT_ISOLATION:
        raise ValueError(f"isolation={isolation!r} is not valid; valid: {', '.join(AGENT_ISOLATION)}")
    if agent_secret is not None and (isinstance(agent_secret, bool) or not isinstance(agent_secret, int)
                                     or agent_secret < 0):
        raise ValueError(f"agent_secret must be an integer >= 0, got {agent_secret!r}")
    check_jobs(jobs)
    require_statistics()  # a missing scipy would otherwise end the run after its first rung
    the_suite = get_suite(suite)
    rules = the_suite.rules(preset)
    seatings = format_seatings(format)
    deals = format_deals(format, the_suite.deals(tier))
    ladder = the_suite.opponents(track, rungs)
    if holdout is not None and (isinstance(holdout, bool) or not isinstance(holdout, int) or holdout < 0):
        raise ValueError(f"holdout must be an integer >= 0 (the secret the held-out deals are dealt from; "
                         f"draw_holdout() draws one), got {holdout!r}")
    if holdout is not None and format != HELD_OUT_FORMAT:
        raise ValueError(f"a held-out run plays format {HELD_OUT_FORMAT!r}, every deal once; format {format!r} "
                         f"shows the agent each deal {len(seatings)} times against each opponent")
    if holdout is None and format == HELD_OUT_FORMAT:
        raise ValueError(f"format {HELD_OUT_FORMAT!r} is the held-out runs' format: pass holdout (--holdout)")
    parsed = AgentSpec.parse(spec)
    model = parsed.scheme is None and parsed.target == "llm"
    if track == "llm" and not model:
        raise ValueError(f"the llm track benchmarks the llm agent, llm(model=..., base_url=...), not {spec!r}: the "
                         "dealer plays it itself, so nothing but the project's harness runs beside the model")
    if model and track != "llm":
        raise ValueError("a language model is benchmarked on the llm track (--track llm): a seat's sandbox has no "
                         "network, so the dealer makes the model's calls")
    if prices is not None and not (isinstance(prices, tuple | list) and len(prices) == 2 and all(
            isinstance(p, int | float) and not isinstance(p, bool) and p >= 0 for p in prices)):
        raise ValueError(f"prices must be two numbers >= 0 (US dollars per million tokens in and out), got {prices!r}")
    if token_budget is not None and (track != "llm" or isinstance(token_budget, bool)
                                     or not isinstance(token_budget, int) or token_budget < 1):
        raise ValueError(f"token_budget is the llm track's (a whole number of tokens >= 1), got {token_budget!r} on "
                         f"the {track} track")
    if backend == "ray" and track == "llm":
        raise ValueError("the llm track plays on the dealer's own machine (its process holds the key and makes the "
                         "model's calls): backend 'processes'")
    check_backend(backend, [spec])
    if parsed.scheme == "hosted":
        raise ValueError(f"benchmark the agent spec itself, not {spec!r}: the benchmark seats it in a program of "
                         f"its own (isolation='process')")
    if parsed.seated and isolation != "process":
        raise ValueError(f"{spec!r} is a program of its own: it plays with isolation='process' only")
    return the_suite, deals, rules, seatings, ladder


def played_spec(spec: str, isolation: str) -> str:
    """The spec the agent's seats carry in a run's records: a Python spec seated behind the host
    (``hosted:SPEC``) under process isolation; a program's ``seat:COMMAND`` as it is."""
    return spec if isolation != "process" or AgentSpec.parse(spec).seated else f"hosted:{spec}"


def _weights(spec: str, played: str, rules: Any, seats: SeatOptions, cache: str) -> dict[str, str] | None:
    """The weights the agent plays with, and a check that it can play the rules: a seated agent's program
    is started once and asked (the dealer never builds the agent itself); warming up, before any deal of
    the run, it fills ``cache`` with its compiled kernels for the run's programs."""
    if not AgentSpec.parse(played).seated:
        return agent_weights(make_agent(spec))
    probe = seated_agent(played, sandbox=seats.sandbox, cache=cache, fill_cache=True)
    try:
        info = probe.start()
        probe.reset(rules, 0, seed=0)
    except SeatError as e:
        raise ValueError(f"agent {spec!r} cannot take a seat: {e}") from None
    finally:
        probe.close()
    try:
        seal_kernels(cache)  # what the check left there besides compiled kernels reaches no program of the run
    except OSError as e:
        raise ValueError(f"agent {spec!r} cannot take a seat: {e}") from None
    weights = info.get("weights")  # the program's own word: kept as two strings, shown escaped (report.shown)
    if not isinstance(weights, dict) or not all(isinstance(weights.get(k), str) for k in ("file", "sha256")):
        return None
    stated = {"file": weights["file"][:200], "sha256": weights["sha256"][:200]}
    shipped = check_shipped(spec, stated)  # a registered agent's bundled weights: the file its package ships
    return stated if shipped is None else {**stated, "shipped_by": shipped}


def agent_weights(agent: Any) -> dict[str, str] | None:
    """The file name and SHA-256 of the weights ``agent`` plays with (its ``weights_file``), or None."""
    path = getattr(agent, "weights_file", None)
    if path is None:
        return None
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return {"file": Path(path).name, "sha256": digest}


def _prepare(folder: Path | None, resume: bool, manifest: dict[str, Any], agent_secret: int | None) -> Path | None:
    """Create the output folder (and the folders holding it; mode 0700), or check that ``resume`` continues the
    same run."""
    if folder is None:
        if resume:
            raise ValueError("resume needs the output folder of the run to continue (out=, --out)")
        return None
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file; out= (--out) names the folder the run is written to")
    stored = folder / "manifest.json"
    if stored.exists():
        if not resume:
            raise FileExistsError(f"{folder} holds a benchmark run: pass resume=True (--resume) to continue it, "
                                  f"or choose another folder")
        previous = json.loads(stored.read_text())
        kept = previous.pop("agent_secret", None)
        if agent_secret is not None and kept is not None and kept != agent_secret:
            raise ValueError(f"{folder} was played with another agent secret; resume it without --agent-secret")
        if previous != manifest:
            differ = ", ".join(f"{k}: {previous.get(k)!r} there, {manifest.get(k)!r} now"
                               for k in [*manifest, *(k for k in previous if k not in manifest)]
                               if previous.get(k) != manifest.get(k))
            raise ValueError(f"{folder} holds another benchmark run ({differ}); choose another folder")
        return folder
    if folder.exists() and any(folder.iterdir()):
        raise FileExistsError(f"{folder} is not empty and holds no benchmark run; choose another folder")
    folder.parent.mkdir(parents=True, exist_ok=True)  # runs/… in a fresh clone
    folder.mkdir(mode=0o700, exist_ok=True)
    folder.chmod(0o700)
    secret = agent_secret if agent_secret is not None else secrets.randbits(63)
    stored.write_text(json.dumps({**manifest, "agent_secret": secret}, indent=1) + "\n")
    return folder


def _extend(folder: Path | None, manifest: dict[str, Any], suite: Suite, agent_secret: int | None) -> None:
    """Make the run in ``folder`` a run of ``manifest``'s larger tier: check that nothing else differs, rewrite
    its manifest, and set its result files of the smaller tier aside (they no longer describe the folder)."""
    if folder is None or not (folder / "manifest.json").exists():
        raise ValueError(f"extend continues a run on a larger tier: {folder or 'no folder (out=, --out)'} holds no "
                         f"benchmark run")
    stored = folder / "manifest.json"
    previous = json.loads(stored.read_text())
    before, after = previous.get("tier"), manifest["tier"]
    if before == after:
        raise ValueError(f"{folder} is a run of tier {after} already: resume it (resume=True, --resume) to continue")
    if before not in suite.tiers or suite.tiers[before] >= suite.tiers[after]:
        raise ValueError(f"{folder} is a run of tier {before!r}; extend grows a run to a tier of more deals, and "
                         f"{after} has {suite.tiers[after]:,}")
    _prepare(folder, True, {**manifest, "tier": before}, agent_secret)  # raises, naming anything else that differs
    for name in ("result.json", "result.md"):
        if (folder / name).exists():
            (folder / name).rename(folder / name.replace("result.", f"result.{before}."))
    (folder / "ladder.png").unlink(missing_ok=True)
    stored.write_text(json.dumps({**previous, "tier": after}, indent=1) + "\n")


def _agent_secret(folder: Path | None, given: int | None) -> int:
    """The secret of the agent's seeds: the run's (kept in its manifest), the one given, or a new one."""
    if folder is not None:
        return int(json.loads((folder / "manifest.json").read_text())["agent_secret"])
    return given if given is not None else secrets.randbits(63)


def _count(folder: Path | None, rung: str) -> int:
    path = folder / f"{rung}.jsonl" if folder is not None else None
    if path is None or not path.exists():
        return 0
    return sum(1 for line in path.read_bytes().splitlines() if line.strip())


class Sittings:
    """The log of a run's sittings (``sittings.jsonl``): when each began, what was already played, and how it
    ended. A sitting with no end line died with its dealer (killed, power lost); its games in play were
    played again by the next sitting, and the log says so."""

    def __init__(self, folder: Path | None):
        self.path = folder / "sittings.jsonl" if folder is not None else None
        self.entries: list[dict[str, Any]] = []
        if self.path is not None and self.path.exists():
            self.entries = [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    def _write(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        if self.path is not None:
            with self.path.open("a") as f:
                f.write(json.dumps(entry) + "\n")

    def begin(self, played: dict[str, int], tier: str, backend: str = "processes") -> None:
        self._write({"sitting": self.count() + 1, "began": _now(), "hearts_env": __version__, "tier": tier,
                     "played": played, "machine": hardware(), **({"backend": backend} if backend != "processes" else
                                                                 {})})

    def faults_of(self, rung: str) -> Callable[[dict[str, Any]], None]:
        """What writes a dealer's fault in this sitting's games against ``rung`` (a Ray node lost: its unfinished
        games, the one in play among them, were played again on other nodes)."""
        return lambda fault: self._write({"sitting": self.count(), "rung": rung, **fault})

    def end(self, status: str) -> None:
        self._write({"sitting": self.count(), "ended": _now(), "status": status})

    def count(self) -> int:
        return sum(1 for e in self.entries if "began" in e)

    def summary(self) -> list[dict[str, Any]]:
        """Each sitting: when it began and ended (None: it died with its dealer), its status, how many games of
        each rung were already played when it began, the tier it played (a run can be extended), the backend when
        not local processes, and the dealer's faults when it had any (``dealer_faults``)."""
        out: list[dict[str, Any]] = []
        for e in self.entries:
            if "began" in e:
                out.append({"began": e["began"], "ended": None, "status": "died with its dealer",
                            "played_before": e["played"], **({"tier": e["tier"]} if "tier" in e else {}),
                            **({"backend": e["backend"]} if "backend" in e else {})})
            elif "fault" in e and out:
                out[-1].setdefault("dealer_faults", []).append({k: v for k, v in e.items() if k != "sitting"})
            elif out:
                out[-1].update(ended=e["ended"], status=e["status"])
        return out


def _earlier_seconds(sittings: list[dict[str, Any]]) -> float:
    """The wall time of earlier sittings, from their timestamps (a sitting that died has no end: not counted)."""
    def at(stamp: str) -> float:
        return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))

    return float(sum(at(s["ended"]) - at(s["began"]) for s in sittings if s["ended"] is not None))


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def hardware() -> dict[str, Any]:
    """The machine and software a result was measured on (the seconds per decision depend on them)."""
    return {"machine": platform.machine(), "processor": platform.processor() or None, "cpus": os.cpu_count(),
            "system": platform.platform(), "python": platform.python_version(), "numpy": np.__version__}
