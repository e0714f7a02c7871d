"""Registering the environments with Gymnasium and PettingZoo without importing either.

``import hearts_env`` must make ``gymnasium.make("hearts_env/Hearts-v0")`` (and PettingZoo 1.27+'s
``make("hearts_env/hearts-v0")``) work, but importing ``hearts_env.cards`` or the engine must not
pay for Gymnasium and PettingZoo (two thirds of the import time), and Gymnasium 1.x has no plugin
entry points. So :func:`register_envs` registers at once with a library already imported, and
otherwise leaves a finder on ``sys.meta_path`` that registers right after the library's own
import finishes, then removes itself. The registrations name entry points as strings: the envs'
modules load only when an env is made.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

GYMNASIUM_ID = "hearts_env/Hearts-v0"
"""The Gymnasium id of the single-agent env (and of the batched env through ``make_vec``)."""
PETTINGZOO_ID = "hearts_env/hearts-v0"
"""The id of the AEC env in PettingZoo's registry (1.27+)."""


def _register_gymnasium(gymnasium: ModuleType) -> None:
    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="hearts_env.single_agent:HeartsEnv",
                           vector_entry_point="hearts_env.vector.env:HeartsVectorEnv")


def _register_pettingzoo(pettingzoo: ModuleType) -> None:
    register = getattr(pettingzoo, "register", None)
    registry = getattr(pettingzoo, "aec_registry", None)
    if register is None or registry is None:  # PettingZoo before 1.27 has no registry
        return
    if PETTINGZOO_ID not in registry:
        register("aec", PETTINGZOO_ID, entry_point="hearts_env.hearts_v0:env")


_REGISTRARS: dict[str, Callable[[ModuleType], None]] = {"gymnasium": _register_gymnasium,
                                                        "pettingzoo": _register_pettingzoo}


class _RegisteringLoader(importlib.abc.Loader):
    """The library's own loader, then the registration (every other attribute is the loader's)."""

    def __init__(self, loader: Any, registrar: Callable[[ModuleType], None]):
        self._loader = loader
        self._registrar = registrar

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        self._registrar(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the real loader of the libraries still to register with."""

    def __init__(self, names: set[str]):
        self.names = names

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        self.names.discard(fullname)
        if not self.names:
            sys.meta_path.remove(self)
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _RegisteringLoader(spec.loader, _REGISTRARS[fullname])
                return spec
        return None


def register_envs() -> None:
    """Register with Gymnasium and PettingZoo now if imported, else as soon as they are."""
    pending = set()
    for name, registrar in _REGISTRARS.items():
        module = sys.modules.get(name)
        if module is not None:
            registrar(module)
        else:
            pending.add(name)
    if pending and not any(isinstance(f, _RegisterOnImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport(pending))
