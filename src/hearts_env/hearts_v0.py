"""
# Hearts

Four-player trick-taking Hearts as a PettingZoo AEC environment, with every rule variant of
:mod:`hearts_env.rules` (standard, OpenSpiel, Sturtevant, Dutch, and any combination of options).

| Creation           | `hearts_v0.env()` or `pettingzoo.make("aec", "hearts_env/hearts-v0")` |
|--------------------|-----------------------------------------------------------------------|
| Actions            | Discrete                                                              |
| Parallel API       | No                                                                    |
| Manual Control     | No                                                                    |
| Agents             | `agents= ['player_0', 'player_1', 'player_2', 'player_3']`            |
| Agents             | 4                                                                     |
| Action Shape       | Discrete(52) (Discrete(32) with the Dutch deck)                       |
| Action Values      | card id: 2♣=0 … A♣=12, 2♦=13 … A♦=25, 2♥=26 … A♥=38, 2♠=39 … A♠=51   |
| Observation Shape  | `{"observation": (620,), "action_mask": (52,)}` with the default `"rich"` encoding |
| Observation Values | [0, 1] (float32); see docs/observations.md per encoding               |

## Usage

```python
from hearts_env import hearts_v0

env = hearts_v0.env(rules="standard", render_mode="ansi")
env.reset(seed=7)
for agent in env.agent_iter():
    obs, reward, termination, truncation, info = env.last()
    action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
    env.step(action)
```

## Arguments

```python
hearts_v0.env(rules="standard", observation="rich", dtype="float32", reward="points",
              auto_play_forced=False, illegal_action="terminate", render_mode=None, **rule_overrides)
```

`rules`: a preset name (`"standard"`, `"openspiel"`, `"sturtevant"`, `"dutch"`), a spec string such as
`"standard(jd_bonus=true, target=50)"`, or a `hearts_env.rules.Rules` object. `**rule_overrides`
change single options (`hearts_v0.env(rules="openspiel", pass_count=2)`). See docs/rules.md.

`observation`: the name of a registered encoding (`hearts_env.encoders.encoder_names()`) or an
`Encoder` instance, or `"text"`: the seat's view as text for a language model (`hearts_env.text`, a `Text` space;
docs/observations.md). An encoding that cannot represent the rules raises `EncoderError`.

`dtype`: `"float32"` or `"uint8"` for the observation vector.

`reward`: `"points"`, `"openspiel"`, `"zero_sum"`, `"dense"`, `"win"` or `"rank"` (see Rewards).

`auto_play_forced`: when the seat to act has exactly one legal card, the environment plays it and
the agent iteration skips that turn (see Auto-play).

`illegal_action`: what the environment does with an illegal action: `"terminate"` (the convention of
PettingZoo's `TerminateIllegalWrapper`, built in: the offender gets −1, the others 0, the episode ends,
and the infos name the offender) or `"raise"` (raise `hearts_env.engine.IllegalActionError` naming the
broken rule and the legal cards, leaving the environment unchanged; for debugging).

`render_mode`: `None`, `"ansi"` (`render()` returns the text) or `"human"` (prints it).

## Episodes

Agent `player_i` is seat `i`; seats play in order 0 → 1 → 2 → 3 and the 2♣ holder (or the seat left
of the dealer, by the rules) leads. An episode is one deal when `rules.game == "deal"` (the
`openspiel` and `sturtevant` presets) and a whole game to `rules.target` points when
`rules.game == "match"` (`standard`, `dutch`): between deals the next deal starts inside `step()`
and the agent iteration simply continues with the new deal's first seat. All agents terminate
together when the episode ends; nothing truncates.

**Passing** uses the same action space as play: each seat in order 0, 1, 2, 3 takes `pass_count`
single-card steps (the card ids it passes). Cards received stay invisible to every observation until
the last pass has been chosen.

## Observation Space

A dict: `"observation"` is the encoder's vector for the observing seat (default `"rich"`, 620 floats
for 52 cards, 400 for 32; every layout is in docs/observations.md), `"action_mask"` is an `int8` vector
over card ids with 1 for each legal card of the seat to act, all zeros for the other seats.
`observe(agent)` builds one observation on demand, as a fresh array.

## Action Space

`Discrete(N)`, `N` the deck size, for both phases: the action is a card id (`hearts_env.cards`:
`card_id("QS") == 49`). During passing it is a card to pass, during play the card to play.

## Rewards

Rewards reach each seat the moment they are earned and accumulate in `_cumulative_rewards`, so
`last()` returns everything earned since the agent last acted.

| `reward=`   | when                    | value for seat `s`                                                       |
|-------------|-------------------------|--------------------------------------------------------------------------|
| `points`    | end of each deal        | `−points[s]` of the deal (default)                                       |
| `openspiel` | end of each deal        | `penalty_total − points[s]` (26 − points standard, 15 − points Dutch)    |
| `zero_sum`  | end of each deal        | `mean(points) − points[s]`                                               |
| `dense`     | each trick, deal end    | −(trick's points) to its winner; the rest at deal end (sum: `−points[s]`) |
| `win`       | end of the episode      | `1 / len(winners)` to each winner (lowest final score), else 0           |
| `rank`      | end of the episode      | `1 − 2·r/3`, `r` = 0-based rank by final score, ties averaged: 1, ⅓, −⅓, −1 |

`points` are the deal's final points with moon and bonuses applied (`Deal.points`). For a game
episode, `points` rewards sum to `−(final game score)`. For a one-deal episode, `win`/`rank` use
the deal's points.

## Info

Every agent's info holds the same keys from `reset()` on, each a number or a fixed-shape NumPy array,
so libraries that store infos in arrays (Tianshou's replay buffers, TorchRL's specs) take them:

| key              | type              | value                                                                 |
|------------------|-------------------|-----------------------------------------------------------------------|
| `phase`          | int               | `Phase.PASS` (0), `Phase.PLAY` (1), `Phase.DONE` (2: the episode is over) |
| `deal_index`     | int               | 0-based index of the current (or, once over, the last) deal           |
| `deals_done`     | int               | deals finished so far                                                 |
| `scores`         | int64 (4,)        | game scores of the finished deals                                     |
| `deal_points`    | int64 (4,)        | points of the last finished deal (zeros while `deals_done == 0`)      |
| `moon_shooter`   | int               | seat that shot the moon in the last finished deal, −1 for none        |
| `winners`        | int8 (4,)         | 1 for each seat with the lowest final score (ties: several), else 0   |
| `illegal_action` | bool              | True for the agent whose illegal action ended the episode             |
| `illegal_seat`   | int               | that agent's seat in every agent's info, −1 for none                  |

The legal actions are in the observation (`obs["action_mask"]`), PettingZoo's convention, not in the info.
`phase` is the int value of `hearts_env.Phase` (an `IntEnum`: compare with `info["phase"] == Phase.PASS`).
`hearts_v0.PHASE_PASS`, `PHASE_PLAY` and `PHASE_DONE` are deprecated aliases of those members, kept for one
release (reading them warns); use `Phase`.

## Auto-play

With `auto_play_forced=True` every forced move (exactly one legal card: the 2♣ lead, the whole last
trick, …) is played inside the `step()` that makes it forced (or inside `reset()`), so the agent
iteration never stops at a seat with a single choice. A skipped seat's rewards are not lost: they
accumulate in its `_cumulative_rewards` and reach it through `last()` at its next turn or when the
episode ends.

## Starting from given deals

`reset(options={"deals": [deal, ...]})` plays copies of the given `hearts_env.engine.Deal` objects
(same rules, not finished) first, then shuffled deals; `reset(options={"hands": [h0, h1, h2, h3],
"pass_direction": "left", "dealer": 3})` builds one deal with `Deal.from_hands`;
`options={"scores": [s0, s1, s2, s3]}` (integers) starts the game from given scores. Unknown keys are
ignored with a warning.

## Pass directions

A game (`game="match"`) passes by the rules' schedule from its first deal: left, right, across,
hold, … A one-deal episode (`game="deal"`) draws its direction uniformly from the schedule with the
environment's generator (every direction of `passing="rotate"`, ¼ each; all four for `"random"`), so
one-deal training sees every direction. `reset(options={"pass_direction": "left"})` pins the
direction of a one-deal episode; `passing="left"` pins it for every deal.

## Seeding and pickling

`reset(seed=s)` seeds one `numpy.random.Generator` that drives every shuffle and every random pass
direction (`seed=0` is a seed like any other); `reset()` without a seed continues that generator. An
environment pickles at any point and the copy continues identically.

## Rendering

`render()` draws a **god view** (every hand, passes, the current and last trick, points taken,
game scores) with suit symbols ♣♦♥♠; the text comes from :mod:`hearts_env.render`.

## Version History

* v0: Initial release.
"""

from __future__ import annotations

import difflib
import warnings
from dataclasses import fields
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hearts_env.actions import integer_action
from hearts_env.encoders import Encoder
from hearts_env.engine import BrokenRule, Deal, DealError, IllegalActionError, Phase, deprecated_phase
from hearts_env.illegal import illegal_action_mode
from hearts_env.match import Match, check_seed
from hearts_env.registration import PETTINGZOO_ID
from hearts_env.render import render_deal
from hearts_env.rewards import REWARD_SCHEMES, RewardBook, check_scheme
from hearts_env.rules import Rules, draw_pass_direction, make_rules
from hearts_env.text import TextObservation, make_observation
from hearts_env.views import SeatView

__all__ = ["ENV_ID", "REWARD_SCHEMES", "env", "raw_env"]

def __getattr__(name: str) -> Phase:
    """``PHASE_PASS``, ``PHASE_PLAY``, ``PHASE_DONE``: deprecated aliases of :class:`~hearts_env.engine.Phase`'s
    members (the values of ``info["phase"]``), kept for one release."""
    return deprecated_phase("hearts_v0", name)

ENV_ID = PETTINGZOO_ID
"""The id under which :func:`env` is registered with PettingZoo (1.27+; see :mod:`hearts_env.registration`)."""

_OPTION_KEYS = ("deals", "hands", "pass_direction", "dealer", "scores")


ENV_KEYWORDS = ("rules", "observation", "dtype", "reward", "auto_play_forced", "illegal_action", "render_mode")


def _check_keywords(rule_overrides: dict[str, Any]) -> None:
    """A keyword that is neither the env's nor a rule option is a typo of one: say which, not 'unknown rule'."""
    options = [f.name for f in fields(Rules) if f.name != "preset"]
    for name in rule_overrides:
        if name not in options:
            close = difflib.get_close_matches(name, [*ENV_KEYWORDS, *options], n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise TypeError(f"hearts_v0.env() got an unexpected keyword {name!r}{hint} It takes "
                            f"{', '.join(ENV_KEYWORDS)}, and rule options as keywords ({', '.join(options)})")


def env(**kwargs: Any) -> AECEnv:
    """The Hearts AEC environment with PettingZoo's standard wrappers (see the module docstring).

    PettingZoo's ``TerminateIllegalWrapper`` is not among them: the raw environment applies the same
    convention itself (``illegal_action="terminate"``) and, unlike the wrapper, reports the offender in
    the infos and leaves ``illegal_action="raise"`` reachable."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Hearts without wrappers. Arguments and behaviour: see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo convention)
        "name": "hearts_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, rules: str | Rules | None = "standard", observation: str | Encoder = "rich",
                 dtype: str = "float32", reward: str = "points", auto_play_forced: bool = False,
                 illegal_action: str = "terminate", render_mode: str | None = None, **rule_overrides: Any):
        super().__init__()
        _check_keywords(rule_overrides)
        self.rules: Rules = make_rules(rules, **rule_overrides)
        check_scheme(reward)
        illegal_action = illegal_action_mode(illegal_action)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not supported; valid values: None, "
                             f"{', '.join(self.metadata['render_modes'])}")
        self.encoder: Encoder | TextObservation
        if isinstance(observation, Encoder):
            if observation.rules != self.rules:
                raise ValueError("the Encoder instance was built for other rules than the environment's")
            self.encoder = observation
        else:  # an encoding, or "text": what a language model reads (hearts_env.text)
            self.encoder = make_observation(observation, self.rules, dtype)
        self.reward_scheme = reward
        self.auto_play_forced = bool(auto_play_forced)
        self.illegal_action = illegal_action
        self.render_mode = render_mode

        n = self.rules.deck_obj.size
        self._n = n
        self.possible_agents = [f"player_{i}" for i in range(4)]
        self._seat_of = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({"observation": self.encoder.space(),
                            "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8)})
            for a in self.possible_agents
        }
        self._mask_format = f"0{n}b"
        self._zero_mask = np.zeros(n, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self._rng: np.random.Generator | None = None
        self._match: Match | None = None
        self.infos: dict[str, dict[str, Any]] = {}

    # Spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # Public read-only state (god view: do not hand it to agents) ------------------------------
    @property
    def match(self) -> Match:
        """The :class:`~hearts_env.match.Match` being played (scores, deal history)."""
        if self._match is None:
            raise AttributeError("call reset() first")
        return self._match

    @property
    def deal(self) -> Deal:
        """The current (or, once the episode is over, the last) :class:`~hearts_env.engine.Deal`."""
        return self.match.deal

    # Reset ----------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        check_seed(seed)
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        unknown = [k for k in options if k not in _OPTION_KEYS]
        if unknown:
            warnings.warn(f"hearts_v0.reset ignores unknown option(s) {', '.join(map(repr, unknown))}; "
                          f"known options: {', '.join(_OPTION_KEYS)}", stacklevel=2)
        deals = self._explicit_deals(options)
        pinned = options.get("pass_direction") if options.get("hands") is None else None
        try:
            match = Match(self.rules, seed=self._rng, deals=deals, pass_direction=pinned,
                          scores=options.get("scores"))
        except DealError as e:
            raise ValueError(f"options: {e}") from None
        self._match = match
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._game_over = False
        self._winners: list[int] | None = None
        self._book = RewardBook(self.reward_scheme, self.rules.penalty_total)
        self._mask = self._zero_mask
        self._set_deal_infos(None, -1)
        self._last_seat = 3
        self._skip_agent_selection = None
        if self.auto_play_forced:
            self._auto_play()
            self._accumulate_rewards()
        self._update()

    def _explicit_deals(self, options: dict[str, Any]) -> list[Deal] | None:
        deals = options.get("deals")
        hands = options.get("hands")
        if deals is not None and hands is not None:
            raise ValueError("give either options['deals'] or options['hands'], not both")
        if hands is None and options.get("dealer") is not None:
            raise ValueError("options['dealer'] only applies with options['hands']")
        if hands is None and options.get("pass_direction") is not None and self.rules.game != "deal":
            raise ValueError("options['pass_direction'] applies with options['hands'] or to a one-deal episode "
                             "(rules with game=deal); a game follows the rules' passing schedule")
        if hands is not None:
            direction = options.get("pass_direction")
            if direction is None:  # the direction a shuffled first deal would have had
                schedule = self.rules.pass_schedule
                direction = (schedule[0] if self.rules.game == "match" and schedule is not None
                             else draw_pass_direction(self.rules, self._rng))  # type: ignore[arg-type]
            return [Deal.from_hands(self.rules, hands, pass_direction=direction, dealer=options.get("dealer", 3))]
        if deals is None:
            return None
        if isinstance(deals, Deal):
            deals = [deals]
        out = []
        for i, deal in enumerate(deals):
            if not isinstance(deal, Deal):
                raise TypeError(f"options['deals'][{i}] is not a hearts_env.engine.Deal: {deal!r}")
            if deal.rules != self.rules:
                raise ValueError(f"options['deals'][{i}] was made under other rules ({deal.rules.spec()}) than "
                                 f"the environment's ({self.rules.spec()})")
            if deal.is_over:
                raise ValueError(f"options['deals'][{i}] is already finished")
            out.append(deal.clone())
        return out

    # Step -----------------------------------------------------------------------------------
    def step(self, action: Any) -> None:
        if self._match is None:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deal = self.match.deal
        legal = deal.legal_mask()
        card = action if type(action) is int else integer_action(action)
        if card is None or card < 0 or not legal >> card & 1:
            if self.illegal_action == "raise":
                deal.apply(action)  # raises IllegalActionError naming the rule and the legal cards
                raise IllegalActionError(f"{action!r} is not a legal action", seat=deal.current, card=action,
                                         rule=BrokenRule.NOT_A_CARD, legal=deal.legal_cards())
            self._terminate_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0
        self._last_seat = deal.current
        self._play(card)
        if self.auto_play_forced and not self._game_over:
            self._auto_play()
        self._accumulate_rewards()
        self._update()

    def _play(self, card: int) -> None:
        """Apply one legal card and book every reward it causes into ``self.rewards``."""
        match = self.match
        deal = match.deal
        trick = deal.apply(card)
        if trick is not None:
            self.rewards[self.possible_agents[trick.winner]] += self._book.trick(trick)
        if deal.is_over:
            self._end_deal()

    def _end_deal(self) -> None:
        match = self.match
        deal = match.deal
        points = deal.points
        assert points is not None  # the deal is over
        rewards = self.rewards
        agents = self.possible_agents
        for s, value in enumerate(self._book.deal_end(points)):
            rewards[agents[s]] += value
        moon = -1 if deal.moon_shooter is None else deal.moon_shooter
        if match.is_over:
            self._winners = match.winners()
            match.next_deal()  # books the last deal's points
            for s, value in enumerate(self._book.game_end(match.scores)):
                rewards[agents[s]] += value
            self._game_over = True
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            match.next_deal()
        self._set_deal_infos(points, moon)

    def _set_deal_infos(self, points: list[int] | None, moon: int) -> None:
        """The info values that change only when a deal ends, one fresh set of arrays per agent
        (built here, never mutated afterwards, so infos kept by a caller stay valid)."""
        match = self.match
        winners = np.zeros(4, np.int8)
        if self._winners is not None:
            winners[self._winners] = 1
        self._deal_infos = {a: {"deals_done": len(match.history),
                                "scores": np.array(match.scores, np.int64),
                                "deal_points": np.array(points or (0, 0, 0, 0), np.int64),
                                "moon_shooter": moon, "winners": winners.copy()}
                            for a in self.possible_agents}

    def _auto_play(self) -> None:
        match = self.match
        while not self._game_over:
            legal = match.deal.legal_mask()
            if legal & (legal - 1) or not legal:
                return
            self._last_seat = match.deal.current
            self._play(legal.bit_length() - 1)

    def _terminate_illegal(self, agent: str) -> None:
        """PettingZoo's TerminateIllegalWrapper convention, inside the raw environment."""
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = -1.0
        self._accumulate_rewards()
        self._game_over = True
        self._mask = self._zero_mask
        seat = self._seat_of[agent]
        self.infos = {a: {**info, "phase": int(Phase.DONE), "illegal_seat": seat} for a, info in self.infos.items()}
        self.infos[agent]["illegal_action"] = True
        self._deads_step_first()

    def _update(self) -> None:
        """Set agent_selection and rebuild the infos after a reset or a step."""
        match = self.match
        deal = match.deal
        phase = int(Phase.DONE if self._game_over else Phase.PLAY if deal.passes_complete() else Phase.PASS)
        deal_index = match.deal_index
        agents = self.possible_agents
        deal_infos = self._deal_infos
        self.infos = {a: {"phase": phase, "deal_index": deal_index, **deal_infos[a], "illegal_action": False,
                          "illegal_seat": -1} for a in agents}
        if self._game_over:
            self._mask = self._zero_mask
            self.agent_selection = agents[(self._last_seat + 1) & 3]
            return
        self._mask = np.frombuffer(bytearray(format(deal.legal_mask(), self._mask_format)[::-1].encode()
                                             .translate(_BIT_TO_BYTE)), dtype=np.int8)
        self.agent_selection = agents[deal.current]

    # Observe --------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat_of[agent]
        deal = self.match.deal
        obs = self.encoder.encode(SeatView.of(deal, seat))
        if isinstance(obs, np.ndarray):
            obs = obs.copy()  # the encoder reuses its buffer
        acting = not self._game_over and deal.current == seat
        return {"observation": obs, "action_mask": self._mask.copy() if acting else np.zeros(self._n, np.int8)}

    # Render ---------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render() without specifying a render_mode "
                                  "(hearts_v0.env(render_mode='ansi') or 'human').")
            return None
        if self._match is None:
            raise RuntimeError("call reset() before render()")
        match = self.match
        deal = match.deal
        scores = deal.game_scores
        text = render_deal(deal, scores, deal_index=match.deal_index)
        if self._game_over and self._winners is not None:
            names = ", ".join(self.possible_agents[s] for s in self._winners)
            text += f"\ngame over: final scores {list(match.scores)}; winner(s): {names}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


_BIT_TO_BYTE = bytes.maketrans(b"01", b"\x00\x01")
