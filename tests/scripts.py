"""Import a script of the checkout (``baselines/``, ``benchmarks/``) as a module, for its tests, and
run its option parsing alone."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """``load_script("benchmarks/bench_gap.py")``: the module, registered under its file stem
    (dataclasses look their module up in ``sys.modules``)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


class Parsed(Exception):
    """Raised in place of running a script whose ``main()`` took its options."""


def parse_only(script: ModuleType, argv: list[str]) -> tuple[object, str]:
    """Parse ``argv`` as ``script`` does and stop there: (the ``SystemExit`` code, or None when the
    options were taken; what it wrote to stderr). A script with ``parse_args()`` runs that (its
    checks after parsing included); one that parses in ``main()`` is stopped right after its
    parser returns, so an option it wrongly takes never starts a run."""
    saved_argv, parse = sys.argv, argparse.ArgumentParser.parse_args

    def parse_then_stop(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        parse(self, *args, **kwargs)
        raise Parsed(f"{script.__name__} took {argv}")

    entry = getattr(script, "parse_args", None)
    if entry is None:
        argparse.ArgumentParser.parse_args = parse_then_stop  # type: ignore[method-assign]
        entry = script.main
    err = io.StringIO()
    sys.argv = [str(script.__file__), *argv]
    try:
        with contextlib.redirect_stderr(err):
            entry()
    except SystemExit as e:
        return e.code, err.getvalue()
    except Parsed:
        pass
    finally:
        sys.argv = saved_argv
        argparse.ArgumentParser.parse_args = parse  # type: ignore[method-assign]
    return None, err.getvalue()
