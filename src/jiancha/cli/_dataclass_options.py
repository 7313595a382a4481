"""Command-line options generated from (nested) configuration dataclasses, so a flag, its default, its help and
its type are written once, on the field.

A field's ``metadata`` may hold ``help``, ``cli`` (the flag name without ``--``, or False to leave the field off
the command line) and ``choices`` (a registry tuple, listed in the help). Nested dataclass fields become their own
flags (``bm25.k1`` → ``--k1`` unless renamed); ``tuple[...]`` fields take comma-separated values; ``bool`` fields
become ``--x/--no-x`` switches.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer


@dataclass(frozen=True)
class FieldOption:
    """One generated option: ``path`` into the dataclass tree, Python parameter ``name``, ``flag``, CLI type."""

    path: tuple[str, ...]
    name: str
    flag: str
    cli_type: type
    default: Any
    help: str
    item_type: type | None = None     # element type of a tuple field


def field_options(cls: type, *, skip: Sequence[str] = (), path: tuple[str, ...] = ()) -> list[FieldOption]:
    """The options of ``cls`` and its nested dataclass fields, in field order (``skip``: top-level names)."""
    hints = typing.get_type_hints(cls)
    out: list[FieldOption] = []
    for f in dataclasses.fields(cls):
        if f.name in skip or f.metadata.get("cli") is False:
            continue
        tp = hints[f.name]
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()  # type: ignore[misc]
        if dataclasses.is_dataclass(tp):
            out += field_options(tp, path=(*path, f.name))
            continue
        flag = f.metadata.get("cli") or f.name.replace("_", "-")
        help_text = f.metadata.get("help", "")
        if f.metadata.get("choices"):
            help_text += f" Choices: {', '.join(f.metadata['choices'])}."
        item = None
        if typing.get_origin(tp) is tuple:
            item = typing.get_args(tp)[0]
            cli_type, default = str, ",".join(str(x) for x in default)
        else:
            cli_type = tp
        out.append(FieldOption((*path, f.name), flag.replace("-", "_"), flag, cli_type, default, help_text, item))
    return out


def _parameter(o: FieldOption) -> inspect.Parameter:
    decl = f"--{o.flag}/--no-{o.flag}" if o.cli_type is bool else f"--{o.flag}"
    ann = Annotated[o.cli_type, typer.Option(decl, help=o.help, show_default=True)]
    return inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=o.default, annotation=ann)


def _parse_tuple(o: FieldOption, text: str) -> tuple:
    from jiancha.errors import ConfigError

    try:
        return tuple(o.item_type(x.strip()) for x in str(text).split(",") if x.strip())
    except ValueError:
        raise ConfigError(f"--{o.flag} {text!r}: expected comma-separated {o.item_type.__name__} values") from None


def build(cls: type, options: Sequence[FieldOption], values: dict[str, Any], **top: Any):
    """An instance of ``cls`` from the generated options' ``values`` (by parameter name) and ``top`` fields."""
    tree: dict = dict(top)
    for o in options:
        v = values[o.name]
        if o.item_type is not None:
            v = _parse_tuple(o, v)
        node = tree
        for p in o.path[:-1]:
            node = node.setdefault(p, {})
        node[o.path[-1]] = v

    def make(c: type, d: dict):
        hints = typing.get_type_hints(c)
        return c(**{k: make(hints[k], v) if dataclasses.is_dataclass(hints[k]) else v for k, v in d.items()})

    return make(cls, tree)


def with_options(options: Sequence[FieldOption]) -> Callable:
    """Decorate a command ``fn(..., values: dict)``: its signature gains one keyword option per ``options`` entry,
    and the values given are passed to it as ``values`` (parameter name → value)."""

    def deco(fn: Callable) -> Callable:
        sig = inspect.signature(fn, eval_str=True)
        own = [p for n, p in sig.parameters.items() if n != "values"]
        names = {o.name for o in options}

        @functools.wraps(fn)
        def wrapper(**kwargs):
            values = {k: kwargs.pop(k) for k in list(kwargs) if k in names}
            return fn(**kwargs, values=values)

        params = own + [_parameter(o) for o in options]
        wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        del wrapper.__wrapped__
        return wrapper

    return deco
