"""The versioned benchmark suites: their deals, rules, tiers, formats and ladder of opponents.

A suite is frozen once published: a result says which suite it ran, and two results are comparable
only within one suite, tier, rules preset and format. Changing anything here that alters a deal, an
opponent or a count means a new suite version, never an edit of ``v1``.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass

from hearts_env.arena.game import episode_match, seatings, solo_seatings
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

    def rung(self, name: str) -> Rung:
        for rung in self.ladder:
            if rung.name == name:
                return rung
        raise ValueError(f"suite {self.version} has no opponent {name!r}; its ladder: "
                         f"{', '.join(r.name for r in self.ladder)}")


FORMATS = {"solo": "one agent against three copies of the opponent, in the four rotations",
           "mixed": "the 14 seatings that mix the agent and the opponent (Sturtevant & White 2006)"}


def format_seatings(format: str) -> list[int]:
    """Seating indices (of :func:`hearts_env.arena.seatings` for two specs, the agent first) of a format."""
    if format == "solo":
        return solo_seatings()
    if format == "mixed":
        return list(range(len(seatings(2))))
    raise ValueError(f"format {format!r} is not valid; valid: {', '.join(FORMATS)}")


def deals_fingerprint(rules: Rules, seed: int, count: int) -> str:
    """SHA-256 of episodes ``0..count-1`` as dealt: each one's hands (before passing), pass direction and
    dealer, in order."""
    digest = hashlib.sha256()
    for k in range(count):
        deal = episode_match(rules, seed, k).deal
        digest.update(repr((deal.dealt, deal.pass_direction_name, deal.dealer)).encode())
    return digest.hexdigest()


V1 = Suite(
    version="v1",
    tiers={"smoke": 8, "quick": 200, "full": 2800},
    presets={"standard": "standard(game=deal)", "sturtevant": "sturtevant", "openspiel": "openspiel",
             "dutch": "dutch(game=deal)"},
    ladder=(Rung("random", "random"),
            Rung("greedy", "greedy"),
            Rung("heuristic", "heuristic"),
            Rung("pimc", "pimc(n=300, policy='heuristic', rank='heuristic', passing='heuristic')")),
    fingerprints={
        ("standard", "smoke"): "3c5f47bdd484a28814c09506d7962da4fc341b8ec1e10997f6b240416137276d",
        ("standard", "quick"): "e3d10676f73f6031328629330b05f58783ef2d874bcec59ff9649e817c1dfa21",
        ("standard", "full"): "d45b38bdfc069bc39e840472503cef0007cb9607b2779a64015a5bbed12b3b52",
        ("sturtevant", "smoke"): "7e73608a7e09cc905d99e60c2dcc70e21f664150289cbd10e1807569ffd7b322",
        ("sturtevant", "quick"): "cce1d086baee193ff41216b78a92e89ccce27cea71b46072842b8224771ec35e",
        ("sturtevant", "full"): "a40a7beec204f022937c0e9a0ae9109209e291779df3532a52cae78fdc34244a",
        ("openspiel", "smoke"): "056b59aa55d95cd5c9c6a4bc5938c0f2421b0847cea188ba313065810da89a12",
        ("openspiel", "quick"): "fe953d8e93c0b19b05db691a528a7b5b8b3e3c5d1a644999bbab2dc2b02715aa",
        ("openspiel", "full"): "1af312c2540e5e92cfa213b7549c9a9be573effc6bb8b94f6c8a62326fc644e3",
        ("dutch", "smoke"): "e854b8a7ffd0bc97f3fcbd1794f839cbef048d5f541f5b55ba0878a800be86e0",
        ("dutch", "quick"): "7ee375f15cd8d35cfa55a7c20ba7ea3aad5b8a8cffdd2808c78984545782ad53",
        ("dutch", "full"): "ab1a6c02bf38014caedb4e2a19554c696509b01411791710957dd94aaf547157",
    },
)

SUITES = {"v1": V1}


def get_suite(version: str) -> Suite:
    if version not in SUITES:
        raise ValueError(f"unknown benchmark suite {version!r}; published suites: {', '.join(SUITES)}")
    return SUITES[version]
