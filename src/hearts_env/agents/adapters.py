"""Adapters: any callable ``(observation, mask) -> action``, and Stable-Baselines3 models, as agents.

Both encode the seat's view with a registered observation encoding (default ``"rich"``, the
same as ``hearts_v0``'s default) and pass the int8 legal-action mask.

>>> from hearts_env.agents import make_agent
>>> agent = make_agent("hearts_env.agents.adapters:PolicyAgent")  # lowest legal card by default
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from hearts_env.actions import integer_action
from hearts_env.agents import Agent, AgentError
from hearts_env.encoders import Encoder
from hearts_env.rules import Rules
from hearts_env.text import TextObservation, make_observation
from hearts_env.views import SeatView


def _lowest_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


class PolicyAgent(Agent):
    """Wraps ``policy(observation, mask) -> action`` (numpy vector, int8 mask of the deck size; with
    ``observation="text"`` the text a language model reads, :mod:`hearts_env.text`). The action must be a card id, a
    Python or NumPy integer: a float, a bool or None is the policy's error, never rounded or read as a card."""

    name = "policy"

    def __init__(self, policy: Callable[[Any, np.ndarray], Any] = _lowest_legal, observation: str = "rich",
                 dtype: str = "float32"):
        super().__init__()
        self.policy = policy
        self.observation = observation
        self.dtype = dtype
        self.encoder: Encoder | TextObservation | None = None

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        super().reset(rules, seat, seed)
        if self.encoder is None or self.encoder.rules != rules:
            self.encoder = make_observation(self.observation, rules, self.dtype)

    def encode(self, view: SeatView) -> tuple[Any, np.ndarray]:
        if self.encoder is None or self.encoder.rules != view.rules:
            self.encoder = make_observation(self.observation, view.rules, self.dtype)
        n = view.rules.deck_obj.size
        mask = np.array([(view.legal >> c) & 1 for c in range(n)], dtype=np.int8)
        observation = self.encoder.encode(view)
        return (observation.copy() if isinstance(observation, np.ndarray) else observation), mask

    def act(self, view: SeatView) -> int:
        observation, mask = self.encode(view)
        action = self.policy(observation, mask)
        card = integer_action(action)
        if card is None:
            raise TypeError(f"the policy returned {action!r:.60}, not a card id: an integer (a float, a bool or None "
                            f"is not one)")
        return card


class SB3Agent(PolicyAgent):
    """A Stable-Baselines3 / sb3-contrib model: a ``.zip`` path (loaded with ``algo``) or a model object.

    Spec: ``"sb3:runs/ppo.zip"`` (MaskablePPO) or ``"sb3:runs/dqn.zip(algo='DQN', observation='paper260')"``.
    MaskablePPO gets the mask through ``action_masks``; models trained on a Dict observation
    (``dict_obs=True``) get ``{"observation", "action_mask"}``.
    """

    name = "sb3"
    ALGOS: ClassVar[dict[str, str]] = {"MaskablePPO": "sb3_contrib", "PPO": "stable_baselines3",
                                       "DQN": "stable_baselines3", "A2C": "stable_baselines3"}

    def __init__(self, path: str | None = None, model: Any = None, algo: str = "MaskablePPO",
                 observation: str = "rich", dict_obs: bool = False, deterministic: bool = True):
        super().__init__(observation=observation)
        if model is None:
            if path is None:
                raise AgentError("SB3Agent needs a model path or a model object")
            model = self._load(path, algo)
            self.weights_file = Path(path)
        self.model = model
        self.dict_obs = dict_obs
        self.deterministic = deterministic
        self.policy = self._predict

    @classmethod
    def _load(cls, path: str, algo: str) -> Any:
        if algo not in cls.ALGOS:
            raise AgentError(f"algo={algo!r} is not supported; valid: {', '.join(cls.ALGOS)}")
        if not Path(path).exists():
            raise AgentError(f"no SB3 model file at {path!r}")
        try:
            module = __import__(cls.ALGOS[algo], fromlist=[algo])
        except ImportError:
            raise AgentError(f"{algo} needs the train extra: pip install 'hearts-env[train]'") from None
        return getattr(module, algo).load(path, device="cpu")

    def reset(self, rules: Rules, seat: int, seed: int | Sequence[int] | None = None) -> None:
        """Also refuses rules whose observations or actions the network cannot take (another deck, or
        an encoding whose size depends on the rules), before a card is played."""
        super().reset(rules, seat, seed)
        if not isinstance(self.encoder, Encoder):
            raise AgentError(f"{self.name}: an SB3 network takes an encoding's vectors, not {self.observation!r}")
        space = getattr(self.model, "observation_space", None)
        if self.dict_obs and space is not None and hasattr(space, "spaces"):
            space = space.spaces.get("observation")
        shape = getattr(space, "shape", None)
        actions = getattr(getattr(self.model, "action_space", None), "n", None)
        trained = getattr(self, "metadata", {}).get("rules")
        under = f" (trained under rules {trained})" if trained else ""
        if shape is not None and tuple(shape) != (self.encoder.size,):
            raise AgentError(f"{self.name}: the network takes {self.observation!r} observations of {tuple(shape)} "
                             f"slots{under}; rules {rules.spec()} give {self.encoder.size}: play it under rules with "
                             f"the same deck and encoding")
        if actions is not None and int(actions) != rules.deck_obj.size:
            raise AgentError(f"{self.name}: the network chooses among {actions} cards{under}; rules {rules.spec()} "
                             f"deal {rules.deck_obj.size}")

    def _predict(self, observation: np.ndarray, mask: np.ndarray) -> int:
        obs: Any = {"observation": observation, "action_mask": mask} if self.dict_obs else observation
        try:
            action, _ = self.model.predict(obs, action_masks=mask.astype(bool), deterministic=self.deterministic)
        except TypeError:  # models without masking support in predict
            action, _ = self.model.predict(obs, deterministic=self.deterministic)
        return int(np.asarray(action).reshape(-1)[0])
