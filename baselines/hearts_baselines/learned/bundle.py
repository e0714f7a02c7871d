"""Copy a trained checkpoint into the package as bundled weights (maintainers' tool).

    python -m hearts_baselines.learned.bundle runs/ppo/latest.zip --name ppo \\
        --note "trained 58 min on 2 cores: python -m hearts_baselines.learned.train_ppo ..."

The checkpoint is verified first; only its policy network is kept (no optimizer state or rollout
settings: a third of the size), saved as ``weights/NAME.zip`` beside ``weights/NAME.json`` (its
metadata with ``"kind": "policy"``, the note, and the checksum recomputed).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from hearts_baselines.learned.checkpoints import WEIGHTS_DIR, load_model, verify, write_metadata
from hearts_baselines.run_args import arg, parse


@dataclass
class Args:
    checkpoint: str = arg(help="a verified checkpoint (.zip beside its .json)", positional=True)
    name: str = arg(help="bundle name: the agent's default weights (ppo, dqn)")
    note: str = arg("", "provenance: how it was trained, how long")


def main(argv: list[str] | None = None) -> None:
    args = parse(Args, argv, __doc__)
    meta = verify(args.checkpoint)
    target = WEIGHTS_DIR / f"{args.name}.zip"
    WEIGHTS_DIR.mkdir(exist_ok=True)
    load_model(args.checkpoint, meta).policy.save(target)
    fields = {k: v for k, v in meta.items() if k not in ("format", "hearts_env", "sha256")}
    fields["kind"] = "policy"
    if args.note:
        fields["note"] = args.note
    out = write_metadata(target, **fields)
    print(f"bundled {target} ({target.stat().st_size / 1024:.0f} KiB) with {out.name}: {json.dumps(fields)[:200]}")


if __name__ == "__main__":
    main()
