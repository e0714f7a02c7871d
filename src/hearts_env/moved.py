"""Deprecated faces of the modules that moved into the evaluation wing: ``import hearts_env.arena`` (and its
submodules, and ``python -m`` of a moved program) still works for one release, gives the module at its new home
under the old name, and warns once per old name. Installed as an import hook when ``hearts_env`` is imported."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from types import CodeType, ModuleType

MOVED = {
    "hearts_env.arena": "hearts_env.evaluation.arena",
    "hearts_env.benchmark.exploit": "hearts_env.evaluation.exploit.track",
    "hearts_env.benchmark": "hearts_env.evaluation.benchmark",
    "hearts_env.seat": "hearts_env.evaluation.seat",
    "hearts_env.reference": "hearts_env.evaluation.reference",
    "hearts_env.records": "hearts_env.evaluation.records",
    "hearts_env.agents.host": "hearts_env.evaluation.seat.host",
    "hearts_env.agents.probes": "hearts_env.evaluation.exploit.probes",
}
"""Old module name → its home now (a package's submodules follow it)."""

REMOVED_IN = "0.3.0"
_warned: set[str] = set()


_MOST_SPECIFIC_FIRST = sorted(MOVED, key=len, reverse=True)


def _moved_from(old: str) -> str | None:
    """The entry of :data:`MOVED` that module ``old`` is (or is under), the most specific one; None if none."""
    if not old.startswith("hearts_env."):  # every import of the process asks: most answer here
        return None
    return next((before for before in _MOST_SPECIFIC_FIRST if old == before or old.startswith(before + ".")), None)


def new_name(old: str) -> str | None:
    """Where module ``old`` lives now, or None if it did not move."""
    before = _moved_from(old)
    return None if before is None else MOVED[before] + old[len(before):]


def _warn(old: str) -> None:
    top = _moved_from(old)
    if top is None or top in _warned:
        return
    _warned.add(top)
    level, frame = 1, sys._getframe(1)
    while frame is not None and (frame.f_code.co_filename.startswith("<frozen") or frame.f_code.co_filename ==
                                 __file__):  # the first frame outside the import system: the importer's
        level, frame = level + 1, frame.f_back  # type: ignore[assignment]
    warnings.warn(f"{top} moved to {MOVED[top]}; the old name goes in hearts-env {REMOVED_IN} (CHANGELOG)",
                  DeprecationWarning, stacklevel=level)


class _Redirect(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a moved module's old name and loads it as the module at its new home (one module object)."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        new = new_name(fullname)
        if new is None:
            return None
        home = importlib.util.find_spec(new)
        if home is None:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=home.submodule_search_locations is not None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        new = new_name(spec.name)
        assert new is not None
        _warn(spec.name)
        module = importlib.import_module(new)
        self._specs[spec.name] = module.__spec__  # the import system sets __spec__ to the old name's: put it back
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._specs.pop(module.__spec__.name, module.__spec__) if module.__spec__ else None

    def get_code(self, fullname: str) -> CodeType | None:
        """The new home's code, for ``python -m OLD.NAME``."""
        new = new_name(fullname)
        assert new is not None
        _warn(fullname)
        home = importlib.util.find_spec(new)
        loader = home.loader if home else None
        return loader.get_code(new) if isinstance(loader, importlib.abc.InspectLoader) else None


def install() -> None:
    """Put the redirect first on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _Redirect) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Redirect())
