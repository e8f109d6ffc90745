"""Registers the environments with PettingZoo's and Gymnasium's registries on import."""

from __future__ import annotations

from .envs.multiplayer_registry import MULTIPLAYER_IDS

__all__ = ["register_aec_ids", "register_envs"]

PETTINGZOO_IDS = {
    "sixtysix/sixtysix_v0": "sixtysix_env.envs.sixtysix_v0:env",
    "sixtysix_v0": "sixtysix_env.envs.sixtysix_v0:env",
}


GYM_ID = "SixtySix-v0"
GYM_ENTRY = "sixtysix_env.envs.gym_env:SixtySixEnv"
# ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` builds the batched engine's
# VectorEnv; the string is resolved only then, so numba stays optional (the ``fast`` extra).
GYM_VECTOR_ENTRY = "sixtysix_env.fast.vector_env:SixtySixVectorEnv"


def register_aec_ids(ids: dict[str, str]) -> None:
    """Register AEC ids that are not there yet; PettingZoo normalizes ``name_v0`` to ``name-v0``,
    so presence is checked through its own lookup rather than by key."""
    import pettingzoo
    from pettingzoo.env_registry.exceptions import PettingZooRegistryError

    for env_id, entry in ids.items():
        try:
            pettingzoo.spec("aec", env_id)
        except PettingZooRegistryError:  # not registered yet
            pettingzoo.register("aec", env_id, entry_point=entry)


def register_envs() -> None:
    """Idempotent: safe to call again (a re-import does not warn about overriding)."""
    import gymnasium

    if GYM_ID not in gymnasium.registry:
        gymnasium.register(GYM_ID, entry_point=GYM_ENTRY, vector_entry_point=GYM_VECTOR_ENTRY)

    register_aec_ids(PETTINGZOO_IDS)
    register_aec_ids(MULTIPLAYER_IDS)
