"""``hearts-env benchmark verify``: a run's result is what its records make it.

:func:`verify_run` takes a run's folder (or a leaderboard row: its ``result.json`` beside the compact
records :func:`pack_records` wrote) and re-derives everything: every deal re-dealt from the suite and
the deal index, every game replayed through the engine with its recorded cards and points, every
(deal, seating) of the tier played exactly once by the ladder's opponent, every figure of
``result.json`` and the whole of ``result.md`` recomputed from the records, the deals' fingerprint,
the manifest and the sittings. It raises :class:`VerificationFailed` naming the first discrepancy.

With ``ladder_sample`` (all games by default) it also re-derives the ladder's own cards: every card a ladder seat
played is the card that ladder agent plays from that seat's view and its recorded seed
(:mod:`~hearts_env.evaluation.benchmark.ladder_cards`), so a row whose opponents played anything else is named at its
first such card. The reference track's seats (xinxin, OpenSpiel's ISMCTS) are not deterministic from their seeds and
are not replayed.

What it cannot know is whether the agent's own cards were played as they say: a submitter can fabricate a run on
their own machine. That is what a maintainer's re-run on held-out deals catches (docs/benchmark.md,
"Threat model").
"""

from __future__ import annotations

import json
import lzma
import math
from pathlib import Path
from typing import Any

from hearts_env.engine import Deal
from hearts_env.evaluation.arena.game import episode_match, forfeit, moon_attempts, replay_record, seatings
from hearts_env.evaluation.arena.runner import check_record, read_records
from hearts_env.evaluation.benchmark.ladder_cards import first_deviation, sample_games
from hearts_env.evaluation.benchmark.report import markdown, replayed_sittings
from hearts_env.evaluation.benchmark.runner import played_spec, public_spec
from hearts_env.evaluation.benchmark.stats import headline, model_figures, rung_figures
from hearts_env.evaluation.benchmark.suite import (
    HEADLINES,
    HELD_OUT_FORMAT,
    TRACKS,
    deals_fingerprint,
    format_deals,
    format_games,
    get_suite,
    holdout_seeds,
    rung_seed,
)
from hearts_env.rules import make_rules
from hearts_env.text import format_card

PACKED_SUFFIX = ".records.xz"
"""A leaderboard row's records: ``<agent>.records.xz`` beside its ``<agent>.json``."""


class VerificationFailed(ValueError):
    """A run's files disagree with each other or with the suite."""


def pack_records(result: dict[str, Any], records_by_rung: dict[str, list[dict[str, Any]]]) -> bytes:
    """A run's records in the compact form leaderboard rows ship: per game the rung, deal, seating, every
    card in order (hex, one byte each), the error and the seat timings, and what the seats reported (``notes``) and a
    model's ``transcripts`` where there are some; xz-compressed JSON lines. The
    hands, points and moons are not stored: :func:`unpack_records` re-deals and replays them."""
    lines = []
    for rung, records in records_by_rung.items():
        for r in sorted(records, key=lambda r: (r["deal"], r["seating_index"])):
            if len(r["deals"]) != 1:
                raise ValueError("only one-deal episodes pack (the suite's presets are one deal each)")
            error = None if r["error"] is None else {k: r["error"][k] for k in ("seat", "kind", "message")}
            # what the seats reported (xinxin's fallbacks, a model's tokens), then a model's transcripts (llm track)
            transcripts = r["deals"][0].get("transcripts")
            extra = [r.get("notes")] if "notes" in r or transcripts else []
            extra += [transcripts] if transcripts else []
            lines.append(json.dumps([rung, r["deal"], r["seating_index"], bytes(r["deals"][0]["history"]).hex(),
                                     error, r["think_seconds"], r["decisions"], r["slowest_move_seconds"], *extra],
                                    separators=(",", ":")))
    return lzma.compress(("\n".join(lines) + "\n").encode(), preset=9 | lzma.PRESET_EXTREME)


def unpack_records(result: dict[str, Any], data: bytes) -> dict[str, list[dict[str, Any]]]:
    """The arena records of a packed run, rebuilt by dealing each deal again and replaying its cards."""
    rules = make_rules(result["rules"])
    played = _played_spec(result)
    agent_seed = None if result.get("holdout") is None else holdout_seeds(result["holdout"])[1]
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in result["rungs"]}
    for number, line in enumerate(lzma.decompress(data).decode().splitlines(), 1):
        try:
            rung, deal, seating_index, cards, error, think, decisions, slowest, *extra = json.loads(line)
            if len(extra) > 2:
                raise ValueError(f"{len(extra)} fields after the timings, at most 2 (notes, transcripts)")
            notes = extra[0] if extra and extra[0] is not None else None
            transcripts = extra[1] if len(extra) == 2 else None
            history = list(bytes.fromhex(cards))
            specs = [played, result["rungs"][rung]["spec"]]
        except (ValueError, KeyError, TypeError) as e:
            raise VerificationFailed(f"packed records line {number} is malformed ({e})") from None
        seed = rung_seed(result["format"], result["seed"], result.get("holdout"), rung)
        dealt = episode_match(rules, seed, deal).deal
        record: dict[str, Any] = {
            "deal": deal, "seating_index": seating_index, "seating": [specs[i] for i in seatings(2)[seating_index]],
            "seed": seed, **({} if agent_seed is None else {"agent_seed": agent_seed}),
            "rules": result["rules"], "error": error, "think_seconds": think,
            "decisions": decisions, "slowest_move_seconds": slowest, "move_time_limit": result.get("move_time_limit"),
            **({"notes": notes} if notes is not None else {}),
            "deals": [{"hands": list(dealt.dealt), "pass_direction": dealt.pass_direction_name,
                       "dealer": dealt.dealer, "history": history, "points": None,
                       **({"transcripts": transcripts} if transcripts is not None else {})}]}
        try:
            replayed = replay_record(record)
        except (ValueError, IndexError) as e:
            raise VerificationFailed(f"packed records line {number} (rung {rung}, deal {deal}, seating "
                                     f"{seating_index}) does not replay: {e}") from None
        over = replayed.is_over and replayed.points is not None
        record["deals"][0]["points"] = list(replayed.points) if over else None  # type: ignore[arg-type]
        if error is None:
            record["points"], record["winners"] = list(record["deals"][0]["points"] or []), replayed_winners(replayed)
        else:
            record["points"], record["winners"] = forfeit([0, 0, 0, 0], error["seat"], rules.penalty_total)
        record["moons"] = [replayed.moon_shooter] if over and replayed.moon_shooter is not None else []
        record["moon_attempts"] = moon_attempts(replayed) if over else []
        out[rung].append(record)
    return out


def replayed_winners(deal: Any) -> list[int]:
    """The seats with the fewest points of a finished one-deal episode (ties shared)."""
    low = min(deal.points)
    return [s for s in range(4) if deal.points[s] == low]


def _played_spec(result: dict[str, Any]) -> str:
    """The spec the agent's seats carry in the records (:func:`~hearts_env.evaluation.benchmark.runner.played_spec`)."""
    return played_spec(result["agent"], result.get("isolation", "seating"))


def verify_run(path: str | Path, leaderboard: bool = False, ladder_sample: float = 1.0,
               sample_seed: int = 0) -> dict[str, Any]:
    """Check a run (see the module docstring) and return its result; ``leaderboard``: also require what a
    leaderboard row needs — the agent in its own sandboxed program, no sitting that died, stopped with games
    in play (a pause finishes them) or lost a node of its cluster, no agent error.
    ``path``: a run's folder, or a ``result.json`` with its records packed beside it.
    ``ladder_sample``: the share of each ladder rung's games whose ladder cards are replayed (1: all; 0: none),
    drawn by ``sample_seed`` so that anyone can check the same sample."""
    _check_share(ladder_sample)
    path = Path(path)
    result, records = read_run(path)
    check_run(result, records, ladder_sample=ladder_sample, sample_seed=sample_seed)
    md = path / "result.md"
    if path.is_dir() and (not md.exists() or md.read_text() != markdown(result) + "\n"):
        _fail(f"{md} is not the Markdown of {path / 'result.json'}")
    if leaderboard:
        _check_leaderboard(result)
    return result


def read_run(path: str | Path) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """A run's result and its records by rung, from its folder (its manifest checked against the result) or from a
    leaderboard row (the packed records re-dealt and replayed: :func:`unpack_records`)."""
    path = Path(path)
    if path.is_dir():
        result = _load(path / "result.json")
        _check_manifest(result, _load(path / "manifest.json"))
        try:
            return result, {name: list(read_records(path / f"{name}.jsonl")) for name in result.get("rungs", {})}
        except OSError as e:
            return _fail(f"{e.filename}: {e.strerror}")
        except ValueError as e:  # a cut or damaged records file, named with its line
            return _fail(str(e))
    if path.is_file():
        result = _load(path)
        packed = path.with_name(path.name.removesuffix(".json") + PACKED_SUFFIX)
        if not packed.exists():
            _fail(f"{path} has no records beside it ({packed.name}): a result alone cannot be verified")
        return result, unpack_records(result, packed.read_bytes())
    return _fail(f"{path} is neither a run's folder nor a result.json")


def check_run(result: dict[str, Any], records: dict[str, list[dict[str, Any]]], leaderboard: bool = False,
              ladder_sample: float = 1.0, sample_seed: int = 0) -> None:
    """:func:`verify_run`'s checks of a result and records already read (:func:`read_run`), but for a run folder's
    ``result.md``: whoever checks one row several ways reads and replays its records once."""
    _check_share(ladder_sample)
    _check_result(result, records)
    if ladder_sample > 0 and result.get("track", "ladder") == "ladder":
        _check_ladder_cards(result, records, ladder_sample, sample_seed)
    if leaderboard:
        _check_leaderboard(result)


def _check_share(ladder_sample: float) -> None:
    if isinstance(ladder_sample, bool) or not isinstance(ladder_sample, int | float) or not 0 <= ladder_sample <= 1:
        raise ValueError(f"ladder_sample must be a share of the games from 0 to 1, got {ladder_sample!r}")


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(), parse_constant=lambda name: _fail(f"{path} holds {name}: not JSON"))
    except FileNotFoundError:
        _fail(f"{path} does not exist")
    except (ValueError, UnicodeDecodeError) as e:
        _fail(f"{path} is not a JSON file ({e})")
    if not isinstance(data, dict):
        _fail(f"{path} is not a JSON object")
    return data


def _fail(message: str) -> Any:
    raise VerificationFailed(message)


def _check_manifest(result: dict[str, Any], manifest: dict[str, Any]) -> None:
    for key in ("suite", "tier", "preset", "format", "isolation", "move_time_limit", "holdout"):
        if manifest.get(key) != result.get(key):
            _fail(f"the manifest says {key} {manifest.get(key)!r}, the result {result.get(key)!r}")
    # the manifest keeps the spec as given (resume continues it); the result names its files without their folders
    if public_spec(str(manifest.get("agent"))) != public_spec(str(result.get("agent"))):
        _fail(f"the manifest says agent {manifest.get('agent')!r}, the result {result.get('agent')!r}")
    weights = result.get("agent_weights") or {}
    if manifest.get("agent_weights_sha256") != weights.get("sha256"):
        _fail(f"the manifest says the agent's weights have SHA-256 {manifest.get('agent_weights_sha256')!r}, the "
              f"result {weights.get('sha256')!r}")
    if manifest.get("agent_secret") != result.get("agent_secret"):
        _fail("the manifest's agent secret is not the result's")


def _check_result(result: dict[str, Any], records: dict[str, list[dict[str, Any]]]) -> None:
    if result.get("benchmark") != "hearts-bench":
        _fail("not a hearts-bench result")
    try:
        suite = get_suite(result["suite"])
        deals = format_deals(result["format"], suite.deals(result["tier"]))
        rules = suite.rules(result["preset"])
        games_wanted = set(format_games(result["format"], deals))
    except (KeyError, ValueError) as e:
        _fail(f"the result names no published suite, tier, preset or format ({e})")
    if result["deals"] != deals:
        _fail(f"the result has {result['deals']} deals; tier {result['tier']} of suite {suite.version} has {deals} "
              f"in format {result['format']}")
    if result["rules"] != rules.spec():
        _fail(f"the result's rules {result['rules']!r} are not preset {result['preset']}'s {rules.spec()!r}")
    held_out = result.get("holdout")
    if result["format"] == HELD_OUT_FORMAT and held_out is None:
        _fail(f"a run in format {HELD_OUT_FORMAT} is a held-out run, and this one names no secret")
    seed = suite.seed(result["preset"]) if held_out is None else holdout_seeds(held_out)[0]
    if result["seed"] != seed:
        _fail(f"the result's deal seed {result['seed']} is not the suite's {seed}")
    if held_out is None:
        published = suite.fingerprints.get((result["preset"], result["tier"]))
        if published is not None and deals_fingerprint(rules, seed, deals) != published:
            _fail("this installation deals other cards than the suite published")
    played = _played_spec(result)
    track = result.get("track", "ladder")  # results from before tracks are ladder runs
    if track not in TRACKS:
        _fail(f"the result names no track of the benchmark ({track!r})")
    for name, rung in result["rungs"].items():
        try:
            expected = suite.rung(name, track).spec
        except ValueError:
            _fail(f"the result has a rung {name!r} that suite {suite.version}'s {track} track has not")
        if rung["spec"] != expected:
            _fail(f"rung {name} played {rung['spec']!r}, not the suite's {expected!r}")
        games = records.get(name, [])
        _check_games(f"rung {name}", games, [played, rung["spec"]],
                     rung_seed(result["format"], result["seed"], held_out, name), result, games_wanted)
        figures = {"spec": rung["spec"], **rung_figures(games, deals, opponent_time=track == "reference")}
        if track == "llm":  # the model's counts, from the records' notes, at the prices the result states
            stated = (rung.get("model") or {}).get("prices_usd_per_million_tokens")
            figures["model"] = model_figures(games, None if stated is None else (stated["input"], stated["output"]))
            for r in games:
                _check_transcripts(f"rung {name}", r, played)
        for figure, value in figures.items():
            if not _same(rung.get(figure), value):
                _fail(f"rung {name}: {figure} is {rung.get(figure)!r:.80} in the result, {value!r:.80} from the "
                      f"records")
        extra = sorted(set(rung) - set(figures))
        if extra:
            _fail(f"rung {name}: the result has figures the records do not make ({', '.join(extra)})")
    expected_headline = {"name": HEADLINES[track], **headline(result["rungs"])}
    if not _same(result["headline"], expected_headline):
        _fail(f"the headline {result['headline']!r:.80} is not the rungs' {expected_headline!r:.80}")


def _check_transcripts(what: str, record: dict[str, Any], played: str) -> None:
    """In a game of the llm track, the model's transcript of each deal is the cards its seat played, in order: every
    card read from its answers was played, and a decision that read none ended the game as that seat's error."""
    rules = make_rules(record["rules"])
    for k, deal in enumerate(record["deals"]):
        for seat, spec in enumerate(record["seating"]):
            if spec != played:
                continue
            decisions = deal.get("transcripts", {}).get(str(seat))
            if decisions is None:
                _fail(f"{what}: deal {record['deal']} seating {record['seating_index']} has no transcript of seat "
                      f"{seat}, the model's")
            replay = Deal.from_hands(rules, deal["hands"], pass_direction=deal["pass_direction"],
                                     dealer=deal["dealer"])
            cards = []
            for card in deal["history"]:
                if replay.current == seat:
                    cards.append(format_card(card, rules))
                replay.apply(card)
            read = [d.get("card") for d in decisions]
            unread = read[len(cards):]
            error = record["error"]
            if read[:len(cards)] != cards or len(unread) > 1 or (unread and not (
                    unread[0] is None and k == len(record["deals"]) - 1 and error and error["seat"] == seat)):
                _fail(f"{what}: deal {record['deal']} seating {record['seating_index']}: seat {seat}'s transcript "
                      f"reads {read[:6]}... but the seat played {cards[:6]}...")


def _check_games(what: str, games: list[dict[str, Any]], specs: list[str], seed: int, result: dict[str, Any],
                 wanted: set[tuple[int, int]]) -> None:
    """Each of ``games`` seats ``specs`` as its seating says, was played with ``seed`` and the run's time limit and
    replays through the engine, and together they are the ``wanted`` (deal, seating) games, each once."""
    seen = set()
    for r in games:
        key = (r["deal"], r["seating_index"])
        if key in seen:
            _fail(f"{what}: deal {key[0]} seating {key[1]} is recorded twice")
        seen.add(key)
        seated = [public_spec(spec) for spec in r["seating"]]  # a file by its name in the result (public_spec)
        if seated != [public_spec(specs[i]) for i in seatings(2)[r["seating_index"]]]:
            _fail(f"{what}: deal {key[0]} seating {key[1]} seats {r['seating']}, not "
                  f"{' and '.join(dict.fromkeys(specs))}")
        if r["seed"] != seed or r.get("move_time_limit") != result.get("move_time_limit"):
            _fail(f"{what}: deal {key[0]} seating {key[1]} was played with another seed or time limit")
        try:
            check_record(r)
        except ValueError as e:
            _fail(f"{what}: {e}")
    if seen != wanted:
        missing = sorted(wanted - seen)[:3]
        extra = sorted(seen - wanted)[:3]
        _fail(f"{what}: the records are not the tier's games (missing {missing}, extra {extra})")


def _check_ladder_cards(result: dict[str, Any], records: dict[str, list[dict[str, Any]]], sample: float,
                        seed: int) -> None:
    """Every sampled game's ladder cards are the ladder agent's (:mod:`.ladder_cards`)."""
    for name, rung in result["rungs"].items():
        games = sample_games(sorted(records[name], key=lambda r: (r["deal"], r["seating_index"])), sample, seed)
        found = first_deviation((rung["spec"], record) for record in games)
        if found is not None:
            _fail(f"rung {name}: the ladder did not play these cards: {found}")


def _same(a: Any, b: Any) -> bool:
    """Equal, floats up to rounding (another NumPy or SciPy may round a bootstrap quantile or a p-value's last
    digits differently; a figure anybody edited differs by far more)."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, int | float) and isinstance(b, int | float) and math.isclose(a, b, rel_tol=1e-9,
                                                                                         abs_tol=1e-12)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _check_leaderboard(result: dict[str, Any]) -> None:
    if result.get("isolation") != "process" or result.get("seat", {}).get("sandbox") != "bwrap":
        _fail(f"a leaderboard row needs the agent in its own sandboxed program (isolation 'process', sandbox "
              f"'bwrap'); this run: isolation {result.get('isolation')!r}, sandbox "
              f"{result.get('seat', {}).get('sandbox')!r}")
    if result.get("deal_set") == "holdout" and result.get("format") != HELD_OUT_FORMAT:
        _fail(f"a run on held-out deals in format {result.get('format')!r} is not a leaderboard row: it showed the "
              f"agent each deal more than once (a held-out row plays format {HELD_OUT_FORMAT})")
    died, faulted, stopped = replayed_sittings(result)
    if died:
        _fail(f"{len(died)} sitting(s) died with the dealer (first began {died[0]['began']}): their games in play "
              f"were played again")
    if faulted:
        fault = faulted[0]["dealer_faults"][0]
        _fail(f"{len(faulted)} sitting(s) lost a node of their cluster (first at {fault.get('at')}, "
              f"{len(fault.get('games', []))} game(s) against {fault.get('rung')}): the game in play was played "
              f"again on another node")
    if stopped:
        _fail(f"{len(stopped)} sitting(s) stopped without finishing their games in play (first: began "
              f"{stopped[0]['began']}, {stopped[0]['status']!r}): those games were played again; a pause (one SIGINT "
              f"or SIGTERM) finishes them")
    errors = {name: r["errors"] for name, r in result["rungs"].items() if r["errors"]}
    if errors:
        _fail(f"the agent's errors ended games: {errors}")
