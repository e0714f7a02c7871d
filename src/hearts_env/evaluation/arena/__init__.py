"""Arena: duplicate-deal tournaments with paired confidence intervals.

Hearts is noisy, so every deal is played in several seatings and agents are compared on the
same deals (docs/arena.md, "Duplicate deals"):

- one agent spec: four copies (the break-even check: every seat's mean must be the table mean);
- two specs: the 14 seatings that mix both types (Sturtevant & White 2006, §2.5);
- four specs: the 4 rotations of the given order.

Each (deal, seating) game is one JSONL record (seed, seating, points, moon, agent specs,
package version, the dealt hands and every pass and play, so :func:`replay_record` rebuilds
it); :func:`run_arena` streams records as they finish and, with ``resume=True``,
skips the ones already in the file, so an interrupted run loses nothing and counts nothing
twice. Per agent, :func:`summarize` gives the mean points per deal with a 95% bootstrap
interval over deals, and for each pair of agents the paired difference.
"""

from hearts_env.evaluation.arena.game import (
           moon_attempts,
           pass_direction_of,
           play_game,
           replay_record,
           seatings,
           solo_seatings,
)
from hearts_env.evaluation.arena.runner import read_records, run_arena
from hearts_env.evaluation.arena.stats import bootstrap_interval, format_summary, per_deal_points, summarize

__all__ = ["bootstrap_interval", "format_summary", "moon_attempts", "pass_direction_of", "per_deal_points",
           "play_game", "read_records", "replay_record", "run_arena", "seatings", "solo_seatings", "summarize"]
