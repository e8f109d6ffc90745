"""The agents' numba searches on the batched engine's state rows: exact alpha-beta
(:mod:`.solver`), the best response to the heuristic (:mod:`.response`) and PIMC's open-stock
playouts (:mod:`.playout`). Each mirrors a readable reference in :mod:`sixtysix_env.agents`
(``alphabeta``, ``response``, ``pimc``), which the tests compare it with."""
