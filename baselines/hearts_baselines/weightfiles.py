"""Weights files of the NumPy baselines: a compressed ``.npz`` of arrays beside a JSON header that names
the file's format, read back with a clear error for a missing, foreign or damaged file."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np


def save_npz(path: str | Path, header: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` and the JSON ``header`` (which holds ``"format"``) to ``path``, folders included."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:  # a file object: np.savez would append ".npz" to a path without it
        savez: Any = np.savez_compressed  # typed as if every keyword were allow_pickle
        savez(f, header=np.array(json.dumps(dict(header))), **arrays)


def load_npz(path: str | Path, fmt: str, kind: str,
             required: Sequence[str] = ()) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(header, arrays) of a file :func:`save_npz` wrote in format ``fmt`` with the ``required`` arrays;
    ``kind`` names the files in errors (``"tdlambda"``: "... is not a tdlambda weights file ...")."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{kind} weights {str(path)!r} do not exist")
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            if not isinstance(header, dict) or header.get("format") != fmt:
                found = header.get("format") if isinstance(header, dict) else None
                raise ValueError(f"format {found!r}, expected {fmt!r}")
            missing = [name for name in required if name not in data.files]
            if missing:
                raise ValueError(f"arrays {', '.join(missing)} missing")
            arrays = {name: data[name] for name in data.files if name != "header"}
    except (ValueError, KeyError, OSError, EOFError, json.JSONDecodeError) as exc:
        raise ValueError(f"{str(path)!r} is not a {kind} weights file ({fmt}): {exc}") from None
    return header, arrays
