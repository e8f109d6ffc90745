"""The three- and four-player environments' ids for PettingZoo's registry (data only).

``sixtysix_env.registration.register_envs()`` registers them beside the two-player env; then
``pettingzoo.make("aec", "sixtysix/sixtysix_three_v0", rules="marriage")`` works.
"""

from __future__ import annotations

__all__ = ["MULTIPLAYER_IDS"]

MULTIPLAYER_IDS = {
    "sixtysix/sixtysix_three_v0": "sixtysix_env.envs.sixtysix_three_v0:env",
    "sixtysix/sixtysix_four_v0": "sixtysix_env.envs.sixtysix_four_v0:env",
}
"""PettingZoo registry ids of the three- and four-player envs and their entry points."""
