"""Test helpers: deals from short arrangements, random play, the golden perft file; under CI a skip fails."""

from __future__ import annotations

import functools
import importlib.util
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from sixtysix_env import Deal, InfoState, Rules, get_rules
from sixtysix_env.cards import NUM_CARDS, parse_cards
from sixtysix_env.tournament import preflight

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# The Ray backend's tests need ray (the rllib extra): ci/frameworks.sh runs them in that venv; a
# venv without it does not collect them (naming the file still runs it, and it skips).
collect_ignore = [] if importlib.util.find_spec("ray") else ["test_ray_backend.py"]
# Each framework's data check (test_frameworks_NAME.py) likewise runs in that framework's venv only.
collect_ignore += [
    f"test_frameworks_{name}.py"
    for name, module in (("rllib", "ray"), ("tianshou", "tianshou"), ("torchrl", "torchrl"))
    if importlib.util.find_spec(module) is None
]

GOLDEN = Path(__file__).resolve().parent / "data" / "perft_golden.txt"
"""The golden perft counts, kept in the repository (its header says where they came from)."""


def arrange(hand0: str, hand1: str, trump: str, dealer: int = 0, rules: str | Rules = "standard") -> Deal:
    """A deal where the two hands are given and the rest of the deck is stocked, top first, in
    card-id order with ``trump`` face up at the bottom."""
    r = get_rules(rules)
    used = set(parse_cards(hand0)) | set(parse_cards(hand1)) | set(parse_cards(trump))
    rest = [c for c in range(NUM_CARDS) if r.deck_mask >> c & 1 and c not in used]
    stock = rest + parse_cards(trump)
    return Deal.from_arrangement([hand0, hand1], stock, dealer, r)


def random_playout(deal: Deal, rng: random.Random) -> list[Deal]:
    """Plays random legal actions to the end; returns every position visited (copies)."""
    seen = [deal.clone()]
    while deal.outcome is None:
        deal.apply(rng.choice(deal.legal_actions()))
        seen.append(deal.clone())
    return seen


def random_views(deals: int, seed: int) -> list[InfoState]:
    """The acting player's view at every decision of ``deals`` random standard deals."""
    rng = random.Random(seed)
    out = []
    for i in range(deals):
        deal = Deal.new("standard", rng, dealer=i % 2)
        while deal.outcome is None:
            out.append(InfoState.of(deal, deal.current_player))
            deal.apply(rng.choice(deal.legal_actions()))
    return out


def golden_blocks(path: Path = GOLDEN) -> list[dict[str, str]]:
    blocks: list[dict[str, str]] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            blocks.append({"preset": line.strip("[]")})
        else:
            key, _, value = line.partition("=")
            blocks[-1][key.strip()] = value.strip()
    return blocks


@functools.lru_cache(maxsize=1)
def bots_cannot_load_here() -> str:
    """Why no bot of the tournament host can load on this machine ("" when bots can): run as root,
    the host runs bots under user ids of their own; without namespaces per game (a container
    without CAP_SYS_ADMIN) they read the host's own files, and where Python lies in a folder
    other users cannot read (pyenv under /root) the host's preflight stops every tournament."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return ""
    from sixtysix_env.tournament.hosting import python_paths, unreadable_by_others

    from .tournament_helpers import no_jail

    hidden = unreadable_by_others(python_paths())
    if hidden is None or not no_jail():
        return ""
    return f"root without namespaces per game, and Python under {hidden}, which the bots' user ids cannot read"


def skip_if_stopped_by_preflight(item, report, why) -> None:
    """Make ``report`` (a failed call) a skip carrying the preflight's own fix when the failure is
    the host's preflight stopping the tournament and ``why()`` says no bot can load here."""
    # what a command printed first (the whole message), then the traceback (its E line)
    text = "\n".join([report.capstdout, report.capstderr, report.longreprtext])
    if report.when != "call" or not report.failed or preflight.STOP not in text:
        return
    reason = why()
    if reason:
        line = next(x for x in text.splitlines() if preflight.STOP in x)
        fix = line[line.index(preflight.STOP) :].strip()
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {reason}; {fix}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test whose tournament the host's preflight stopped, on a machine where no bot can load
    (:func:`bots_cannot_load_here`), is skipped with the preflight's own fix, not failed: the
    tests cannot run here, as the jail tests cannot without root. Under CI a skip still fails."""
    outcome = yield
    skip_if_stopped_by_preflight(item, outcome.get_result(), bots_cannot_load_here)


def pytest_sessionfinish(session, exitstatus):
    """Under CI (``CI`` set) a skipped test fails the run: a clone must carry and run every test.
    A run that imported jax fails too, unless it ran only the JAX checks."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if os.environ.get("CI") and reporter is not None and reporter.stats.get("skipped") and exitstatus == 0:
        session.exitstatus = 1
        skipped = len(reporter.stats["skipped"])
        reporter.write_line(f"CI: {skipped} test(s) skipped; every test must run in CI", red=True)
    jax_checks = Path(__file__).parent / "jax"  # tests/test_jax.py runs these in a child pytest
    only_jax_checks = all(jax_checks in Path(str(item.fspath)).parents for item in getattr(session, "items", []))
    if "jax" in sys.modules and not only_jax_checks and reporter is not None and session.exitstatus == 0:
        # JAX starts XLA's threads on import; the tournament host and the arena's workers fork,
        # which may then deadlock. The JAX checks run in processes of their own (tests/test_jax.py).
        session.exitstatus = 1
        reporter.write_line("the test process imported jax: run JAX code in a child process", red=True)
