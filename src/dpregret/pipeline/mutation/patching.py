"""How a mutant gets into the library at test time, and out again.

A mutant is one or more edits of library objects, applied by monkeypatching for the duration
of a ``with`` block; the library itself carries no mutant code path.

- :class:`SourceEdit` rewrites the source of one function, method or numba kernel: the
  current source (``inspect.getsource``) with ``old`` replaced by ``new`` (``old`` must occur
  exactly once, so a mutant that no longer matches the library fails loudly instead of
  silently testing nothing), compiled in the defining module's namespace (a numba kernel is
  re-jitted, without cache).
- :class:`Swap` replaces the object by ``make(original)``.

:func:`patched` binds the replacement wherever the original is looked up: on its class (a
method), or in every loaded ``dpregret`` module that holds the original under any name (a
function imported by name into another module, e.g. ``from ..tree import
nodes_covering_leaf``).  On exit every binding is restored, including bindings to the
mutant made by modules imported inside the block.

A module-level value computed from a mutated function at import time would not change by
monkeypatching: the library keeps none that a mutant reaches (the audit specs are built by
:func:`dpregret.pipeline.registry.audit_specs` on every call, so the runner builds them under the patch).
"""
from __future__ import annotations

import __future__
import contextlib
import importlib
import inspect
import sys
import textwrap
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass

PACKAGE = "dpregret"


class MutantError(RuntimeError):
    """A mutant cannot be applied to the library as it is now (its source changed)."""


@dataclass(frozen=True)
class SourceEdit:
    """``target`` (``"module:qualname"``, e.g. ``"dpregret.core.tree:TreeBasedAgg.step"``) with
    ``old`` replaced by ``new`` in its source (tuples of the same length: several
    replacements, in order)."""

    target: str
    old: str | tuple[str, ...]
    new: str | tuple[str, ...]

    def pairs(self) -> list[tuple[str, str]]:
        olds = (self.old,) if isinstance(self.old, str) else tuple(self.old)
        news = (self.new,) if isinstance(self.new, str) else tuple(self.new)
        if len(olds) != len(news):
            raise MutantError(f"{self.target}: {len(olds)} texts to replace but {len(news)} replacements")
        return list(zip(olds, news))


@dataclass(frozen=True)
class Swap:
    """``target`` replaced by ``make(original)``."""

    target: str
    make: Callable


def resolve(target: str):
    """``(module, owner, attribute name, original object)`` of ``"module:qualname"``; for a
    class attribute the raw ``__dict__`` entry (a staticmethod stays a staticmethod)."""
    mod_name, sep, qual = target.partition(":")
    if not sep or not qual:
        raise MutantError(f"target must look like 'package.module:name', got {target!r}")
    mod = importlib.import_module(mod_name)
    owner = mod
    parts = qual.split(".")
    for p in parts[:-1]:
        owner = getattr(owner, p)
    name = parts[-1]
    if isinstance(owner, type):
        if name not in owner.__dict__:
            raise MutantError(f"{target}: not defined on {owner.__name__} itself")
        return mod, owner, name, owner.__dict__[name]
    if not hasattr(owner, name):
        raise MutantError(f"{target}: no such attribute")
    return mod, owner, name, getattr(owner, name)


def _python_function(obj):
    """The plain function behind a function, staticmethod or numba dispatcher, and a callable
    that wraps a rebuilt function the same way."""
    if isinstance(obj, staticmethod):
        return obj.__func__, staticmethod
    if hasattr(obj, "py_func"):  # numba dispatcher
        import numba

        return obj.py_func, numba.njit
    if isinstance(obj, types.FunctionType):
        return obj, lambda f: f
    raise MutantError(f"cannot edit the source of {obj!r}")


def edited_source(target: str, pairs: list[tuple[str, str]]) -> str:
    """The dedented source of ``target`` (decorators dropped) with every ``old`` -> ``new``."""
    _, _, _, orig = resolve(target)
    func, _ = _python_function(orig)
    src = textwrap.dedent(inspect.getsource(func))
    lines = src.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if ln.startswith("def ")), None)
    if start is None:
        raise MutantError(f"{target}: no 'def' line in its source")
    src = "".join(lines[start:])
    for old, new in pairs:
        n = src.count(old)
        if n != 1:
            raise MutantError(f"{target}: the mutant's text must occur exactly once in the current source, found {n} "
                              f"occurrences of {old!r} (the library changed: update the mutant)")
        src = src.replace(old, new)
    return src


def build(edit, label: str = "mutant"):
    """The replacement object of one edit (compiled, not yet bound)."""
    mod, _, _, orig = resolve(edit.target)
    if isinstance(edit, Swap):
        return edit.make(orig)
    func, wrap = _python_function(orig)
    src = edited_source(edit.target, edit.pairs())
    code = compile(src, f"<{label}: {edit.target}>", "exec", flags=__future__.annotations.compiler_flag,
                   dont_inherit=True)
    ns: dict = {}
    exec(code, mod.__dict__, ns)  # globals = the defining module's, as for the original
    new = ns[func.__name__]
    new.__qualname__, new.__module__ = func.__qualname__, func.__module__
    return wrap(new)


def library_modules() -> list[types.ModuleType]:
    """Loaded ``dpregret`` modules, the mutation suite excluded."""
    return [m for n, m in list(sys.modules.items())
            if m is not None and (n == PACKAGE or n.startswith(PACKAGE + "."))
            and not n.startswith(PACKAGE + ".mutation")]


def _bind(target: str, new) -> list[tuple[object, str, object]]:
    """Bind ``new`` wherever the original of ``target`` is looked up; return the undo list."""
    _, owner, name, orig = resolve(target)
    undo = []
    if isinstance(owner, type):
        undo.append((owner, name, orig))
        setattr(owner, name, new)
        return undo
    for m in library_modules():
        for k, v in list(vars(m).items()):
            if v is orig:
                undo.append((m, k, orig))
                setattr(m, k, new)
    return undo


@contextlib.contextmanager
def patched(edits, label: str = "mutant") -> Iterator[None]:
    """Apply ``edits`` (SourceEdit / Swap) for the duration of the block; restore on exit."""
    built = [(e, build(e, label)) for e in edits]  # compile everything before binding anything
    undo: list[tuple[object, str, object]] = []
    replaced: list[tuple[object, object]] = []
    try:
        for e, new in built:
            before = resolve(e.target)[3]
            undo += _bind(e.target, new)
            replaced.append((new, before))
        yield
    finally:
        for obj, k, old in reversed(undo):
            setattr(obj, k, old)
        # modules imported inside the block bound the mutant by name: put the original back
        for new, orig in replaced:
            for m in library_modules():
                for k, v in list(vars(m).items()):
                    if v is new:
                        setattr(m, k, orig)


def snapshot(modules=None) -> dict[tuple[str, str], int]:
    """``{(module, name): id(object)}`` of every module-level and class-level binding of the
    loaded library (tests: the bindings after a mutant equal those before)."""
    out = {}
    for m in modules or library_modules():
        for k, v in list(vars(m).items()):
            out[(m.__name__, k)] = id(v)
            if isinstance(v, type) and v.__module__ == m.__name__:
                for a, w in list(vars(v).items()):
                    out[(m.__name__, f"{k}.{a}")] = id(w)
    return out
