"""Registers the three- and four-player environments in PettingZoo's registry.

``sixtysix_env.registration.register_envs()`` calls :func:`register_multiplayer_envs`; then
``pettingzoo.make("aec", "sixtysix/sixtysix_three_v0", rules="marriage")`` works.
"""

from __future__ import annotations

__all__ = ["MULTIPLAYER_IDS", "register_multiplayer_envs"]

MULTIPLAYER_IDS = {
    "sixtysix/sixtysix_three_v0": "sixtysix_env.envs.sixtysix_three_v0:env",
    "sixtysix_three_v0": "sixtysix_env.envs.sixtysix_three_v0:env",
    "sixtysix/sixtysix_four_v0": "sixtysix_env.envs.sixtysix_four_v0:env",
    "sixtysix_four_v0": "sixtysix_env.envs.sixtysix_four_v0:env",
}


def register_multiplayer_envs() -> None:
    """Idempotent: ids already registered are left alone (no override warning)."""
    from ..registration import register_aec_ids

    register_aec_ids(MULTIPLAYER_IDS)
