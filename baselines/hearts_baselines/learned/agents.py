"""The registered learned agents ``ppo`` and ``dqn``: bundled weights by default, or a checkpoint path.

    hearts-env arena ppo greedy --deals 1000
    hearts-env arena "ppo(weights='runs/ppo/latest.zip')" heuristic

The checkpoint is verified first (:func:`~hearts_baselines.learned.checkpoints.verify`): a corrupted
file, a file from another hearts-env version or a plain SB3 zip gives a clear error. The
observation encoding comes from the checkpoint's metadata. Needs the ``train`` extra.
"""

from __future__ import annotations

from pathlib import Path

from hearts_baselines.learned.checkpoints import CheckpointError, bundled, load_model, verify
from hearts_env.agents.adapters import SB3Agent


class PPOAgent(SB3Agent):
    """MaskablePPO checkpoint as an agent (greedy action by default)."""

    name = "ppo"
    bundle = "ppo"
    algo = "MaskablePPO"

    def __init__(self, weights: str | None = None, deterministic: bool = True):
        path = str(bundled(self.bundle)) if weights is None else weights
        meta = verify(path)
        self.weights_file = Path(path)
        if meta.get("algo") != self.algo:
            other = {"MaskablePPO": "ppo", "DQN": "dqn"}.get(str(meta.get("algo")))
            use = f"; load it with {other}(weights={path!r})" if other else ""
            raise CheckpointError(f"{self.name}(weights={path!r}): that checkpoint holds a {meta.get('algo')} "
                                  f"model, not {self.algo}{use}")
        self.metadata = meta
        super().__init__(model=load_model(path, meta), observation=meta["observation"],
                         dict_obs=bool(meta.get("dict_obs", False)), deterministic=deterministic)


class DQNAgent(PPOAgent):
    """Masked DQN checkpoint as an agent (Dict observation with the mask)."""

    name = "dqn"
    bundle = "dqn"
    algo = "DQN"

    def __init__(self, weights: str | None = None, deterministic: bool = True):
        super().__init__(weights, deterministic)
