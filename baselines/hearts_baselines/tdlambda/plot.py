"""Learning curves of paper 004's runs: ``python -m hearts_baselines.tdlambda.plot OUT.png PANEL...``.

Each ``PANEL`` is ``title:label=curve.jsonl,label=curve.jsonl,...`` (the ``<run>.curve.jsonl`` files the
trainer writes). Every curve is the learner's mean task points per deal against three ``heuristic``
seats, window by window, with the break-even line of the task (a quarter of its points: 3.25 for Q♠
or hearts, 6.5 for the game). Needs the ``arena`` extra (matplotlib).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

BREAK_EVEN = {"q": 3.25, "hearts": 3.25, "full": 6.5}


def read(path: Path) -> tuple[list[int], list[float], list[float]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r["deals"] for r in rows], [r["learner"] for r in rows], [r["opponents"] for r in rows]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m hearts_baselines.tdlambda.plot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("panels", nargs="+", help="title:label=path,label=path")
    args = parser.parse_args(argv)
    panels = []
    for text in args.panels:
        title, _, curves = text.partition(":")
        pairs = [item.split("=", 1) for item in curves.split(",")]
        if not curves or any(len(p) != 2 for p in pairs):
            parser.error(f"a panel is title:label=path,label=path; got {text!r}")
        for _, path in pairs:
            if not Path(path).is_file():
                parser.error(f"no curve file {path!r}")
        panels.append((title, pairs))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.6), squeeze=False)
    for ax, (title, pairs) in zip(axes[0], panels):
        task = next((t for t in BREAK_EVEN if title.lower().startswith(t)), "full")
        for label, path in pairs:
            deals, learner, _ = read(Path(path))
            ax.plot(deals, learner, label=label)
        ax.axhline(BREAK_EVEN[task], color="grey", linestyle="--", label=f"break-even {BREAK_EVEN[task]}")
        ax.set_title(title)
        ax.set_xlabel("training deals")
        ax.set_ylabel("learner's points per deal vs heuristic")
        ax.legend(fontsize=8)
    fig.tight_layout()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=90)


if __name__ == "__main__":
    main()
