"""The test suite's own rule for a machine where no tournament bot can load (tests/conftest.py):
a test the host's preflight stopped is skipped with the preflight's fix; any other failure stays."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

STOPPED = """
def test_stopped():
    print("python -m sixtysix_env.tournament: preflight: a bot process (user id 61003) cannot import numpy "
          "(ModuleNotFoundError). Python or its packages are under /root: run chmod o+rx /root, then run again")
    assert False


def test_failing_for_another_reason():
    assert False, "something else"
"""


INNER_CONFTEST = """
import pytest

from tests.conftest import skip_if_stopped_by_preflight


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    skip_if_stopped_by_preflight(item, outcome.get_result(), lambda: {why!r})
"""


@pytest.mark.parametrize("why", ["root without namespaces per game (as in the test)", ""])
def test_a_test_stopped_by_the_preflight_is_skipped_only_where_no_bot_can_load(pytester, why) -> None:
    pytester.makeconftest(INNER_CONFTEST.format(why=why))
    pytester.makepyfile(test_stopped=STOPPED)
    result = pytester.runpytest_inprocess("-rs", "-p", "no:cacheprovider")
    if why:
        result.assert_outcomes(skipped=1, failed=1)
        shown = [line for line in result.outlines if line.startswith("SKIPPED")]
        assert len(shown) == 1 and shown[0].endswith(
            f"{why}; preflight: a bot process (user id 61003) cannot import numpy (ModuleNotFoundError). "
            "Python or its packages are under /root: run chmod o+rx /root, then run again"
        )
    else:
        result.assert_outcomes(failed=2)
