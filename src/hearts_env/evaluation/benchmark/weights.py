"""The weights a seated agent states, checked against the file its package ships.

A program states the name and SHA-256 of the weights it plays with (its ``hello``); that is its own word. For a
registered agent whose spec names no weights of its own (``apprentice``, not ``apprentice(weights=...)``), the file
it plays is the one its installed package ships: the dealer finds that package's folder from the agent's entry point
without importing it, hashes every file of the stated name there, and refuses a statement that matches none — an
installation whose bundled weights were replaced plays another agent under the same name.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from importlib.metadata import entry_points
from pathlib import Path

from hearts_env.agents import ENTRY_POINT_GROUP, AgentSpec


def shipped_files(spec: str, name: str) -> tuple[str, list[Path]]:
    """The package that ships agent ``spec``'s weights, and its files named ``name`` (none: the spec is not a
    registered agent playing its bundled weights, or its package ships no such file)."""
    parsed = AgentSpec.parse(spec)
    if parsed.scheme == "hosted":
        parsed = AgentSpec.parse(parsed.target)
    if parsed.scheme is not None or ":" in parsed.target or "weights" in parsed.kwargs or not name \
            or name != os.path.basename(name):
        return "", []
    points = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == parsed.target]
    if not points:
        return "", []
    package = points[0].value.split(":")[0].split(".")[0]
    found = importlib.util.find_spec(package)  # a top-level package: found, not imported
    folders = list(found.submodule_search_locations or []) if found is not None else []
    files = sorted(Path(root) / name for folder in folders for root, _, names in os.walk(folder) if name in names)
    return package, files


def check_shipped(spec: str, weights: dict[str, str]) -> str | None:
    """The package whose file ``weights`` (a program's statement: ``file``, ``sha256``) is, or None when no package
    ships the agent's weights; raises ValueError naming both checksums when the statement matches none of its files."""
    package, files = shipped_files(spec, weights["file"])
    if not files:
        return None
    digests = {hashlib.sha256(path.read_bytes()).hexdigest() for path in files}
    if weights["sha256"] not in digests:
        raise ValueError(f"agent {spec!r} states its weights are {weights['file']} with SHA-256 "
                         f"{weights['sha256'][:16]}…, which is not the {weights['file']} {package} ships (SHA-256 "
                         f"{', '.join(sorted(d[:16] + '…' for d in digests))}): its installation plays other weights")
    return package
