"""A run's arguments declared once, as a dataclass (CleanRL's ``Args``), and read from the command line.

    @dataclass
    class Args:
        out: Path = arg(help="folder of the run")                      # no default: required
        deals: int = arg(1000, "training deals")                       # --deals DEALS
        engine: Literal["batch", "scalar"] = arg("batch", "engine")    # choices
        resume: bool = arg(False, "continue from the last save")       # a flag: --resume

    def main(argv: list[str] | None = None) -> None:
        args = parse(Args, argv, __doc__)

Each field is an option ``--field-name`` (underscores become dashes) or, with ``positional=True``, a
positional argument. Its type is the annotation: ``int``, ``float``, ``str``, ``Path`` or any class built
from one string; ``X | None`` (an option whose default is None); ``Literal[...]`` (its choices; ``choices=``
for choices known only at run time); ``list[X]`` or ``tuple[X, ...]`` (one or more values); ``bool`` (a
flag: ``--name`` where the default is False, ``--no-name`` where it is True). A field without a default is
required. The help is :func:`arg`'s (argparse's ``%(default)s`` works in it); the description is the
module's docstring as written. A ``__post_init__`` that raises ValueError refuses the arguments as argparse
refuses a bad value: usage, then its message on one line, exit status 2. A mapping of names to dataclasses gives
subcommands (``prog run ...``, ``prog table ...``), each helped by the first line of its class's docstring;
:func:`parse` returns the chosen class's instance.

Why not a library: tyro and simple-parsing both read such dataclasses, but neither keeps today's commands
as they are. tyro parses, prints help and reports errors its own way (its own backend, rich panels) and
brings docstring-parser, rich and shtab among others; simple-parsing spells options with underscores and
booleans as ``--flag [true|false]`` unless configured, and nests the namespace. Either would be a new
dependency of the core wheel (the baselines ship in it, with no extra) for about 120 lines of argparse
here, and tests/test_docs_blocks.py checks the documented commands against each command's argparse parser.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypeVar, Union, overload

T = TypeVar("T")


@overload
def arg(default: T, help: str | None = None, *, choices: Iterable[Any] | None = None,
        positional: bool = False) -> T: ...
@overload
def arg(*, help: str | None = None, choices: Iterable[Any] | None = None, positional: bool = False) -> Any: ...
def arg(default: Any = dataclasses.MISSING, help: str | None = None, *, choices: Iterable[Any] | None = None,
        positional: bool = False) -> Any:
    """A field of a run's arguments: its default (none: required), help, choices known at run time and
    whether it is positional."""
    metadata = {"help": help, "choices": choices, "positional": positional}
    if isinstance(default, (list, dict, set)):
        return dataclasses.field(default_factory=lambda: type(default)(default), metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata)


@overload
def parse(spec: type[T], argv: Sequence[str] | None = None, doc: str | None = None) -> T: ...
@overload
def parse(spec: Mapping[str, type[Any]], argv: Sequence[str] | None = None, doc: str | None = None) -> Any: ...
def parse(spec: Any, argv: Sequence[str] | None = None, doc: str | None = None) -> Any:
    """The run's arguments read from ``argv`` (default: the command line) into ``spec``, a dataclass, or
    into one of the dataclasses of a mapping of subcommands; ``doc`` is the parser's description."""
    parser, commands = _build(spec, doc)
    namespace = vars(parser.parse_args(argv))
    if commands:
        parser, spec = commands[namespace.pop("command")]
    try:
        return spec(**{name: _after(spec, name, value) for name, value in namespace.items()})
    except ValueError as refused:  # __post_init__'s checks
        parser.error(str(refused))


def build_parser(spec: type[Any] | Mapping[str, type[Any]], doc: str | None = None) -> argparse.ArgumentParser:
    """The argparse parser of ``spec`` (see :func:`parse`)."""
    return _build(spec, doc)[0]


def _build(spec: type[Any] | Mapping[str, type[Any]], doc: str | None
           ) -> tuple[argparse.ArgumentParser, dict[str, tuple[argparse.ArgumentParser, type[Any]]]]:
    """The parser, and each subcommand's parser and dataclass."""
    first = next(iter(spec.values())) if isinstance(spec, Mapping) else spec
    parser = argparse.ArgumentParser(prog=_prog(first), description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    if not isinstance(spec, Mapping):
        _add_fields(parser, spec)
        return parser, {}
    subparsers = parser.add_subparsers(dest="command", required=True)
    commands = {}
    for name, cls in spec.items():
        doc_line = (cls.__doc__ or "").strip().split("\n")[0]
        sub = subparsers.add_parser(name, help=None if doc_line.startswith(f"{cls.__name__}(") else doc_line)
        _add_fields(sub, cls)
        commands[name] = (sub, cls)
    return parser, commands


def _prog(cls: type[Any]) -> str | None:
    """``python -m MODULE`` for the module declaring the arguments; None (argparse's choice) for a script."""
    module = cls.__module__
    if module == "__main__":  # run with python -m: the module's name is its spec's, if the spec is this run's
        spec = getattr(sys.modules.get("__main__"), "__spec__", None)
        module = spec.name if spec is not None and spec.origin == sys.argv[0] else ""
    return f"python -m {module}" if module else None


def _hints(cls: type[Any]) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _strip_none(kind: Any) -> Any:
    if typing.get_origin(kind) in (Union, types.UnionType):
        rest = [k for k in typing.get_args(kind) if k is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return kind


def _add_fields(parser: argparse.ArgumentParser, cls: type[Any]) -> None:
    hints = _hints(cls)
    for field in dataclasses.fields(cls):
        kind = _strip_none(hints[field.name])
        meta = field.metadata
        options: dict[str, Any] = {"help": meta.get("help")}
        if field.default is not dataclasses.MISSING:
            default: Any = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = dataclasses.MISSING
        flag = "--" + field.name.replace("_", "-")
        if kind is bool:
            if meta.get("positional") or default is dataclasses.MISSING:
                raise TypeError(f"{cls.__name__}.{field.name}: a bool is a flag with a default")
            if default:
                flag = f"--no-{field.name.replace('_', '-')}"
                parser.add_argument(flag, dest=field.name, action="store_false", **options)
            else:
                parser.add_argument(flag, dest=field.name, action="store_true", **options)
            continue
        if typing.get_origin(kind) in (list, tuple):
            items = typing.get_args(kind)
            if typing.get_origin(kind) is tuple and not (len(items) == 2 and items[1] is Ellipsis):
                raise TypeError(f"{cls.__name__}.{field.name}: a tuple of any length is tuple[X, ...]")
            kind = items[0] if items else str
            options["nargs"] = "+" if default is dataclasses.MISSING or default else "*"
        if typing.get_origin(kind) is Literal:
            options["choices"] = typing.get_args(kind)
            kind = type(options["choices"][0])
        if meta.get("choices") is not None:
            options["choices"] = tuple(meta["choices"])
        options["type"] = kind
        if meta.get("positional"):
            if default is not dataclasses.MISSING:
                options.update(default=default, nargs=options.get("nargs", "?"))
            parser.add_argument(field.name, **options)
        elif default is dataclasses.MISSING:
            parser.add_argument(flag, dest=field.name, required=True, **options)
        else:
            parser.add_argument(flag, dest=field.name, default=default, **options)


def _after(cls: type[Any], name: str, value: Any) -> Any:
    """A parsed value as the field holds it: a tuple field's list as a tuple."""
    kind = _strip_none(_hints(cls)[name])
    return tuple(value) if typing.get_origin(kind) is tuple and isinstance(value, list) else value
