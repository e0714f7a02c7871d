"""What an expert-iteration round's labels teach: how often the teacher overrode the apprentice, and what fits learn.

    python lab/measurements/expert_labels.py runs/expert/round-1 [NAME=WEIGHTS.npz ...]

Reads the round's two data folders (``xinxin``, ``dagger``; docs/learned.md, "Expert iteration") and prints, for the
playing decisions (each has more than one legal card): how often the teacher's card differs from the bundled
apprentice's; and on the deals the fit holds out (``supervised.split``), for each network — the apprentice, the
round's fit (``ROUND/fit/apprentice.npz``) and any other fit named — its agreement with the teacher's card, where it
departs from the apprentice's card, and the mean of the search's per-card values (points the seat takes, by the
teacher's rollouts) of the card it would play. The teacher's own card is valued on the worlds that chose it, so its
figure is biased in its favour.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from hearts_baselines.apprentice.agent import BUNDLED, choose
from hearts_baselines.apprentice.net import NumpyNet, as_float
from hearts_baselines.apprentice.supervised import load_data, split
from hearts_env.engine import Phase
from hearts_env.rules import make_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("round", help="the round's folder, e.g. runs/expert/round-1")
    parser.add_argument("fits", nargs="*", help="NAME=WEIGHTS.npz: further fits to set beside the round's")
    args = parser.parse_args()
    rules = make_rules("openspiel")  # expert iteration's rules
    round_dir = Path(args.round)
    nets = {"apprentice (bundled)": Path(BUNDLED), "the round's fit": round_dir / "fit" / "apprentice.npz"}
    for spec in args.fits:
        name, _, path = spec.partition("=")
        if not path:
            parser.error(f"{spec!r}: name each fit as NAME=WEIGHTS.npz")
        nets[name] = Path(path)
    for path in nets.values():
        if not path.is_file():
            parser.error(f"{path}: no such weights file")
    data, _ = load_data(f"{round_dir / 'xinxin'},{round_dir / 'dagger'}")
    x = as_float(data["obs"], rules).astype(np.float32)
    play = (data["phase"] == int(Phase.PLAY)) & (data["legal"].sum(axis=1) > 1)
    label, values = data["action"], data["values"]
    picks = {name: choose(NumpyNet.load(path), x, data["legal"], "policy") for name, path in nets.items()}
    apprentice = picks["apprentice (bundled)"]
    print(f"{len(label):,} decisions, {int(play.sum()):,} plays with more than one legal card; the teacher overrode "
          f"the apprentice's card at {np.mean(apprentice[play] != label[play]):.1%} of them")
    _, held = split(data)
    rows = held[play[held]]
    print(f"held-out plays: {len(rows):,}; the teacher's card is worth "
          f"{np.nanmean(values[rows, label[rows]]):.3f} points by its rollouts")
    for name, pick in picks.items():
        line = (f"  {name}: agrees with the teacher at {np.mean(pick[rows] == label[rows]):.1%}, its card worth "
                f"{np.nanmean(values[rows, pick[rows]]):.3f}")
        moved = rows[pick[rows] != apprentice[rows]]
        if len(moved):
            line += (f"; differs from the apprentice at {len(moved) / len(rows):.1%} of them, to the teacher's card "
                     f"at {np.mean(pick[moved] == label[moved]):.0%} of those")
        print(line)


if __name__ == "__main__":
    main()
