"""hearts-env: an exact, fast, configurable Hearts engine with PettingZoo and Gymnasium environments.

Layers, each importing only the ones before it (docs/architecture.md): cards → rules → tables →
illegal, scoring, events → engine → match, views → encoders, agents, worlds → vector → envs → arena → cli.
"""

# Importing these registers "hearts_env/hearts-v0" with PettingZoo and "hearts_env/Hearts-v0" with Gymnasium.
from hearts_env import hearts_v0, single_agent
from hearts_env.engine import BrokenRule, Deal, DealError, IllegalActionError, Phase
from hearts_env.match import Match
from hearts_env.rules import PRESETS, Rules, RulesError, make_rules
from hearts_env.views import SeatView

__version__ = "0.1.1"

__all__ = ["PRESETS", "BrokenRule", "Deal", "DealError", "IllegalActionError", "Match", "Phase", "Rules", "RulesError",
           "SeatView", "__version__", "hearts_v0", "make_rules", "single_agent"]
