"""The subagent player of Demirdöver et al. (2022), paper 000 §4.

Five reinforcement-learning value networks (normal, moonshot and moonshot-breaker playing over
``paper260`` states; normal and moonshot passing over ``paper104`` states) and two supervised
decision networks (moonshot, breaker), all one-hidden-layer sigmoid MLPs in plain NumPy trained with
SGD on the mean squared error. ``python -m hearts_baselines.subagents.train`` reproduces the
training pipeline; the trained networks ship as ``hearts_baselines/weights/subagents.npz`` and play
as the agent ``subagents``. See ``docs/subagents.md``.

Modules, each importing only those before it: ``samples`` (states as index rows, the rewards of
Tables 1–2, training samples), ``networks`` (the MLP, its SGD, the network set and its verified
file), ``agent`` (card choice and style decisions, and the hearts-env agent), ``selfplay`` (training
deals played one at a time or batched, turned into samples), ``steps`` (the pipeline's reinforcement
and decision steps), ``train`` (the command that runs them); ``moonstats`` (decision-level moon
statistics of a trained player).
This module imports nothing, so ``train`` can limit BLAS threads before NumPy loads.
"""
