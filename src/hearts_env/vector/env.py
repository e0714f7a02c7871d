"""``HeartsVectorEnv``: N Hearts envs as one Gymnasium ``VectorEnv`` over the batched engine.

>>> import gymnasium, hearts_env
>>> envs = gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=8, opponents="greedy")
>>> obs, info = envs.reset(seed=0)
>>> obs.shape, info["action_mask"].shape
((8, 620), (8, 52))

``gymnasium.make_vec("hearts_env/Hearts-v0", num_envs=N, ...)`` returns this class (it is the env
id's vector entry point). Each env (row ``i`` of the batch) plays one deal per episode (rules with ``game=deal``; the
default is ``"standard(game=deal)"``), with the same meaning of arguments as the single-table env.
Each episode's pass direction is drawn per env from ``np_random``, uniformly over the rules'
schedule (every direction of the rotation; ``passing="left"`` pins one). ``reset`` and ``step``
return fresh observation arrays, as Gymnasium's vector envs do by default; ``copy=False`` (like
their ``copy`` argument) returns one buffer that the next call overwrites, for callers that copy
what they keep (a replay buffer, :class:`~hearts_env.vector.sb3.SB3VecEnv`) and want the speed.

- ``observation``: ``"rich"`` (default) or ``"paper260"``, built in batch
  (:mod:`hearts_env.vector.encoders`), ``dtype`` float32 or uint8.
- ``opponents``: ``"random"``, ``"greedy"`` (vectorized paper 002 player), ``"heuristic"`` (the
  bundled expert, card for card; both need the Numba backend), or a batched
  policy ``(observations (k, D), masks (k, A) bool) -> actions (k,)`` seen through the same
  observation — e.g. a frozen snapshot of the learner for self-play.
- ``seat``: the learner's seat, 0..3, ``"random"`` (drawn per env and episode), or ``"all"``:
  four-seat self-play, see below.
- ``reward``: ``"points"`` (−points at the deal's end), ``"openspiel"`` or ``"zero_sum"``.
- ``illegal_action``: ``"raise"`` (default; :class:`~hearts_env.engine.IllegalActionError` naming
  the row) or ``"terminate"`` (reward ``illegal_penalty`` and that env's episode ends; ``"penalty"`` is its
  deprecated name). The default differs from the single-table envs' on purpose: they default to ``terminate``
  so that the libraries' env checkers, which step unmasked random actions, pass; a batch of thousands of envs
  is stepped by a masked learner, where an illegal card is a masking bug that a penalty would hide.
- ``backend``: ``"auto"`` / ``"numba"`` / ``"numpy"`` (see :mod:`hearts_env.vector`).

**Autoreset mode: same-step** (``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``, as
Stable-Baselines3's VecEnv does): when an env's deal ends, ``step`` returns ``terminated[i] =
True``, the reward of that deal, and already the first observation of the next deal; the final
observation is in ``info["final_obs"][i]`` and the deal's points in ``info["points"][i]`` (rows
flagged by ``info["_final_obs"]``). ``info["action_mask"]`` (bool, (N, A)) always belongs to the
returned observation; :meth:`action_masks` returns it too (for MaskablePPO through
:class:`~hearts_env.vector.sb3.SB3VecEnv`).

**Four-seat self-play** (``seat="all"``): every seat is the learner. Each step acts for the seat to
act in each env and returns the next acting seat's observation; ``info["seat"]`` names it.
The reward returned is that of the seat that just acted when its deal ended, and
``info["seat_rewards"]`` (N, 4) gives all four seats' rewards on the terminating step: regroup
transitions by seat to train on four trajectories per env.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from hearts_env.actions import integer_actions
from hearts_env.engine import BrokenRule, IllegalActionError
from hearts_env.illegal import illegal_action_mode
from hearts_env.rewards import check_scheme, deal_end_rewards
from hearts_env.rules import Rules, make_rules
from hearts_env.vector import KernelPolicy, VectorDeals, kernel_policy, kth_cards, policy_name
from hearts_env.vector.encoders import make_batch_encoder, unpack_masks

BatchPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]
VECTOR_REWARDS = ("points", "openspiel", "zero_sum")


class HeartsVectorEnv(gymnasium.vector.VectorEnv):
    """See the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, num_envs: int = 16, rules: str | Rules = "standard(game=deal)", observation: str = "rich",
                 dtype: str = "float32", opponents: str | BatchPolicy = "random", seat: int | str = 0,
                 reward: str = "points", illegal_action: str = "raise", illegal_penalty: float = -1.0,
                 backend: str = "auto", render_mode: str | None = None, copy: bool = True):
        self.rules = make_rules(rules)
        if self.rules.game != "deal":
            raise ValueError("the vector env plays one deal per episode: use rules with game=deal "
                             "(e.g. 'standard(game=deal)'), or the single-table env for whole games")
        if reward not in VECTOR_REWARDS:
            check_scheme(reward)
            raise ValueError(f"reward={reward!r} is not available in the vector env; "
                             f"valid: {', '.join(VECTOR_REWARDS)}")
        if seat not in (0, 1, 2, 3, "random", "all"):
            raise ValueError(f"seat must be 0..3, 'random' or 'all', got {seat!r}")
        if not callable(opponents) and not (isinstance(opponents, str) and policy_name(opponents)):
            raise ValueError(f"vector opponents must be 'random', 'greedy', 'heuristic' (with parameters, e.g. "
                             f"'heuristic(moon_alarm=6)') or a batched policy (observations, masks) -> actions; "
                             f"got {opponents!r}")
        if render_mode is not None:
            raise ValueError("the vector env does not render; use the single-table env")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.num_envs = int(num_envs)
        self.encoder = make_batch_encoder(observation, self.rules, dtype)
        self.opponents = opponents
        self.seat_choice = seat
        self.reward_scheme = reward
        self.illegal_action = illegal_action_mode(illegal_action)
        self.illegal_penalty = float(illegal_penalty)
        self.backend = backend
        n = self.rules.deck_obj.size
        self.single_observation_space = self.encoder.space()
        self.single_action_space = spaces.Discrete(n)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._bits = np.uint64(1) << np.arange(n, dtype=np.uint64)
        self.deals: VectorDeals | None = None  # row i: env i's deal
        self.copy = bool(copy)
        self._obs = np.zeros((self.num_envs, self.encoder.size), self.encoder.dtype)
        self._opponent_policy: KernelPolicy | None = None
        self._batch_policy: BatchPolicy | None = None
        if isinstance(opponents, str):
            self._opponent_policy = kernel_policy(opponents)
        else:
            self._batch_policy = opponents
        if self._opponent_policy is not None and self._opponent_policy.name != "random":  # fail now without Numba
            assert isinstance(opponents, str)
            VectorDeals.random(self.rules, 1, np.random.default_rng(0), backend=backend).policy_actions(opponents)

    # Gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        rng = self.np_random
        self.deals = VectorDeals.random(self.rules, self.num_envs, rng, backend=self.backend)
        self.seats = self._draw_seats(np.ones(self.num_envs, bool), np.zeros(self.num_envs, np.int8))
        self._advance()
        return self._observe(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        deals = self.deals
        if deals is None:
            raise RuntimeError("call reset() before step()")
        actions = integer_actions(actions, self.num_envs)
        legal = deals.legal_masks()
        ok = (actions >= 0) & (actions < deals.tables.size)
        ok &= (legal & np.where(ok, self._bits[np.clip(actions, 0, deals.tables.size - 1)], np.uint64(0))) != 0
        rewards = np.zeros(self.num_envs, np.float64)
        illegal = ~ok
        if illegal.any():
            if self.illegal_action == "raise":
                deals.step(actions)  # raises, naming the row, the seat and the legal cards
                raise IllegalActionError("illegal action", seat=None, card=None, rule=BrokenRule.BATCH, legal=[])
            rewards[illegal] = self.illegal_penalty
        actor = deals.current.copy()
        deals.step(np.where(illegal, -2, actions), only=~illegal)
        self._advance()
        done = deals.done.copy()
        terminated = done | illegal
        info = self._info()
        if terminated.any():
            seat_rewards = self._deal_rewards()
            finished = done & ~illegal
            reward_seat = actor if self.seat_choice == "all" else self.seats
            rewards[finished] += seat_rewards[finished, reward_seat[finished]]
            final_obs = self._final_observations(terminated, actor)
            info.update(final_obs=final_obs, _final_obs=terminated, points=deals.points.astype(np.int64),
                        _points=finished, seat_rewards=seat_rewards, _seat_rewards=finished)
            deals.redeal(terminated, self.np_random)
            self.seats = self._draw_seats(terminated, self.seats)
            self._advance()
            info.update(self._info())
        return self._observe(), rewards, terminated, np.zeros(self.num_envs, bool), info

    def action_masks(self) -> np.ndarray:
        """(N, A) bool: the legal actions of each env's acting seat (for MaskablePPO)."""
        assert self.deals is not None
        return self._mask_array(self.deals.legal_masks())

    # Internals ----------------------------------------------------------------------------
    def _draw_seats(self, which: np.ndarray, seats: np.ndarray) -> np.ndarray:
        if self.seat_choice == "all":
            return np.full(self.num_envs, -1, np.int8)
        if self.seat_choice == "random":
            return np.where(which, self.np_random.integers(0, 4, self.num_envs), seats).astype(np.int8)
        return np.full(self.num_envs, self.seat_choice, np.int8)

    def _advance(self) -> None:
        """Opponents act until each env's learner must act (nothing to do in four-seat mode)."""
        deals = self.deals
        assert deals is not None
        if self.seat_choice == "all":
            return
        if self._opponent_policy is not None:
            deals.advance(self.seats, self._opponent_policy, self.np_random)
            return
        assert self._batch_policy is not None
        while True:  # a batched policy: one card per waiting row per round
            waiting = ~deals.done & (deals.current != self.seats)
            if not waiting.any():
                return
            idx = np.flatnonzero(waiting)
            obs = self.encoder.encode(deals, deals.current.astype(np.intp))[idx]
            masks = self._mask_array(deals.legal_masks()[idx])
            cards = np.full(self.num_envs, -2, np.int64)
            cards[idx] = np.asarray(self._batch_policy(obs, masks), dtype=np.int64).reshape(len(idx))
            deals.step(cards, only=waiting)

    @property
    def tables(self) -> VectorDeals | None:
        """Deprecated name of :attr:`deals` (removed in 0.3)."""
        warnings.warn("HeartsVectorEnv.tables is deprecated: use .deals", DeprecationWarning, stacklevel=2)
        return self.deals

    def _acting_seats(self) -> np.ndarray:
        assert self.deals is not None
        return self.deals.current.astype(np.intp) if self.seat_choice == "all" else self.seats.astype(np.intp)

    def _observe(self) -> np.ndarray:
        """(N, D) observations: a new array with ``copy=True``, else the reused buffer."""
        assert self.deals is not None
        return self.encoder.encode(self.deals, self._acting_seats(), out=None if self.copy else self._obs)

    def _final_observations(self, terminated: np.ndarray, actor: np.ndarray) -> np.ndarray:
        """(N, D), the last observation of each terminated env (rows of the others are zeros): only
        those deals are encoded, since one-deal episodes of different lengths end on different steps."""
        assert self.deals is not None
        rows = np.flatnonzero(terminated)
        seats = actor if self.seat_choice == "all" else self._acting_seats()
        final = np.zeros((self.num_envs, self.encoder.size), self.encoder.dtype)
        final[rows] = self.encoder.encode(self.deals.take(rows), seats[rows].astype(np.intp))
        return final

    def _mask_array(self, masks: np.ndarray) -> np.ndarray:
        return unpack_masks(masks, len(self._bits)).view(bool)  # 5x faster than (masks[:, None] & bits) != 0

    def _info(self) -> dict[str, Any]:
        assert self.deals is not None
        return {"action_mask": self.action_masks(), "seat": self._acting_seats().copy()}

    def _deal_rewards(self) -> np.ndarray:
        """(N, 4) rewards of every seat for the finished deals (rows of unfinished deals: 0)."""
        deals = self.deals
        assert deals is not None
        out = deal_end_rewards(self.reward_scheme, deals.points, self.rules.penalty_total)
        return np.where(deals.done[:, None], out, 0.0)


def random_policy(rng: np.random.Generator) -> BatchPolicy:
    """A batched uniformly random policy ``(obs, masks) -> actions`` (for tests and examples)."""
    bits = None

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        nonlocal bits
        if bits is None:
            bits = np.uint64(1) << np.arange(masks.shape[1], dtype=np.uint64)
        packed = np.bitwise_or.reduce(np.where(masks, bits, np.uint64(0)), axis=1)
        return kth_cards(packed, rng.random(len(masks)))

    return act
