"""Stable-Baselines3 ``VecEnv`` view of :class:`~hearts_env.vector.env.HeartsVectorEnv`.

    from sb3_contrib import MaskablePPO
    from hearts_env.vector.sb3 import SB3VecEnv

    venv = SB3VecEnv(num_envs=64, opponents="greedy")
    model = MaskablePPO("MlpPolicy", venv, n_steps=64)

SB3 steps all envs with one policy call per step instead of one per env. Terminal
observations go to ``infos[i]["terminal_observation"]`` and ``env_method("action_masks")``
serves MaskablePPO, as SB3 expects. ``dict_obs=True`` gives ``Dict{"observation", "action_mask"}``
observations (int8 mask), as the single-table env does, for masked DQN. Needs the ``train`` extra.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from hearts_env.vector.env import HeartsVectorEnv


class SB3VecEnv(VecEnv):
    """Wraps a :class:`HeartsVectorEnv` (built from the keyword arguments, or given as ``env``)."""

    def __init__(self, env: HeartsVectorEnv | None = None, seed: int | None = None, dict_obs: bool = False,
                 **kwargs: Any):
        self.env = env if env is not None else HeartsVectorEnv(**{"copy": False, **kwargs})
        self.dict_obs = dict_obs
        space = self.env.single_observation_space
        self._n_actions = int(self.env.rules.deck_obj.size)
        if dict_obs:
            n = self._n_actions
            space = spaces.Dict({"observation": space, "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        super().__init__(self.env.num_envs, space, self.env.single_action_space)
        self._seed = seed
        self._actions: np.ndarray | None = None

    def reset(self) -> Any:
        obs, info = self.env.reset(seed=self._seed)
        self._seed = None
        return self._wrap(obs, info["action_mask"])

    def _wrap(self, obs: np.ndarray, masks: np.ndarray) -> Any:
        if self.dict_obs:  # one copy of the env's buffer (copy=False) or of its fresh array
            return {"observation": obs.copy(), "action_mask": masks.astype(np.int8)}
        return obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            final = info["final_obs"][i]
            if self.dict_obs:  # after the deal's end no action is legal
                final = {"observation": final, "action_mask": np.zeros(self._n_actions, np.int8)}
            infos[i] = {"terminal_observation": final, "TimeLimit.truncated": bool(truncated[i])}
            if info.get("_points") is not None and info["_points"][i]:
                infos[i]["points"] = info["points"][i].tolist()
        return self._wrap(obs, info["action_mask"]), rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def close(self) -> None:
        self.env.close()

    def seed(self, seed: int | None = None) -> Sequence[None]:
        self._seed = seed
        return [None] * self.num_envs

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.env, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.env.action_masks()
            return [masks[i] for i in rows]
        result = getattr(self.env, method_name)(*args, **kwargs)
        return [result] * len(rows)

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
