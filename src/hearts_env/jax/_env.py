"""``HeartsJaxEnv``: an episode (one deal, or a game to the target) with pgx's ``Env`` interface.

``init(key)`` and ``step(state, action, key=None)`` return an :class:`EnvState` holding pgx's ``State`` fields
(``current_player``, ``observation``, ``rewards``, ``terminated``, ``truncated``, ``legal_action_mask``, and
``_step_count`` as ``step_count``: a NamedTuple field cannot start with ``_``) beside the deal and the game.
Rewards follow ``hearts_v0``'s schemes (:mod:`hearts_env.rewards`), paid the step they are earned. pgx's own
conventions where hearts_v0 has none: a step on a finished episode changes nothing and pays 0, and a finished
episode's mask is all True. An illegal action ends the episode with -1 to its seat and 0 to the others
(hearts_v0's ``illegal_action="terminate"``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax  # type: ignore[import-not-found, unused-ignore]  # the optional jax extra
import jax.numpy as jnp  # type: ignore[import-not-found, unused-ignore]

from hearts_env.jax._engine import DONE, State, draw_direction, init, legal_action_mask, step, trick_points
from hearts_env.jax._observe import observation_size, observe
from hearts_env.jax._rules import RulesData, rules_data
from hearts_env.rewards import REWARD_SCHEMES, check_scheme
from hearts_env.rules import Rules, make_rules

__all__ = ["EnvState", "HeartsJaxEnv"]


class EnvState(NamedTuple):
    """An episode's state: pgx's ``State`` fields, the deal, and the game around it."""

    current_player: Any  # int32: the seat to act (the last one to act once the episode is over)
    observation: Any  # float32[size]: what current_player observes
    rewards: Any  # float32[4]: what each seat earned in the last step
    terminated: Any  # bool
    truncated: Any  # bool (never set: every episode ends)
    legal_action_mask: Any  # bool[n] (all True once terminated, as pgx)
    step_count: Any  # int32 (pgx's _step_count, also readable under that name)
    deal: State
    scores: Any  # int32[4]: the game's scores, finished deals only
    deal_index: Any  # int32
    paid: Any  # float32[4]: what "dense" paid during the current deal
    key: Any  # uint32[2]: the data of the (threefry) key that shuffles the game's next deals

    @property
    def _step_count(self) -> Any:
        return self.step_count

    def replace(self, **changes: Any) -> EnvState:
        """pgx's ``State.replace`` (``NamedTuple._replace``)."""
        return self._replace(**changes)


class HeartsJaxEnv:
    """Hearts episodes under ``rules``, observed with ``observation`` (``"rich"`` or ``"paper260"``), paid
    with ``reward`` (a :data:`hearts_env.rewards.REWARD_SCHEMES` name). ``rules.game`` says whether an
    episode is one deal or a game to ``rules.target`` (dealer rotation and the passing schedule as
    :class:`hearts_env.match.Match`). The rules are data (``self.rules_data``); every method is pure."""

    id = "hearts"
    version = "v0"
    num_players = 4

    def __init__(self, rules: Rules | str | None = None, observation: str = "rich", reward: str = "points"):
        self.rules: Rules = make_rules(rules)
        self.rules_data: RulesData = rules_data(self.rules)
        check_scheme(reward, tuple(REWARD_SCHEMES))
        self.reward = reward
        self.observation = observation
        self.size = observation_size(observation, self.rules_data.n)

    @property
    def num_actions(self) -> int:
        return self.rules_data.n

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.size,)

    def observe(self, state: EnvState, player_id: Any = None) -> Any:
        """The observation of ``player_id`` (default: the seat to act)."""
        seat = state.current_player if player_id is None else player_id
        return observe(state.deal, seat, self.rules_data, self.observation)

    def init(self, key: Any) -> EnvState:
        """A new episode: its first deal shuffled with ``key``."""
        state = self.init_unobserved(key)
        return state._replace(observation=self.observe(state))

    def init_unobserved(self, key: Any) -> EnvState:
        """:meth:`init` without building the observation (it stays zero): for a caller that plays other
        seats first and builds the observation once, when its own seat is to act (:meth:`observed`)."""
        r = self.rules_data
        k_deal, k_game = jax.random.split(key)
        first = jnp.where(r.match & (r.n_schedule > 0), r.schedule[0], -1)
        deal = self._deal(k_deal, first, jnp.int32(3), jnp.zeros(4, jnp.int32))
        return self._mask(EnvState(
            current_player=deal.current, observation=jnp.zeros(self.size, jnp.float32),
            rewards=jnp.zeros(4, jnp.float32), terminated=jnp.bool_(False), truncated=jnp.bool_(False),
            legal_action_mask=jnp.zeros(r.n, bool), step_count=jnp.int32(0), deal=deal,
            scores=jnp.zeros(4, jnp.int32), deal_index=jnp.int32(0), paid=jnp.zeros(4, jnp.float32),
            key=_key_data(k_game)))

    def _deal(self, key: Any, direction: Any, dealer: Any, scores: Any) -> State:
        """A shuffled deal passing in ``direction`` (-1: drawn from the rules' one-deal directions)."""
        k_deal, k_dir = jax.random.split(key)
        drawn = draw_direction(k_dir, self.rules_data)
        return init(k_deal, self.rules_data, jnp.where(direction < 0, drawn, direction), dealer, scores)

    def _mask(self, state: EnvState) -> EnvState:
        mask = jnp.where(state.terminated, True, legal_action_mask(state.deal, self.rules_data))
        return state._replace(legal_action_mask=mask)

    def observed(self, state: EnvState) -> EnvState:
        """``state`` with the observation of its seat to act."""
        return state._replace(observation=self.observe(state))

    def step(self, state: EnvState, action: Any, key: Any = None) -> EnvState:
        """The seat to act passes or plays ``action``. ``key`` (optional, as pgx's) reseeds the game's next
        deals; without it they come from the state's own key."""
        return self.observed(self.step_unobserved(state, action, key))

    def step_unobserved(self, state: EnvState, action: Any, key: Any = None) -> EnvState:
        """:meth:`step` without building the observation (it keeps the previous one): for seats whose
        observation nobody reads, such as scripted opponents (the observation is most of a step's cost)."""
        if key is not None:
            state = state._replace(key=_key_data(key))
        action = jnp.asarray(action, jnp.int32)
        illegal = ~state.legal_action_mask[action]
        stepped = self._step(state._replace(step_count=state.step_count + 1), action)
        offender = jnp.arange(4) == state.current_player
        punished = state._replace(terminated=jnp.bool_(True), rewards=jnp.where(offender, -1.0, 0.0).astype(
            jnp.float32), step_count=state.step_count + 1)
        new = jax.tree_util.tree_map(lambda a, b: jnp.where(illegal, a, b), punished, stepped)
        over = state.terminated
        new = jax.tree_util.tree_map(lambda a, b: jnp.where(over, a, b),
                                     state._replace(rewards=jnp.zeros(4, jnp.float32)), new)
        return self._mask(new)

    def _step(self, state: EnvState, action: Any) -> EnvState:
        r = self.rules_data
        before = state.deal
        deal = step(before, action, r)
        rewards = jnp.zeros(4, jnp.float32)
        paid = state.paid
        if self.reward == "dense":  # -points of each trick to its winner, as it completes
            done_trick = deal.trick_index > before.trick_index
            cards = jnp.bitwise_xor(deal.taken, before.taken)  # only the winner's row changed
            winner = jnp.argmax((cards != 0).any(-1))
            trick = jnp.where(jnp.arange(4) == winner, -trick_points(cards[winner], r).astype(jnp.float32), 0.0)
            trick = jnp.where(done_trick, trick, 0.0)
            rewards, paid = rewards + trick, paid + trick
        deal_over = deal.phase == DONE
        points = deal.points.astype(jnp.float32)
        end = {"points": -points, "openspiel": r.penalty_total.astype(jnp.float32) - points,
               "zero_sum": points.mean() - points, "dense": -points - paid}.get(self.reward, jnp.zeros(4))
        rewards = rewards + jnp.where(deal_over, end, 0.0)
        scores = jnp.where(deal_over, state.scores + deal.points, state.scores)
        game_over = deal_over & (~r.match | (scores.max() >= r.target))
        if self.reward in ("win", "rank"):
            rewards = rewards + jnp.where(game_over, _final_rewards(self.reward, scores), 0.0)
        index = state.deal_index + 1
        if self.rules.game == "deal":  # no next deal: skip its shuffle
            return state._replace(
                deal=deal, rewards=rewards.astype(jnp.float32), terminated=game_over, scores=scores,
                paid=jnp.where(deal_over, 0.0, paid),
                current_player=jnp.where(game_over, state.current_player, deal.current).astype(jnp.int32))
        # the game's next deal (dealer rotation, the passing schedule), when the game goes on
        k_next, k_rest = jax.random.split(jax.random.wrap_key_data(state.key))
        direction = jnp.where(r.n_schedule > 0, r.schedule[index % jnp.maximum(r.n_schedule, 1)], -1)
        following = self._deal(k_next, direction, (3 + index) % 4, scores)
        next_deal = deal_over & ~game_over
        deal = jax.tree_util.tree_map(lambda a, b: jnp.where(next_deal, a, b), following, deal)
        return state._replace(
            deal=deal, rewards=rewards.astype(jnp.float32), terminated=game_over, scores=scores,
            deal_index=jnp.where(next_deal, index, state.deal_index), paid=jnp.where(deal_over, 0.0, paid),
            key=jnp.where(next_deal, _key_data(k_rest), state.key),
            current_player=jnp.where(game_over, state.current_player, deal.current).astype(jnp.int32))


def _key_data(key: Any) -> Any:
    """The raw data of a key (typed keys do not go through ``jnp.where``)."""
    return jax.random.key_data(key) if jnp.issubdtype(key.dtype, jax.dtypes.prng_key) else key


def _final_rewards(scheme: str, scores: Any) -> Any:
    """``win`` / ``rank`` rewards from final scores, as :func:`hearts_env.rewards.final_rewards`."""
    low = scores.min()
    if scheme == "win":
        winners = scores == low
        return jnp.where(winners, 1.0 / winners.sum(), 0.0)
    better = (scores[None, :] < scores[:, None]).sum(1)
    tied = (scores[None, :] == scores[:, None]).sum(1)
    return 1.0 - 2.0 * (better + (tied - 1) / 2) / 3.0
