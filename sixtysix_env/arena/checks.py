"""Checks made before the first deal, so a run never dies after hours of play.

The output folder must be a writable folder, the Elo prior a finite number, and every agent must
build and make one legal trial decision within a time limit (a model file that is missing, an
option of the wrong type or an absurd budget shows up here, named, instead of mid-run).
"""

from __future__ import annotations

import numbers
import random
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..agents.spec import AgentSpec
from ..checks import as_value_error, check_real
from ..engine import Deal
from ..rules import Rules

__all__ = ["check_elo_prior", "check_out_dir", "trial_decisions"]


def check_out_dir(out: str | Path, files: Iterable[str] = (), what: str = "--out") -> Path:
    """Create the folder ``out`` if needed and prove it writable; ``files`` (names inside it)
    must not be folders. A ValueError naming the problem otherwise."""
    if not str(out).strip():
        raise ValueError(f"{what} is empty: name a folder for the results (such as results/)")
    path = Path(out).expanduser()
    if path.exists() and not path.is_dir():
        raise ValueError(f"{what} {str(out)!r} is an existing file, not a folder: name a folder for the results")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-test-"):
            pass
    except OSError as e:
        raise ValueError(f"cannot write to {what} {str(out)!r}: {e.strerror or e}") from None
    for name in files:
        if (path / name).is_dir():
            raise ValueError(f"{what} {str(out)!r} holds a folder {name!r} where the file {name!r} would be written")
    return path


def check_elo_prior(prior: object) -> float:
    """The Elo prior (virtual drawn deals per pair) if it is a finite number >= 0, else a ``ValueError``."""
    return as_value_error(check_real, "elo_prior", prior, 0, what="the Elo prior (virtual drawn deals per pair)")


PREPARE_TIMEOUT_S = 300.0
"""The most an agent's optional ``prepare(rules)`` (one-off set-up before its first game, such as
compiling a search) may take in the trial."""


def trial_decisions(specs: Sequence[AgentSpec], rules: Rules, timeout_s: float) -> list[object]:
    """Build each agent and let it make one decision on a fixed deal of ``rules``; a ValueError
    naming the agent when that raises, returns an illegal action or takes over ``timeout_s``
    (the decision is left to finish in a background thread). Returns the agents' ``name``s."""
    timeout_s = as_value_error(
        check_real, "trial_timeout_s", timeout_s, 0, above=True, what="the trial timeout (seconds)"
    )
    deal = Deal.new(rules, random.Random("arena/trial"), dealer=0)
    info = deal.information_state(deal.current)
    names: list[object] = []
    for spec in specs:
        answer: list[object] = []
        took: list[float] = []
        prepared = threading.Event()

        def decide(
            spec: AgentSpec = spec, answer: list[object] = answer, took: list[float] = took, prepared=prepared
        ) -> None:
            try:
                agent = spec.make()
                names.append(getattr(agent, "name", None))
                prepare = getattr(agent, "prepare", None)
                if callable(prepare):  # one-off set-up (compiling a search) is not the decision's time
                    prepare(rules)
                prepared.set()
                start = _clock()
                answer.append(agent.act(info, random.Random(0)))
                took.append(_clock() - start)
            except BaseException as e:
                prepared.set()
                answer.append(e)

        thread = threading.Thread(target=decide, name=f"trial {spec.label}", daemon=True)
        thread.start()
        if not prepared.wait(PREPARE_TIMEOUT_S):
            raise ValueError(f"agent {spec.label!r} did not finish prepare() within {PREPARE_TIMEOUT_S:g} s")
        thread.join(timeout_s)
        if not answer or (took and took[0] > timeout_s):
            raise ValueError(
                f"agent {spec.label!r} took more than {timeout_s:g} s over one trial decision before the first "
                "deal: lower its budget (samples, iterations, time_ms) or raise the trial timeout"
            )
        result = answer[0]
        if isinstance(result, BaseException):
            raise ValueError(
                f"agent {spec.label!r} failed its trial decision before the first deal: "
                f"{type(result).__name__}: {result}"
            ) from result
        if not (isinstance(result, numbers.Integral) and deal.is_legal(int(result))):
            raise ValueError(
                f"agent {spec.label!r} returned {result!r} on its trial decision, not a legal action "
                f"(legal: {', '.join(map(str, deal.legal_actions()))})"
            )
    return names


_clock = time.perf_counter  # what a trial decision's time is read from (a test may slow it down)
