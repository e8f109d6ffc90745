"""Beyond one machine: the arena, the gap benchmark and the tournament on a Ray cluster.

``RayExecutor(address).map(fn, tasks)`` plays the same tasks as the local process pool and
returns their results in the same order, so a run with ``--ray ADDRESS`` gives the tables of
the local run with the same seed. Ray is optional (the ``rllib`` extra); this package imports it
only when a cluster is used. How to start a cluster and run on it: ``docs/ray.md``.
"""

from __future__ import annotations

from .address import ADDRESS_HELP, check_ray_address, cli_ray_address
from .ray_backend import RayExecutor, import_ray, ray_map

__all__ = ["ADDRESS_HELP", "RayExecutor", "check_ray_address", "cli_ray_address", "import_ray", "ray_map"]
