"""Learning curves of paper 004's runs: ``python -m hearts_baselines.tdlambda.plot OUT.png PANEL...``.

Each ``PANEL`` is ``title:label=curve.jsonl,label=curve.jsonl,...`` (the ``<run>.curve.jsonl`` files the
trainer writes). Every curve is the learner's mean task points per deal against three ``heuristic``
seats, window by window, with the break-even line of the task (a quarter of its points: 3.25 for Q♠
or hearts, 6.5 for the game). Needs the ``arena`` extra (matplotlib).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from hearts_baselines.run_args import arg, parse

BREAK_EVEN = {"q": 3.25, "hearts": 3.25, "full": 6.5}


@dataclass
class Args:
    out: Path = arg(positional=True)
    panels: list[str] = arg(help="title:label=path,label=path", positional=True)

    def __post_init__(self) -> None:
        for text in self.panels:
            _, _, curves = text.partition(":")
            pairs = [item.split("=", 1) for item in curves.split(",")]
            if not curves or any(len(p) != 2 for p in pairs):
                raise ValueError(f"a panel is title:label=path,label=path; got {text!r}")
            for _, path in pairs:
                if not Path(path).is_file():
                    raise ValueError(f"no curve file {path!r}")


def read(path: Path) -> tuple[list[int], list[float], list[float]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r["deals"] for r in rows], [r["learner"] for r in rows], [r["opponents"] for r in rows]


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__)
    panels = []
    for text in args.panels:
        title, _, curves = text.partition(":")
        panels.append((title, [item.split("=", 1) for item in curves.split(",")]))
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
