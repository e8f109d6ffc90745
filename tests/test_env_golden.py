"""Every AEC env gives the recorded observations, rewards, infos, masks, renders and errors.

The hashes were recorded from the two- and table-player envs before they shared a base class
(``sixtysix_env.envs.base``); see ``tests/env_golden.py`` for what is recorded and how to
record again after a deliberate change.
"""

import json
import warnings

import pytest

from tests.env_golden import GOLDEN, _digest, cases

GOLDEN_HASHES = json.loads(GOLDEN.read_text())
CASES = dict(cases())


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(GOLDEN_HASHES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_seeded_episodes_match_the_recording(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _digest(CASES[name]()) == GOLDEN_HASHES[name], f"{name} differs from the recording"
