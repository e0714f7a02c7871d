"""The versioned benchmark suites: their deals, rules, tiers, formats and ladder of opponents.

A suite is frozen once published: a result says which suite it ran, and two results are comparable
only within one suite, tier, rules preset and format. Changing anything here that alters a deal, an
opponent or a count means a new suite version, never an edit of ``v1``.
"""

from __future__ import annotations

import hashlib
import secrets
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from hearts_env.evaluation.arena.game import episode_match, play_game, seatings, solo_seatings
from hearts_env.rules import Rules, make_rules


@dataclass(frozen=True)
class Rung:
    """One opponent of the ladder: a short name and the agent spec it stands for, every budget spelled out
    so that a later change of an agent's defaults cannot change the suite."""

    name: str
    spec: str


@dataclass(frozen=True)
class Suite:
    version: str
    tiers: dict[str, int]
    """Deals per tier (multiples of four: every pass direction of the rotation equally often)."""
    presets: dict[str, str]
    """Rules preset name → the rules spec played (one-deal episodes)."""
    ladder: tuple[Rung, ...]
    fingerprints: dict[tuple[str, str], str]
    """(preset, tier) → SHA-256 of the tier's dealt hands: checked before every run, so a machine or a
    NumPy release that dealt other cards is refused instead of producing an incomparable result."""
    ladder_fingerprints: dict[tuple[str, str], str | None]
    """(preset, rung name) → SHA-256 of every card the rung plays as four copies of itself on the first
    :data:`LADDER_CHECK_DEALS` deals (:func:`ladder_fingerprint`): checked before every run, so an
    opponent whose play changed (a new release of its code, a compiled backend that disagrees with the
    NumPy one) is refused instead of making the ladder another one under the same name. None: an opponent
    with no fingerprint (:data:`UNCHECKED` says why), checked by nothing."""
    references: tuple[Rung, ...] = ()
    """The reference track's opponents (``track="reference"``): programs from outside hearts-env that the
    literature measures against, each as three seats against the agent."""
    reference_default: tuple[str, ...] = ()
    """The reference opponents a reference run plays unless named (the others are slower by far)."""

    def rules(self, preset: str) -> Rules:
        if preset not in self.presets:
            raise ValueError(f"suite {self.version} has no rules preset {preset!r}; it has: {', '.join(self.presets)}")
        return make_rules(self.presets[preset])

    def seed(self, preset: str) -> int:
        """The deals' seed: a pure function of the suite version and the rules preset."""
        return zlib.crc32(f"hearts-bench/{self.version}/{preset}".encode())

    def deals(self, tier: str) -> int:
        if tier not in self.tiers:
            raise ValueError(f"suite {self.version} has no tier {tier!r}; it has: {', '.join(self.tiers)}")
        return self.tiers[tier]

    def rung(self, name: str, track: str = "ladder") -> Rung:
        for rung in self.ladder if track in LADDER_TRACKS else self.references:
            if rung.name == name:
                return rung
        raise ValueError(f"suite {self.version} has no opponent {name!r} in its {track} track; its opponents: "
                         f"{', '.join(r.name for r in self.opponents(track, everyone=True))}")

    def opponents(self, track: str, names: Sequence[str] | None = None, everyone: bool = False) -> tuple[Rung, ...]:
        """The opponents a run of ``track`` plays: the ``names`` given, else the track's default ones (the whole
        ladder; the references of :attr:`reference_default`), or with ``everyone`` all of the track's."""
        if track not in TRACKS:
            raise ValueError(f"track {track!r} is not valid; valid: {', '.join(TRACKS)}")
        if names is not None:
            return tuple(self.rung(name, track) for name in names)
        if track in LADDER_TRACKS:
            return self.ladder
        return self.references if everyone else tuple(self.rung(name, track) for name in self.reference_default)


TRACKS = {"ladder": "the suite's ladder of bundled opponents, from random play to pimc",
          "reference": "the programs the literature measures against (xinxin, OpenSpiel's ISMCTS), each as three "
                       "seats against the agent",
          "llm": "a language model (the llm agent) against the ladder, played by the dealer itself: the prompt and "
                 "the parser are this project's code, the model behind its endpoint the only thing under test, "
                 "every decision's prompt, answers and tokens in the records (docs/llm.md)"}

LADDER_TRACKS = ("ladder", "llm")
"""Tracks whose opponents are the ladder's."""

HEADLINES = {"ladder": "ladder margin", "reference": "reference margin", "llm": "ladder margin"}
"""The headline of each track: the agent's margin per deal averaged over the opponents it played."""

UNCHECKED = {"openspiel-ismcts": "no seed repeats its play: OpenSpiel's ISMCTS breaks ties between equally valued "
                                 "moves in the order of an Abseil hash map, which Abseil salts per table",
             "xinxin-literature": "the program of xinxin, whose fingerprint checks it; its own would take minutes "
                                  "(1.3 s a decision)",
             "xinxin-upstream": "the program of xinxin, whose fingerprint checks it; its own would take most of a "
                                "minute (0.2 s a decision)"}
"""Opponents with no fingerprint, and why."""

XINXIN_OPENSPIEL = "hosted:xinxin(setting='openspiel', uct_num_runs=50, uct_c_val=0.4, iimc_num_worlds=20, " \
                   "playout_epsilon=0.0, deadline=4.0)"
XINXIN_LITERATURE = "hosted:xinxin(setting='literature', uct_num_runs=2000, uct_c_val=0.4, iimc_num_worlds=50, " \
                    "playout_epsilon=0.0, deadline=30.0)"
XINXIN_UPSTREAM = "hosted:xinxin(setting='upstream', uct_num_runs=333, uct_c_val=0.4, iimc_num_worlds=30, " \
                  "playout_epsilon=0.1, deadline=10.0)"

FORMATS = {"solo": "one agent against three copies of the opponent, in the four rotations",
           "mixed": "the 14 seatings that mix the agent and the opponent (Sturtevant & White 2006)",
           "once": "every game a new deal: the agent in one seat against three copies of the opponent, its seat and "
                   "the pass direction cycling (each pair once in 16 deals)"}

HELD_OUT_FORMAT = "once"
"""The format of a held-out run, and the only one: no deal reaches the agent twice."""
ONCE_GAMES_PER_DEAL = 5
"""A ``once`` run of a tier plays this many games per rung for each of the tier's deals, every one a new deal: 1.25
times the solo format's four rotations, for about the solo tier's interval. Measured on the 16 quick rows that ship
their records (``python lab/measurements/heldout_variance.py``): one game per deal needs 0.75 to 1.70 times the solo
format's games for the same 95% interval, the strongest agents about 1.2."""


def format_seatings(format: str) -> list[int]:
    """Seating indices (of :func:`hearts_env.evaluation.arena.seatings` for two specs, the agent first) of a format
    (``once`` plays one of them per deal: :func:`once_games`)."""
    if format in ("solo", "once"):
        return solo_seatings()
    if format == "mixed":
        return list(range(len(seatings(2))))
    raise ValueError(f"format {format!r} is not valid; valid: {', '.join(FORMATS)}")


def format_deals(format: str, tier_deals: int) -> int:
    """The deals a run of ``format`` plays per rung on a tier of ``tier_deals``: the tier's for ``solo`` and
    ``mixed``, :data:`ONCE_GAMES_PER_DEAL` times as many for ``once`` (each played once)."""
    return tier_deals * ONCE_GAMES_PER_DEAL if format == "once" else tier_deals


def format_games(format: str, deals: int) -> list[tuple[int, int]]:
    """The (deal, seating) games of a rung of ``format`` over ``deals`` deals: every seating of every deal, or for
    ``once`` one seating per deal — the agent's seat ``(k // 4) mod 4`` on deal ``k``, whose pass direction is
    ``k mod 4``, so every 16 deals hold each pair of seat and direction once."""
    seatings_of = format_seatings(format)
    if format == "once":
        return [(k, seatings_of[(k // 4) % len(seatings_of)]) for k in range(deals)]
    return [(k, s) for k in range(deals) for s in seatings_of]


LADDER_CHECK_DEALS = 4
"""Deals of the ladder check: one of each pass direction."""


def ladder_fingerprint(spec: str, rules: Rules, seed: int, count: int = LADDER_CHECK_DEALS) -> str:
    """SHA-256 of the passes and plays of four copies of agent ``spec`` on episodes ``0..count-1``, played
    as the arena plays them (the same agent seeds), in order."""
    digest = hashlib.sha256()
    for k in range(count):
        record = play_game([spec], rules, seed, k, 0)
        if record["error"] is not None:
            raise RuntimeError(f"{spec} failed on deal {k} of the ladder check: {record['error']}")
        digest.update(repr([d["history"] for d in record["deals"]]).encode())
    return digest.hexdigest()


def deals_fingerprint(rules: Rules, seed: int, count: int) -> str:
    """SHA-256 of episodes ``0..count-1`` as dealt: each one's hands (before passing), pass direction and
    dealer, in order."""
    digest = hashlib.sha256()
    for k in range(count):
        deal = episode_match(rules, seed, k).deal
        digest.update(repr((deal.dealt, deal.pass_direction_name, deal.dealer)).encode())
    return digest.hexdigest()


def holdout_seeds(secret: int) -> tuple[int, int]:
    """The deals' seed and the agents' seed of a run on held-out deals: two SHA-256 digests of ``secret``.
    Agents see their seed (the arena hands it to ``reset``), and from it cannot get the deals' seed
    without guessing ``secret``: draw one with :func:`draw_holdout`."""
    def digest(purpose: str) -> int:
        text = f"hearts-bench/holdout/{purpose}/{secret}".encode()
        return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
    return digest("deals"), digest("agents")


def rung_deals_seed(secret: int, rung: str) -> int:
    """The deals' seed of one rung of a held-out run in the ``once`` format: a SHA-256 digest of ``secret`` and the
    rung's name, so every rung deals other cards and no deal reaches the agent twice."""
    text = f"hearts-bench/holdout/deals/{rung}/{secret}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def rung_seed(format: str, seed: int, holdout: int | None, rung: str) -> int:
    """The deals' seed of ``rung``'s games in a run of ``format``: the run's ``seed``, or in the ``once`` format the
    rung's own from the run's secret (:func:`rung_deals_seed`)."""
    return rung_deals_seed(holdout, rung) if format == HELD_OUT_FORMAT and holdout is not None else seed


def draw_holdout() -> int:
    """A secret for :func:`holdout_seeds` nobody can guess: 64 bits from the operating system."""
    return secrets.randbits(64)


V1 = Suite(
    version="v1",
    tiers={"smoke": 8, "llm": 24, "short": 100, "quick": 200, "extended": 300, "mid": 1000, "full": 2800},
    # llm: 24 deals (added 2026-12-07 for the llm track: 96 games a rung in the four rotations, about 1,500 paid
    # decisions of a model; a multiple of four, like every tier, so each pass direction comes equally often)
    # mid and short: added for the reference track (1,000 deals; 100 for xinxin's literature setting, 28 s a game);
    # extended: 300 deals, the fewest a claim against xinxin's literature setting rests on (about 3 h of xinxin)
    presets={"standard": "standard(game=deal)", "sturtevant": "sturtevant", "openspiel": "openspiel",
             "dutch": "dutch(game=deal)"},
    ladder=(Rung("random", "random"),
            Rung("greedy", "greedy"),
            Rung("heuristic", "heuristic"),
            Rung("pimc", "pimc(n=300, policy='heuristic', rank='heuristic', passing='heuristic')")),
    references=(Rung("xinxin", XINXIN_OPENSPIEL),
                Rung("openspiel-ismcts", "openspiel-ismcts(simulations=1000, uct_c=2.0, rollouts=1)"),
                Rung("xinxin-literature", XINXIN_LITERATURE),
                Rung("xinxin-upstream", XINXIN_UPSTREAM)),
    reference_default=("xinxin", "openspiel-ismcts"),
    fingerprints={
        ("standard", "smoke"): "3c5f47bdd484a28814c09506d7962da4fc341b8ec1e10997f6b240416137276d",
        ("standard", "llm"): "9733e9d2e54fca43c785a2b84117950a050662b1d644012608a3508744af7c5c",
        ("standard", "short"): "73dae460cc340892dfadf75dd7d7026aa8e49af04fb2109e75b69a3696d3fdf7",
        ("standard", "quick"): "e3d10676f73f6031328629330b05f58783ef2d874bcec59ff9649e817c1dfa21",
        ("standard", "extended"): "c51621077ff2bb6f16fe359dd8faacc080d8fb9e9e244cdeeac1451d04ae1f2a",
        ("standard", "mid"): "f5a303069ea2a577cb798a51e6baf145bbb0f64be100ca566a6dd7da6b75a0d4",
        ("standard", "full"): "d45b38bdfc069bc39e840472503cef0007cb9607b2779a64015a5bbed12b3b52",
        ("sturtevant", "smoke"): "7e73608a7e09cc905d99e60c2dcc70e21f664150289cbd10e1807569ffd7b322",
        ("sturtevant", "llm"): "2cce2864aa003c72e21c4130c54ccb3184192f34545bfa59ec1d2214a6ea87a1",
        ("sturtevant", "short"): "34b0449c4977dd72dd3d6c799358e4fd86d40d703a94ca60da54c3ed25661939",
        ("sturtevant", "quick"): "cce1d086baee193ff41216b78a92e89ccce27cea71b46072842b8224771ec35e",
        ("sturtevant", "extended"): "a9fcbbe170c1b46ddea44c44c960d7c995d4cedfc9b78325b8e78244aff80728",
        ("sturtevant", "mid"): "8999f2a4bd1477d0e518bb35f5a136fc405f2568b010ae57274754ce21a666ef",
        ("sturtevant", "full"): "a40a7beec204f022937c0e9a0ae9109209e291779df3532a52cae78fdc34244a",
        ("openspiel", "smoke"): "056b59aa55d95cd5c9c6a4bc5938c0f2421b0847cea188ba313065810da89a12",
        ("openspiel", "llm"): "74c3ef8ca6ce944259d24d1e76b509f0cd28ffa7ab4d4295cf05685e7e72b60e",
        ("openspiel", "short"): "1a092c38ef44a7bd9b2431f1c3aed67848a0bcff6f0f313e662aac1c03e5e5bf",
        ("openspiel", "quick"): "fe953d8e93c0b19b05db691a528a7b5b8b3e3c5d1a644999bbab2dc2b02715aa",
        ("openspiel", "extended"): "e10c78253d2a1ba7ac00805d55a64aba0ed2267fd8a0bb94dc5f579e3cd92db7",
        ("openspiel", "mid"): "48a0f4b70e06d930e55d37d3ca374f4ee7bcdcfad0721db6a4298d1187e904ab",
        ("openspiel", "full"): "1af312c2540e5e92cfa213b7549c9a9be573effc6bb8b94f6c8a62326fc644e3",
        ("dutch", "smoke"): "e854b8a7ffd0bc97f3fcbd1794f839cbef048d5f541f5b55ba0878a800be86e0",
        ("dutch", "llm"): "3995a28ac86069e9a537e17fe00bd18d68b283a956df3b57fe0cc9bd29cd242c",
        ("dutch", "short"): "f4add0264715d0d6d0d346b092a59ad5b135053a3d24912c9e4fce786c0b4262",
        ("dutch", "quick"): "7ee375f15cd8d35cfa55a7c20ba7ea3aad5b8a8cffdd2808c78984545782ad53",
        ("dutch", "extended"): "57565096e48d68412650a97ea4f1b753990cdc3af2f2ee34cb4a9c6646540c52",
        ("dutch", "mid"): "19fa8d7b4f8f3ad431625f66e6658b7062f6eb156cb65496b04b685e4756eb61",
        ("dutch", "full"): "ab1a6c02bf38014caedb4e2a19554c696509b01411791710957dd94aaf547157",
    },
    ladder_fingerprints={
        ("standard", "random"): "11683d7e438c4211ef81975d6d5299116099ae2587a4f44a71f90fedd7bc7eb7",
        ("standard", "greedy"): "b3a32533ed4c6bb98b721cf1d19e2ca875ac2f6a8b1aa5a0e4679022a531aad2",
        ("standard", "heuristic"): "10279af4fd934c20c7dc4ad75e180d3a43812bf20bbf1b7f852893a9340a9e36",
        ("standard", "pimc"): "a283772c0f0a54f5dbca7a73c06ddb44fa702f4ad9287c0ed0e7771b9b772079",
        ("sturtevant", "random"): "670464e2dcf04a3b366c82607c784b99665ca9d5b1a72712dbe52851f1f8388f",
        ("sturtevant", "greedy"): "65ca3e6fc12bf8ea458bdae5abce8feb1a368d35aaf9842e5082301b66932deb",
        ("sturtevant", "heuristic"): "185901fdedecf19f6d22218e9262636c79c7324250e974359a081b92f721ecc7",
        ("sturtevant", "pimc"): "aa50cb83d47df93ae1f59549ff30f44d35e9d63efb71a1276b31d5c79fd3786b",
        ("openspiel", "random"): "4a53b5dbe9d7554e81c72bf24981a439f66a4beb892a87a940ddab57a697c488",
        ("openspiel", "greedy"): "fe213a6c60426e854b24d003d574bd42024ce13f67addf16121c80c71552bd13",
        ("openspiel", "heuristic"): "a11bb9d4d37f3871f2d2a96289fb7f80f35fa28a5484244038494a0adde74903",
        ("openspiel", "pimc"): "b785b4797b8d1149384a4ac0a8e59a91bf0e1b6dad50b9bd5f280de6ff2ad73d",
        ("dutch", "random"): "1d3287137cc9575916950c54505e00dc6c60e0e0d63184a5ab4d528cc2f1b8a9",
        ("dutch", "greedy"): "c39fea0477aa171b855ff793f855cdd915f1d9511685e058fa3e6d1b9304cf4e",
        ("dutch", "heuristic"): "26bc2adab9260b5d793eeb420455ee2d4ba79c8287edd67d4a4974f2ca110352",
        ("dutch", "pimc"): "ea1363cf37c82b6bc2ff137cdc2ea6cd9e7f8121624dc2aac0f497a7a0ffc23d",
        ("openspiel", "xinxin"): "482d0ac206eabc1cb326dee397889253829431ae6439b2271beefec3b10306cd",
        ("standard", "xinxin"): "a417d4d5c1dcf3906f6eacb3a1c6fe974370caec5e38d5275894365f69b01927",
        ("openspiel", "xinxin-literature"): None,
        ("standard", "xinxin-literature"): None,
        ("openspiel", "xinxin-upstream"): None,
        ("standard", "xinxin-upstream"): None,
        ("openspiel", "openspiel-ismcts"): None,
        ("standard", "openspiel-ismcts"): None,
    },
)

SUITES = {"v1": V1}


def get_suite(version: str) -> Suite:
    if version not in SUITES:
        raise ValueError(f"unknown benchmark suite {version!r}; published suites: {', '.join(SUITES)}")
    return SUITES[version]
