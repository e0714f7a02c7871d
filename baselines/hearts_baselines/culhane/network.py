"""Culhane's Q-network: dense layers with LeakyReLU(0.03) to one linear output, in PyTorch.

The paper lists nine hidden layers, :data:`PAPER_HIDDEN` (it says "8 layers"; we follow the explicit
sizes) — about 5.7 M weights, days of training on these CPUs. :data:`CPU_HIDDEN` is the scaled-down
network trained here (docs/culhane.md says what was scaled and why). Files hold the layer sizes,
the weights and how they were trained; :func:`load` refuses anything else by name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

FORMAT = "hearts_baselines.culhane/1"
INPUTS = 217
PAPER_HIDDEN = (2048, 1024, 1024, 1024, 512, 512, 256, 256, 256)
CPU_HIDDEN = (256, 256, 128, 128)
SLOPE = 0.03
"""LeakyReLU's negative slope (the paper's α)."""


def build(hidden: tuple[int, ...] = CPU_HIDDEN, inputs: int = INPUTS) -> Any:
    """A fresh ``torch.nn.Sequential``: ``inputs`` → hidden layers (LeakyReLU 0.03) → 1 (PyTorch's
    default initialisation; the paper does not give one)."""
    import torch

    if not hidden or any(isinstance(h, bool) or not isinstance(h, int) or h < 1 for h in hidden):
        raise ValueError(f"culhane: hidden layer sizes must be positive integers, got {hidden!r}")
    layers: list[Any] = []
    width = inputs
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.LeakyReLU(SLOPE)]
        width = h
    layers.append(torch.nn.Linear(width, 1))
    return torch.nn.Sequential(*layers)


def q_values(net: Any, rows: np.ndarray, chunk: int = 65_536) -> np.ndarray:
    """(R,) float64 Q of state-action ``rows`` (R, 217), without gradients."""
    import torch

    out = np.empty(len(rows))
    with torch.no_grad():
        for start in range(0, len(rows), chunk):
            x = torch.as_tensor(np.asarray(rows[start:start + chunk], dtype=np.float32))
            out[start:start + chunk] = net(x)[:, 0].numpy()
    return out


def save(path: str | Path, net: Any, hidden: tuple[int, ...], meta: dict[str, Any]) -> None:
    import torch

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"format": FORMAT, "hidden": list(hidden), "meta": meta,
                "state": {k: v.detach().clone() for k, v in net.state_dict().items()}}, path)


def load(path: str | Path) -> tuple[Any, tuple[int, ...], dict[str, Any]]:
    """(network in eval mode, hidden sizes, meta) from ``path``; clear errors for missing, foreign or
    damaged files."""
    import torch

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"culhane weights {str(path)!r} do not exist")
    try:
        saved = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch.load fails in many ways on foreign bytes (pickle, struct, zip errors)
        first_line = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ValueError(f"{str(path)!r} is not a culhane weights file ({FORMAT}): {first_line}") from None
    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        found = saved.get("format") if isinstance(saved, dict) else type(saved).__name__
        raise ValueError(f"{str(path)!r} is not a culhane weights file: format {found!r}, expected {FORMAT!r}")
    hidden = tuple(saved["hidden"])
    net = build(hidden)
    try:
        net.load_state_dict(saved["state"])
    except RuntimeError as exc:
        raise ValueError(f"{str(path)!r}: its weights do not fit hidden sizes {hidden}: "
                         f"{str(exc).splitlines()[0]}") from None
    if not all(torch.isfinite(v).all() for v in net.state_dict().values()):
        raise ValueError(f"{str(path)!r} holds non-finite weights (a diverged or corrupt network)")
    net.eval()
    return net, hidden, dict(saved.get("meta", {}))
