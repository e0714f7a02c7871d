"""``apprentice``: a network trained on ``pimc``'s decisions (search data → warm start → PPO); docs/learned.md.

Each module imports only those above it:

- :mod:`.net` — the network (NumPy for play, torch for training), its weights file and the files of a
  trainer's run folder.
- :mod:`.agent` — the registered agent ``apprentice`` (bundled weights by default), and the trainers'
  quick measure of strength against ``heuristic``.
- :mod:`.data` — search data: every decision of four ``pimc`` players (``python -m ...``).
- :mod:`.supervised` — the warm start: the network fitted to the search data (``python -m ...``).
- :mod:`.ppo` — masked PPO from the warm start with self-play (``python -m ...``).
- :mod:`.exploiter` — PPO from the apprentice against three frozen seats of a target (``hearts-env exploit``).
- :mod:`.train` — the whole recipe in one command (``python -m ...``).
- :mod:`.moon` — moon defence: the weights fitted on a searcher's moon positions against xinxin (``python -m ...``).
- :mod:`.outcomes` — outcome data: each card of the apprentice's moon positions against xinxin valued by finishing
  the true deal (``python -m ...``; fitted by ``supervised --anchor``).
- :mod:`.expert` — expert iteration: rounds of the gated searcher's data around the round's apprentice, a fit from it
  and a paired check against xinxin that decides the next round (``python -m ...``).
"""
