"""pytest's doctest collection over src/ (``make test`` runs ``--doctest-modules``) skips hearts_env.jax where JAX
is not installed: it is the optional ``jax`` extra, whose doctests and tests ``make test-jax`` runs."""

import importlib.util

collect_ignore_glob = [] if importlib.util.find_spec("jax") else ["hearts_env/jax/*.py"]
