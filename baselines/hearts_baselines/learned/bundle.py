"""Copy a trained checkpoint into the package as bundled weights (maintainers' tool).

    python -m hearts_baselines.learned.bundle runs/ppo/latest.zip --name ppo \\
        --note "trained 58 min on 2 cores: python -m hearts_baselines.learned.train_ppo ..."

The checkpoint is verified first; only its policy network is kept (no optimizer state or rollout
settings: a third of the size), saved as ``weights/NAME.zip`` beside ``weights/NAME.json`` (its
metadata with ``"kind": "policy"``, the note, and the checksum recomputed).
"""

from __future__ import annotations

import argparse
import json

from hearts_baselines.learned.checkpoints import WEIGHTS_DIR, load_model, verify, write_metadata


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("checkpoint", help="a verified checkpoint (.zip beside its .json)")
    p.add_argument("--name", required=True, help="bundle name: the agent's default weights (ppo, dqn)")
    p.add_argument("--note", default="", help="provenance: how it was trained, how long")
    args = p.parse_args(argv)
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
