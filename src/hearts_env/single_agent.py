"""Gymnasium single-agent Hearts: one learning seat, three opponents acting inside ``step``.

>>> import gymnasium, hearts_env
>>> env = gymnasium.make("hearts_env/Hearts-v0", rules="standard(game=deal)", opponents=["heuristic"] * 3)
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

Arguments (all keywords):

- ``rules``: preset, spec string or Rules (default ``"standard(game=deal)"``: one deal an episode;
  game rules give one game an episode).
- ``observation`` / ``dtype``: a registered encoding (default ``"rich"``); ``dict_obs=True`` gives
  ``Dict{"observation", "action_mask"}`` (for masked DQN) instead of the encoding's Box.
- ``opponents``: three agent specs (``"random"``, ``"greedy"``, ``"heuristic(moon_alarm=8)"``,
  ``"sb3:runs/ppo.zip"``, ``"pkg.module:Factory(k=v)"``), :class:`~hearts_env.agents.Agent`
  objects, or callables ``(observation, mask) -> action`` (seen through ``observation``). A single
  spec is used for all three seats.
- ``seat``: the learner's seat, 0..3 or ``"random"`` (drawn each episode from ``np_random``).
- ``reward``: ``"points"`` (−points of each deal, the default), ``"openspiel"``, ``"zero_sum"``,
  ``"dense"`` (per trick) — see :mod:`hearts_env.rewards`; ``"win"``/``"rank"`` at game end.
- ``illegal_action``: ``"terminate"`` (default, as in the PettingZoo env: reward ``illegal_penalty`` and the
  episode ends, so gymnasium's and SB3's ``check_env``, which step unmasked samples, pass) or ``"raise"``
  (:class:`~hearts_env.engine.IllegalActionError`); ``"penalty"`` is the deprecated name of ``terminate``.

``action_masks()`` serves sb3-contrib's MaskablePPO; ``info["action_mask"]`` (int8) carries the same.
Every info holds the same keys with one type each from ``reset()`` on: ``action_mask``, ``seat``,
``phase`` (0 pass, 1 play, 2 done), ``scores`` (int64 (4,)), ``deal_index`` and ``illegal_action``.
An action is an integer card id: a float or a bool is refused with ``ValueError``, never truncated.
A one-deal episode (``game=deal``) draws its pass direction uniformly from the rules' schedule with
``np_random`` (every direction of the rotation); ``passing="left"`` pins it.
The learner passes too (one card per step). Every random draw — deals, pass directions, the
random seat, opponents' randomness — comes from ``self.np_random``, so ``reset(seed=s)``
reproduces an episode (seed 0 is a seed). Self-play: :meth:`HeartsEnv.set_opponent` swaps in any
agent or policy (e.g. a frozen snapshot of the learner) between episodes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hearts_env.actions import integer_action
from hearts_env.agents import Agent, make_agent
from hearts_env.agents.adapters import PolicyAgent
from hearts_env.engine import BrokenRule, IllegalActionError
from hearts_env.illegal import illegal_action_mode
from hearts_env.match import Match, check_seed
from hearts_env.registration import GYMNASIUM_ID
from hearts_env.render import render_deal
from hearts_env.rewards import RewardBook, check_scheme
from hearts_env.rules import Rules, make_rules
from hearts_env.text import make_observation
from hearts_env.views import SeatView

ENV_ID = GYMNASIUM_ID

OpponentSpec = str | Agent | Callable[[np.ndarray, np.ndarray], Any]


class HeartsEnv(gymnasium.Env):
    """See the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (gymnasium convention)

    def __init__(self, rules: str | Rules = "standard(game=deal)", observation: str = "rich", dtype: str = "float32",
                 opponents: OpponentSpec | Sequence[OpponentSpec] = "random", seat: int | str = 0,
                 reward: str = "points", illegal_action: str = "terminate", illegal_penalty: float = -1.0,
                 dict_obs: bool = False, render_mode: str | None = None):
        self.rules = make_rules(rules)
        check_scheme(reward)
        if seat != "random" and seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3 or 'random', got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not supported; valid: None, ansi, human")
        self.observation_name = observation
        self.encoder = make_observation(observation, self.rules, dtype)  # an encoding, or "text" (hearts_env.text)
        specs = [opponents] * 3 if isinstance(opponents, str | Agent) or callable(opponents) else list(opponents)
        if len(specs) != 3:
            raise ValueError(f"opponents needs three agents (or one for all three), got {len(specs)}")
        self.opponents: list[Agent] = [self._as_agent(spec) for spec in specs]
        self.seat_choice = seat
        self.reward_scheme = reward
        self.illegal_action = illegal_action_mode(illegal_action)
        self.illegal_penalty = float(illegal_penalty)
        self.dict_obs = dict_obs
        self.render_mode = render_mode
        n = self.rules.deck_obj.size
        self.action_space = spaces.Discrete(n)
        mask_space = spaces.Box(0, 1, (n,), np.int8)
        self.observation_space = (spaces.Dict({"observation": self.encoder.space(), "action_mask": mask_space})
                                  if dict_obs else self.encoder.space())
        self.match: Match | None = None
        self.seat = 0
        self._over = False

    def _as_agent(self, spec: OpponentSpec) -> Agent:
        if isinstance(spec, str | Agent):
            return make_agent(spec)
        if callable(spec):
            return PolicyAgent(spec, observation=self.observation_name)
        raise TypeError(f"an opponent must be an agent spec, an Agent or a callable (obs, mask) -> action; "
                        f"got {spec!r}")

    def set_opponent(self, index: int, opponent: OpponentSpec) -> None:
        """Replace opponent ``index`` (0..2, in seat order after the learner) from the next deal on:
        the self-play hook (pass a frozen copy or snapshot of the learner's policy)."""
        self.opponents[index] = self._as_agent(opponent)

    # Gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        check_seed(seed)
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = int(rng.integers(4)) if self.seat_choice == "random" else int(self.seat_choice)
        self.match = Match(self.rules, seed=rng)
        self._book = RewardBook(self.reward_scheme, self.rules.penalty_total)
        self._start_deal()
        reward = self._advance()
        self._pending = reward  # rewards earned before the learner's first move go to its first step
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        if self.match is None:
            raise RuntimeError("call reset() before step()")
        deal = self.match.deal
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        card = integer_action(action)
        if card is None:
            raise ValueError(f"an action is an integer card id 0..{self.rules.deck_obj.size - 1}, got {action!r}")
        if not 0 <= card < self.rules.deck_obj.size or not deal.legal_mask() >> card & 1:
            if self.illegal_action == "raise":
                deal.apply(card)  # raises IllegalActionError naming the rule and the legal cards
                raise IllegalActionError(f"{action!r} is not legal", seat=self.seat, card=action,
                                         rule=BrokenRule.NOT_A_CARD, legal=deal.legal_cards())
            self._over = True
            return self._observe(), self.illegal_penalty, True, False, self._info(illegal=True)
        reward = self._pending + self._apply(card)
        self._pending = 0.0
        reward += self._advance()
        return self._observe(), float(reward), self._over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now (bool), for sb3-contrib's MaskablePPO."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), printed (``"human"``), or None without a render mode
        (Gymnasium's convention; a warning says how to ask for one)."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render() without specifying a render_mode "
                                  "(gymnasium.make('hearts_env/Hearts-v0', render_mode='ansi') or 'human').")
            return None
        if self.match is None:
            return None
        text = render_deal(self.match.deal, scores=self.match.scores)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # Internals ----------------------------------------------------------------------------
    def _start_deal(self) -> None:
        match = self.match
        self._over = False
        others = [s for s in range(4) if s != self.seat]
        self._seat_agents = dict(zip(others, self.opponents))
        for seat, agent in self._seat_agents.items():
            agent.reset(self.rules, seat, seed=int(self.np_random.integers(2**63)))
        assert match is not None

    def _apply(self, card: int) -> float:
        """Apply one card (any seat's); the learner's reward it causes."""
        match = self.match
        assert match is not None
        deal = match.deal
        trick = deal.apply(card)
        reward = 0.0
        if trick is not None:
            paid = self._book.trick(trick)
            if trick.winner == self.seat:
                reward += paid
        if deal.is_over:
            for seat, agent in self._seat_agents.items():
                agent.end_deal(SeatView.of(deal, seat))
            points = deal.points
            assert points is not None
            reward += self._book.deal_end(points)[self.seat]
            if match.next_deal() is None:
                reward += self._book.game_end(match.scores)[self.seat]
                self._over = True
            else:
                self._start_deal()
        return reward

    def _advance(self) -> float:
        """Let the opponents act until the learner must act or the episode ends."""
        reward = 0.0
        match = self.match
        assert match is not None
        while not self._over and match.deal.current != self.seat:
            deal = match.deal
            seat = deal.current
            reward += self._apply(self._seat_agents[seat].act(SeatView.of(deal, seat)))
        return reward

    def _mask(self) -> np.ndarray:
        n = self.rules.deck_obj.size
        assert self.match is not None
        deal = self.match.deal
        legal = 0 if self._over or deal.current != self.seat else deal.legal_mask()
        return np.array([(legal >> c) & 1 for c in range(n)], dtype=np.int8)

    def _observe(self) -> Any:
        assert self.match is not None
        obs = self.encoder.encode(SeatView.of(self.match.deal, self.seat, tuple(self.match.scores)))
        if isinstance(obs, np.ndarray):
            obs = obs.copy()  # the encoder reuses its buffer
        return {"observation": obs, "action_mask": self._mask()} if self.dict_obs else obs

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        match = self.match
        assert match is not None
        return {"action_mask": self._mask(), "seat": self.seat, "phase": int(match.deal.phase),
                "scores": np.array(match.scores, np.int64), "deal_index": match.deal_index, "illegal_action": illegal}
