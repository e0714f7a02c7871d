"""Search baselines over hearts_env's public API, registered as agents:

- ``pimc`` (:mod:`.pimc`) — perfect-information Monte Carlo: sampled worlds, every candidate card
  scored by batched rollouts (the Dutch thesis's rollout agent with its ``n``/``m``/``policy``);
- ``mcts`` (:mod:`.tree`) — paper 002 §2.2: UCT (C = √2) on random determinizations;
- ``ismcts`` (:mod:`.tree`) — single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012);
- ``maxn`` (:mod:`.maxn`) — depth-limited max^n inside Monte Carlo sampling (paper 004 §2.6);
- ``openspiel-ismcts`` (:mod:`.openspiel_ismcts`) — OpenSpiel's C++ ISMCTS bot on the mirrored deal;
- ``apprentice-search`` (:mod:`.apprentice_search`) — the ``apprentice`` network, with ``pimc`` deciding where a moon
  may still be on.

Worlds come from :mod:`hearts_env.worlds`; batched rollouts from :mod:`hearts_env.vector` (Numba
when installed, NumPy otherwise); the budget, passing and rollouts they share from
:mod:`hearts_baselines.search_common`.
"""
