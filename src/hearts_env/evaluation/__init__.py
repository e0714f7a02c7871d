"""The evaluation wing: everything that measures agents, above the environments and never imported by them.

- :mod:`~hearts_env.evaluation.arena`: duplicate-deal tournaments with paired intervals;
- :mod:`~hearts_env.evaluation.seat`: both ends of the seat protocol (agents in programs of their own), the
  sandbox and the host, and the ``seat:`` and ``hosted:`` spec schemes;
- :mod:`~hearts_env.evaluation.benchmark`: hearts-bench (suite, runner, statistics, checks, report, verify);
- :mod:`~hearts_env.evaluation.reference`: the reference seats from outside hearts-env (xinxin, OpenSpiel's ISMCTS);
- :mod:`~hearts_env.evaluation.exploit`: the exploit track and its probes;
- :mod:`~hearts_env.evaluation.records`: the game-record format ``hearts-record/1``.

docs/architecture.md has the wing's own layer line.
"""
