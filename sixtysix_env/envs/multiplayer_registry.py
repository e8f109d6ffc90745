"""The three- and four-player environments' ids in PettingZoo's registry.

``sixtysix_env.registration`` registers them with the two-player env; then
``pettingzoo.make("aec", "sixtysix/sixtysix_three_v0", rules="marriage")`` works.
"""

from __future__ import annotations

__all__ = ["MULTIPLAYER_IDS", "register_multiplayer_envs"]

MULTIPLAYER_IDS = {
    "sixtysix/sixtysix_three_v0": "sixtysix_env.envs.sixtysix_three_v0:env",
    "sixtysix/sixtysix_four_v0": "sixtysix_env.envs.sixtysix_four_v0:env",
}


def register_multiplayer_envs() -> None:
    """Idempotent: ids already registered are left alone (no override warning)."""
    from ..registration import register_aec_ids

    register_aec_ids(MULTIPLAYER_IDS)
