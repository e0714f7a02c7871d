"""Deprecated face: OpenSpiel's ISMCTS moved to :mod:`hearts_env.evaluation.reference.openspiel_ismcts`, the room
of the reference seats; this name goes in hearts-env 0.3.0 (CHANGELOG)."""

import warnings

from hearts_env.evaluation.reference.openspiel_ismcts import *  # noqa: F403

warnings.warn("hearts_baselines.search.openspiel_ismcts moved to hearts_env.evaluation.reference.openspiel_ismcts; "
              "the old name goes in hearts-env 0.3.0 (CHANGELOG)", DeprecationWarning, stacklevel=2)
