"""hearts-env: an exact, fast, configurable Hearts engine with PettingZoo and Gymnasium environments.

Layers, each importing only the ones before it (docs/architecture.md, checked by
tests/test_architecture.py): cards → rules → tables → engine → views → encoders → agents → vector →
envs → arena → cli. Importing the engine loads neither Gymnasium nor PettingZoo: the envs register
with both lazily (:mod:`hearts_env.registration`).
"""

from typing import TYPE_CHECKING, Any

from hearts_env.engine import BrokenRule, Deal, DealError, IllegalActionError, Phase
from hearts_env.match import Match
from hearts_env.moved import install as _install_moved
from hearts_env.registration import register_envs
from hearts_env.rules import PRESETS, Rules, RulesError, make_rules
from hearts_env.views import SeatView

__version__ = "0.1.2"

if TYPE_CHECKING:
    from hearts_env import hearts_v0, single_agent

# "hearts_env/Hearts-v0" with Gymnasium, "hearts_env/hearts-v0" with PettingZoo, without importing either
register_envs()
# the old names of the modules that moved into hearts_env.evaluation, for one release
_install_moved()


def __getattr__(name: str) -> Any:
    """The env modules load on first use (``hearts_env.hearts_v0``): the engine needs neither Gymnasium
    nor PettingZoo."""
    if name in ("hearts_v0", "single_agent"):
        import importlib

        return importlib.import_module(f"hearts_env.{name}")
    raise AttributeError(f"module 'hearts_env' has no attribute {name!r}")

__all__ = ["PRESETS", "BrokenRule", "Deal", "DealError", "IllegalActionError", "Match", "Phase", "Rules", "RulesError",
           "SeatView", "__version__", "hearts_v0", "make_rules", "single_agent"]
