"""Stable-Baselines3 DQN with action masking.

SB3's DQN has no masking, so this module adds it in the three places it matters:

1. the observation is a Dict carrying the legal-action mask (``dict_obs=True`` in the env);
2. the Q-network fills illegal actions' Q-values with ``ILLEGAL_Q``, so both the greedy choice
   and the target's max over the next state's actions (the target network is the same class, fed
   the next observation and so the next mask) only see legal actions;
3. exploration (ε-greedy and the random warm-up) samples among legal actions only.

The classes live at module level so that saved models load by reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from stable_baselines3 import DQN
from stable_baselines3.dqn.policies import MultiInputPolicy, QNetwork

ILLEGAL_Q = -1e8


class MaskedQNetwork(QNetwork):
    """Q-values with illegal actions pushed to ``ILLEGAL_Q``."""

    def forward(self, obs: dict[str, Any]) -> Any:  # type: ignore[override]  # a Dict observation only
        q = super().forward(obs)
        return q.masked_fill(obs["action_mask"] < 0.5, ILLEGAL_Q)


class MaskedDQNPolicy(MultiInputPolicy):
    """DQN policy whose online and target networks are :class:`MaskedQNetwork`."""

    def make_q_net(self) -> MaskedQNetwork:
        net_args = self._update_features_extractor(self.net_args, features_extractor=None)
        return MaskedQNetwork(**net_args).to(self.device)


class MaskedDQN(DQN):
    """DQN exploring among legal actions only (see the module docstring)."""

    def _legal_sample(self, masks: np.ndarray) -> np.ndarray:
        return np.array([self._explore_rng.choice(np.flatnonzero(m)) for m in masks.reshape(-1, masks.shape[-1])])

    @property
    def _explore_rng(self) -> np.random.Generator:
        if not hasattr(self, "_rng"):
            self._rng = np.random.default_rng(self.seed)
        return self._rng

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None,
                deterministic: bool = False) -> tuple[np.ndarray, Any]:
        if not deterministic and self._explore_rng.random() < self.exploration_rate:
            masks = np.asarray(observation["action_mask"])
            actions = self._legal_sample(masks)
            return (actions if masks.ndim > 1 else actions[0]), state
        return self.policy.predict(observation, state, episode_start, deterministic)

    def _sample_action(self, learning_starts: int, action_noise: Any = None, n_envs: int = 1) -> tuple[Any, Any]:
        if self.num_timesteps < learning_starts:
            assert isinstance(self._last_obs, dict)  # a Dict observation carrying the mask
            action = self._legal_sample(self._last_obs["action_mask"])
        else:
            action, _ = self.predict(self._last_obs, deterministic=False)
        return action, action


def build_masked_dqn(env: Any, seed: int = 0, learning_starts: int = 1000, **kwargs: Any) -> MaskedDQN:
    """A masked DQN for a Dict-observation env (defaults tuned for one-deal Hearts episodes)."""
    params: dict[str, Any] = {"buffer_size": 50_000, "batch_size": 64, "gamma": 1.0, "exploration_fraction": 0.3,
                              "target_update_interval": 1000, "train_freq": 4, "verbose": 0, "device": "cpu"}
    params.update(kwargs)
    return MaskedDQN(MaskedDQNPolicy, env, seed=seed, learning_starts=learning_starts, **params)
