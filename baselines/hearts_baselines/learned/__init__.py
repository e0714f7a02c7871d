"""Learned baselines: masked PPO and DQN trained on hearts_env, with bundled weights.

Each module imports only those above it:

- :mod:`.masked_dqn` — SB3 DQN with action masking (greedy choice, target max and exploration).
- :mod:`.checkpoints` — checkpoints and their checks, the weights shipped in ``hearts_baselines/weights``,
  and the maintainers' command that bundles one (``python -m ...``).
- :mod:`.agents` — the registered agents ``ppo`` and ``dqn`` (bundled weights by default).
- :mod:`._training` — what the two training commands share: arguments, vector env, self-play snapshots,
  checkpoints with progress, the seeded evaluation.
- :mod:`.train_ppo` / :mod:`.train_dqn` — one training command each (``python -m ...``).

Everything here uses only hearts_env's public API; loading needs the ``train`` extra.
"""
