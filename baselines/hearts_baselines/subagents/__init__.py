"""The subagent player of Demirdöver et al. (2022), paper 000 §4.

Five reinforcement-learning value networks (normal, moonshot and moonshot-breaker playing over
``paper260`` states; normal and moonshot passing over ``paper104`` states) and two supervised
decision networks (moonshot, breaker), all one-hidden-layer sigmoid MLPs in plain NumPy trained with
SGD on the mean squared error. ``python -m hearts_baselines.subagents.train`` reproduces the
training pipeline; the trained networks ship as ``hearts_baselines/weights/subagents.npz`` and play
as the agent ``subagents``. See ``docs/subagents.md``.

Modules: ``features`` (states as index rows), ``net`` (the MLP), ``rewards`` (Tables 1–2),
``weights`` (the network set and its verified file), ``policy`` (card choice and style decisions),
``agent`` (the hearts-env agent), ``selfplay``/``tables``/``steps``/``train`` (the training pipeline).
This module imports nothing, so ``train`` can limit BLAS threads before NumPy loads.
"""
