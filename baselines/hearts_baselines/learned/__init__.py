"""Learned baselines: masked PPO and DQN trained on hearts_env, with bundled weights.

- :mod:`.masked_dqn` — SB3 DQN with action masking (greedy choice, target max and exploration).
- :mod:`.train_ppo` / :mod:`.train_dqn` — one training command each (``python -m ...``).
- :mod:`.checkpoints` — the weights shipped in ``hearts_baselines/weights`` and their checks.
- :mod:`.agents` — the registered agents ``ppo`` and ``dqn`` (bundled weights by default).

Everything here uses only hearts_env's public API; loading needs the ``train`` extra.
"""
