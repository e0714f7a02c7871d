"""Checkpoints with a metadata sidecar: format version, hearts-env version, checksum, provenance.

A checkpoint is ``NAME.zip`` (an SB3 model) beside ``NAME.json``::

    {"format": 1, "hearts_env": "0.3.0", "algo": "MaskablePPO", "observation": "rich",
     "rules": "standard(game=deal)", "sha256": "...", "command": "...", "figures": {...}}

:func:`verify` refuses a file whose checksum does not match (corrupted or replaced), whose format
is unknown, or that was made by another major.minor version of hearts-env (observations and
action ids may differ), each with a message naming the file and what to do.

The bundled weights are checkpoints in ``hearts_baselines/weights`` (:func:`bundled`); maintainers make
one from a trained checkpoint with this module's command (:func:`main`).
"""

from __future__ import annotations

import hashlib
import inspect
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import hearts_env
from hearts_baselines.run_args import arg, parse

FORMAT = 1
WEIGHTS_DIR = Path(__file__).resolve().parent.parent / "weights"


class CheckpointError(ValueError):
    """A missing, corrupted, foreign or incompatible checkpoint."""


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


def write_metadata(model_path: str | Path, **fields: Any) -> Path:
    """Write ``NAME.json`` beside ``model_path`` (checksum and versions filled in)."""
    model_path = Path(model_path)
    meta = {"format": FORMAT, "hearts_env": hearts_env.__version__, "sha256": sha256(model_path), **fields}
    out = model_path.with_suffix(".json")
    out.write_text(json.dumps(meta, indent=2) + "\n")
    return out


def verify(model_path: str | Path) -> dict[str, Any]:
    """The metadata of a checkpoint after checking it (see the module docstring)."""
    model_path = Path(model_path)
    meta_path = model_path.with_suffix(".json")
    if not model_path.exists():
        raise CheckpointError(f"no checkpoint at {model_path}")
    if not meta_path.exists():
        raise CheckpointError(f"{model_path} has no metadata file {meta_path.name}: not a hearts_baselines "
                              f"checkpoint (load plain SB3 models with the agent spec 'sb3:{model_path}')")
    try:
        meta = json.loads(meta_path.read_text())
    except json.JSONDecodeError as err:
        raise CheckpointError(f"{meta_path} is not valid JSON ({err})") from None
    if meta.get("format") != FORMAT:
        raise CheckpointError(f"{model_path}: checkpoint format {meta.get('format')!r}, this version reads "
                              f"format {FORMAT}; retrain or use the hearts-env version that wrote it")
    made_by = str(meta.get("hearts_env", "?"))
    if _minor(made_by) != _minor(hearts_env.__version__):
        raise CheckpointError(f"{model_path} was trained with hearts-env {made_by}; this is "
                              f"{hearts_env.__version__} (observations may differ): retrain, or install {made_by}")
    if sha256(model_path) != meta.get("sha256"):
        raise CheckpointError(f"{model_path} is corrupted or was replaced: its SHA-256 does not match "
                              f"{meta_path.name}; reinstall the package or retrain")
    return meta


def bundled(name: str) -> Path:
    """Path of the bundled checkpoint ``name`` (``ppo``, ``dqn``)."""
    path = WEIGHTS_DIR / f"{name}.zip"
    if not path.exists():
        available = sorted(p.stem for p in WEIGHTS_DIR.glob("*.zip"))
        raise CheckpointError(f"no bundled weights named {name!r}; available: {', '.join(available) or 'none'}")
    return path


def load_model(path: str | Path, meta: dict[str, Any]) -> Any:
    """The SB3 object of a verified checkpoint: a whole model, or a bare policy (``"kind": "policy"``,
    as bundled). Both answer ``predict(obs, ..., deterministic=)``; MaskablePPO ones take
    ``action_masks=``. Needs the ``train`` extra."""
    algo, kind = meta.get("algo"), meta.get("kind", "model")
    try:
        return _load(path, algo, kind)
    except ImportError as e:
        raise CheckpointError(f"{path}: loading a {algo} checkpoint needs the train extra ({e}): "
                              f"pip install 'hearts-env[train]'") from None


def _load(path: str | Path, algo: Any, kind: str) -> Any:
    if algo == "MaskablePPO":
        from sb3_contrib import MaskablePPO
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        cls: Any = MaskableActorCriticPolicy if kind == "policy" else MaskablePPO
    elif algo == "DQN":
        from hearts_baselines.learned.masked_dqn import MaskedDQN, MaskedDQNPolicy

        cls = MaskedDQNPolicy if kind == "policy" else MaskedDQN
    else:
        raise CheckpointError(f"{path}: unknown algo {algo!r} in its metadata (MaskablePPO or DQN)")
    return cls.load(str(path), device="cpu")


@dataclass
class Args:
    checkpoint: str = arg(help="a verified checkpoint (.zip beside its .json)", positional=True)
    name: str = arg(help="bundle name: the agent's default weights (ppo, dqn)")
    note: str = arg("", "provenance: how it was trained, how long")


def main(argv: list[str] | None = None) -> None:
    """Copy a trained checkpoint into the package as bundled weights (maintainers' tool).

        python -m hearts_baselines.learned.checkpoints runs/ppo/latest.zip --name ppo \\
            --note "trained 58 min on 2 cores: python -m hearts_baselines.learned.train_ppo ..."

    The checkpoint is verified first; only its policy network is kept (no optimizer state or rollout
    settings: a third of the size), saved as ``weights/NAME.zip`` beside ``weights/NAME.json`` (its
    metadata with ``"kind": "policy"``, the note, and the checksum recomputed).
    """
    args = parse(Args, argv, inspect.cleandoc(main.__doc__ or ""))
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
