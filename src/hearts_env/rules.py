"""Rules: one frozen, validated object naming every option, plus named presets.

>>> from hearts_env.rules import make_rules
>>> r = make_rules("standard(jd_bonus=true, target=50)")
>>> r.jd_bonus, r.target
(True, 50)
>>> make_rules("openspiel", pass_count=2).pass_count
2

Every option, its meaning and the source of every preset are documented in docs/rules.md.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from hearts_env.cards import DECKS, Deck, get_deck

PASS_OFFSETS: dict[str, int] = {"hold": 0, "left": 1, "across": 2, "right": 3}
"""Seat ``s`` passes to seat ``(s + offset) % 4``; seats play in order 0, 1, 2, 3."""
PASS_NAMES: dict[int, str] = {v: k for k, v in PASS_OFFSETS.items()}
ROTATION = ("left", "right", "across", "hold")
PASSING_KEYWORDS = ("rotate", "none", "random")
OPENING_LEADS = ("lowest_club", "left_of_dealer")
MOON_MODES = ("off", "add_to_others", "subtract_from_shooter", "shooter_choice")
GAME_MODES = ("deal", "match")
MAX_POINTS = 10_000
SINGLE_CARD_PENALTIES: dict[str, str] = {"queen_of_spades_points": "QS", "jack_of_clubs_points": "JC",
                                         "king_of_spades_points": "KS", "ace_of_spades_points": "AS"}
"""Every ``Rules`` field that puts a penalty on one card, and that card: the point tables, the penalty
total, the moon, the first-trick bar, the kernels and OpenSpiel's refusals all derive from this."""
"""Upper bound of every point value and of ``target``: a game's scores then stay far inside the
batched engine's int64 and exact in float32 rewards."""


class RulesError(ValueError):
    """An unknown option, a bad value, or an inconsistent combination of options."""


@dataclass(frozen=True)
class Rules:
    """Every rule option of hearts-env. Build with :func:`make_rules` or ``Rules(...)``.

    Defaults are OpenSpiel's flag defaults with the standard preset's game (passing rotation, game
    to 100); the ``standard`` preset differs only in ``qs_breaks_hearts=False``. Instances are
    immutable and validated on creation.
    """

    deck: str = "standard"
    """``"standard"`` (52 cards, 2…A) or ``"dutch"`` (32 cards, 7…A)."""
    heart_points: int = 1
    """Penalty for each heart taken."""
    queen_of_spades_points: int = 13
    """Penalty for taking Q♠ (5 in the Dutch rules)."""
    jack_of_clubs_points: int = 0
    """Penalty for taking J♣ (2 in the Dutch rules)."""
    king_of_spades_points: int = 0
    """Penalty for taking K♠ (Black Maria: 10)."""
    ace_of_spades_points: int = 0
    """Penalty for taking A♠ (Black Maria: 7)."""
    jd_bonus: bool = False
    """OpenSpiel's ``jd_bonus``: taking J♦ scores ``-jd_bonus_points``."""
    jd_bonus_points: int = 10
    """Size of the J♦ bonus (OpenSpiel: 10)."""
    passing: str = "rotate"
    """``"rotate"`` (left, right, across, hold, repeating), a fixed direction (``"left"``,
    ``"right"``, ``"across"``), ``"none"``, ``"random"`` (a uniform draw over left, across,
    right and hold each deal, as OpenSpiel does), or a comma-separated schedule such as
    ``"left,right"``."""
    pass_count: int = 3
    """Cards each seat passes when a deal has passing."""
    opening_lead: str = "lowest_club"
    """``"lowest_club"``: the holder of the deck's lowest club (2♣, or 7♣ in the Dutch deck)
    leads it to the first trick; ``"left_of_dealer"``: the seat left of the dealer leads any
    card the leading rules allow."""
    no_pts_on_first_trick: bool = True
    """No penalty card (heart, Q♠, a scoring J♣, K♠ or A♠) on the first trick unless the hand has nothing else."""
    can_lead_any_club: bool = False
    """With ``opening_lead="lowest_club"``: the opening leader may lead any club."""
    avoid_all_tricks_bonus: bool = False
    """A seat that took no trick scores ``-avoid_all_tricks_points`` (not on a moon deal)."""
    avoid_all_tricks_points: int = 5
    """Size of the avoid-all-tricks bonus (OpenSpiel: 5)."""
    must_break_hearts: bool = True
    """Hearts may not be led until broken (unless the leader holds nothing else)."""
    qs_breaks_hearts: bool = True
    """Playing Q♠ breaks hearts."""
    can_lead_hearts_instead_of_qs: bool = False
    """A leader holding only Q♠ and unbroken hearts may lead a heart."""
    moon: str = "add_to_others"
    """Taking every penalty card: ``"off"`` (no effect), ``"add_to_others"`` (the shooter scores
    0, every other seat +N), ``"subtract_from_shooter"`` (the shooter scores −N, others 0), or
    ``"shooter_choice"`` (whichever is better for the shooter). N is the deal's penalty total."""
    game: str = "match"
    """``"deal"``: an episode is one deal; ``"match"``: deals until a seat reaches ``target``."""
    target: int = 100
    """With ``game="match"``: the game ends when a seat reaches this score."""
    preset: str | None = field(default=None, compare=False)
    """The preset these rules were built from, if any (informational)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "preset":
                continue
            expected = _FIELD_TYPES[f.name]
            if expected is bool and not isinstance(value, bool):
                raise RulesError(f"rule option {f.name!r} must be true or false, got {value!r}")
            if expected is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise RulesError(f"rule option {f.name!r} must be an integer, got {value!r}")
            if expected is str and not isinstance(value, str):
                raise RulesError(f"rule option {f.name!r} must be a string, got {value!r}")
        if self.deck not in DECKS:
            raise RulesError(f"deck={self.deck!r} is not valid; valid decks: {', '.join(DECKS)}")
        normalized = _normalize_passing(self.passing)
        object.__setattr__(self, "passing", normalized)
        hand = self.deck_obj.hand_size
        if self.has_passing and not 1 <= self.pass_count <= hand:
            raise RulesError(f"pass_count={self.pass_count} is not valid; use 1..{hand}, or passing='none'")
        if self.opening_lead not in OPENING_LEADS:
            raise RulesError(f"opening_lead={self.opening_lead!r} is not valid; valid values: "
                             f"{', '.join(OPENING_LEADS)} (for 'any club' set can_lead_any_club=true)")
        if self.can_lead_any_club and self.opening_lead != "lowest_club":
            raise RulesError("can_lead_any_club=true needs opening_lead='lowest_club'")
        if self.moon not in MOON_MODES:
            raise RulesError(f"moon={self.moon!r} is not valid; valid values: {', '.join(MOON_MODES)}")
        if self.game not in GAME_MODES:
            raise RulesError(f"game={self.game!r} is not valid; valid values: {', '.join(GAME_MODES)}")
        if not 1 <= self.target <= MAX_POINTS:
            raise RulesError(f"target={self.target} is not valid; use 1..{MAX_POINTS}")
        for name in ("heart_points", *SINGLE_CARD_PENALTIES, "jd_bonus_points", "avoid_all_tricks_points"):
            if not 0 <= getattr(self, name) <= MAX_POINTS:
                raise RulesError(f"{name}={getattr(self, name)} is not valid; use 0..{MAX_POINTS}")
        if self.penalty_total == 0:
            raise RulesError("the rules give no penalty points at all (heart_points and "
                             f"{', '.join(SINGLE_CARD_PENALTIES)} are all 0)")

    # Derived facts -------------------------------------------------------------------------
    @property
    def deck_obj(self) -> Deck:
        return get_deck(self.deck)

    @property
    def has_passing(self) -> bool:
        return self.passing != "none"

    # Plain properties over a per-string cache, not cached_property: values cached in the instance's
    # __dict__ after __init__ made every later attribute read of that Rules slower (measured on
    # CPython 3.11: Rules.__eq__ 0.42 -> 1.3 us), and the engine reads rules on every card.
    @property
    def pass_schedule(self) -> tuple[int, ...] | None:
        """Pass offsets by deal index (repeating), or None for a random direction each deal."""
        return _schedule_of(self.passing)

    @property
    def one_deal_directions(self) -> tuple[int, ...]:
        """The pass offsets a one-deal episode draws from, uniformly: the schedule's directions
        (each entry counts, so ``"left,left,right"`` weighs left twice), or all four for ``"random"``."""
        return _schedule_of(self.passing) or (0, 1, 2, 3)

    @property
    def penalty_total(self) -> int:
        """Penalty points in one deal: N of the moon rules (26 standard, 15 Dutch)."""
        per_deck = self.deck_obj.ranks_per_suit * self.heart_points
        return per_deck + sum(getattr(self, name) for name in SINGLE_CARD_PENALTIES)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated)."""
        _check_names(changes)
        return dataclasses.replace(self, **changes)

    def spec(self) -> str:
        """A spec string that :func:`make_rules` turns back into these rules."""
        base = PRESETS.get(self.preset or "")
        name = self.preset if base is not None else "standard"
        reference = base if base is not None else PRESETS["standard"]
        diffs = [f"{f.name}={_format_value(getattr(self, f.name))}" for f in fields(self)
                 if f.name != "preset" and getattr(self, f.name) != getattr(reference, f.name)]
        return f"{name}({', '.join(diffs)})" if diffs else str(name)


def draw_pass_direction(rules: Rules, rng: np.random.Generator) -> int:
    """The pass offset of a deal played on its own (one-deal episodes, :meth:`Deal.random`): uniform
    over :attr:`Rules.one_deal_directions`. A game (``game="match"``) follows the schedule instead."""
    options = rules.one_deal_directions
    if len(options) == 1:  # nothing to draw: the generator is left as it was
        return options[0]
    return options[int(rng.random() * len(options))]


def draw_pass_directions(rules: Rules, rng: np.random.Generator, size: int) -> np.ndarray:
    """``size`` draws of :func:`draw_pass_direction` at once (int8), for batches of deals."""
    options = np.asarray(rules.one_deal_directions, dtype=np.int8)
    if len(options) == 1:
        return np.full(size, options[0], np.int8)
    return options[(rng.random(size) * len(options)).astype(np.intp)]


_FIELD_TYPES = {f.name: {"bool": bool, "int": int, "str": str}.get(str(f.type), object) for f in fields(Rules)}


def _normalize_passing(value: str) -> str:
    text = value.strip().lower().replace(" ", "")
    if text in PASSING_KEYWORDS:
        return text
    parts = text.split(",")
    if all(p in PASS_OFFSETS for p in parts) and parts:
        if parts == ["hold"]:
            return "none"
        if tuple(parts) == ROTATION:
            return "rotate"
        return ",".join(parts)
    raise RulesError(f"passing={value!r} is not valid; valid values: {', '.join(PASSING_KEYWORDS)}, "
                     f"a direction ({', '.join(PASS_OFFSETS)}), or a comma-separated schedule of directions")


@functools.lru_cache(maxsize=256)
def _schedule_of(passing: str) -> tuple[int, ...] | None:
    if passing == "random":
        return None
    if passing == "rotate":
        return tuple(PASS_OFFSETS[d] for d in ROTATION)
    if passing == "none":
        return (0,)
    return tuple(PASS_OFFSETS[d] for d in passing.split(","))


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


PRESET_DOCS: dict[str, str] = {
    "standard": "Demirdöver et al. 2022 (paper 000 §3): pass 3 left/right/across/hold, 2♣ leads, only a "
                "heart breaks hearts, no points on trick 1, moon adds 26 to the others, game to 100.",
    "openspiel": "OpenSpiel 2.0.2 `hearts` defaults exactly: one deal, pass direction drawn uniformly "
                 "(left/across/right/none), Q♠ breaks hearts, moon: shooter 0, others +26.",
    "sturtevant": "Sturtevant & White 2006 (paper 004): no passing, no lead restrictions (left of dealer "
                  "leads anything, hearts any time, points on trick 1 allowed), moon on, one deal.",
    "dutch": "Dutch rules of paper 003: 32 cards 7…A, hearts 1, J♣ 2, Q♠ 5 (15 a deal), moon gives the "
             "others the shooter's 15, game to 100. Paper-silent choices: no passing, left of dealer "
             "leads anything, hearts may be led any time, no first-trick restriction.",
}

PRESETS: dict[str, Rules] = {
    "standard": Rules(qs_breaks_hearts=False, preset="standard"),
    "openspiel": Rules(passing="random", game="deal", preset="openspiel"),
    "sturtevant": Rules(passing="none", opening_lead="left_of_dealer", no_pts_on_first_trick=False,
                        must_break_hearts=False, game="deal", preset="sturtevant"),
    "dutch": Rules(deck="dutch", queen_of_spades_points=5, jack_of_clubs_points=2, passing="none",
                   opening_lead="left_of_dealer", no_pts_on_first_trick=False, must_break_hearts=False,
                   preset="dutch"),
}

_OPTION_NAMES = tuple(f.name for f in fields(Rules) if f.name != "preset")
_SPEC_RE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\((.*)\))?\s*$", re.S)


def _check_names(options: dict[str, Any]) -> None:
    unknown = [k for k in options if k not in _OPTION_NAMES]
    if unknown:
        raise RulesError(f"unknown rule option(s) {', '.join(map(repr, unknown))}; valid options: "
                         f"{', '.join(_OPTION_NAMES)}")


def _parse_value(name: str, text: str) -> Any:
    kind = _FIELD_TYPES[name]
    t = text.strip().strip("'\"")
    if kind is bool:
        if t.lower() in ("true", "1", "yes", "on"):
            return True
        if t.lower() in ("false", "0", "no", "off"):
            return False
        raise RulesError(f"rule option {name!r} must be true or false, got {text.strip()!r}")
    if kind is int:
        try:
            return int(t)
        except ValueError:
            raise RulesError(f"rule option {name!r} must be an integer, got {text.strip()!r}") from None
    return t


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"standard(jd_bonus=true, target=50)"`` into the preset name and typed options."""
    m = _SPEC_RE.match(spec)
    if not m:
        raise RulesError(f"cannot parse rules spec {spec!r}; expected 'preset' or "
                         f"'preset(option=value, ...)' with a preset among {', '.join(PRESETS)}")
    name, body = m.group(1), m.group(2)
    options: dict[str, Any] = {}
    if body and body.strip():
        for item in re.split(r",\s*(?=[A-Za-z_]\w*\s*=)", body.strip()):
            if "=" not in item:
                raise RulesError(f"rules spec item {item.strip()!r} is not 'option=value' (in {spec!r})")
            key, value = item.split("=", 1)
            key = key.strip()
            _check_names({key: None})
            if key in options:
                raise RulesError(f"rule option {key!r} is given twice in {spec!r}")
            options[key] = _parse_value(key, value)
    return name, options


@functools.lru_cache(maxsize=256)
def _rules_of_spec(spec: str) -> Rules:
    """The rules a spec string names, parsed once per spec (Rules are frozen: one object serves every caller; a
    record replayed names its rules as a spec, and a leaderboard row replays tens of thousands)."""
    name, options = parse_spec(spec)
    if name not in PRESETS:
        raise RulesError(f"unknown rules preset {name!r}; valid presets: {', '.join(PRESETS)}")
    return PRESETS[name].replace(**options) if options else PRESETS[name]


def make_rules(rules: str | Rules | None = None, **overrides: Any) -> Rules:
    """Rules from a preset name, a spec string, or a Rules object, with keyword overrides.

    Raises :class:`RulesError` naming the bad option or value and listing the valid ones.
    """
    if rules is None:
        base = PRESETS["standard"]
    elif isinstance(rules, Rules):
        base = rules
    elif isinstance(rules, str):
        base = _rules_of_spec(rules)
    else:
        raise RulesError(f"rules must be a preset name, a spec string or a Rules object, got {rules!r}")
    return base.replace(**overrides) if overrides else base


def describe_options() -> list[tuple[str, str, str]]:
    """(name, default, doc) of every option, for ``hearts-env rules`` and the docs."""
    docs = _attribute_docs()
    return [(f.name, _format_value(f.default), docs.get(f.name, "")) for f in fields(Rules) if f.name != "preset"]


def _attribute_docs() -> dict[str, str]:
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(Rules))
    body = tree.body[0].body  # type: ignore[attr-defined]
    out: dict[str, str] = {}
    for prev, node in itertools.pairwise(body):
        if (isinstance(prev, ast.AnnAssign) and isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            out[prev.target.id] = " ".join(node.value.value.split())  # type: ignore[union-attr]
    return out


