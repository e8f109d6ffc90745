"""Agents for the three- and four-player games (:mod:`sixtysix_env.table`): the base class and
random player (:mod:`.base`), the heuristic (:mod:`.heuristic`) and PIMC (:mod:`.pimc`). They are
registered by name for the ``"three"`` and ``"four"`` games in :data:`sixtysix_env.agents.REGISTRY`
(:mod:`.registry`'s ``make_table_agent`` is its deprecated front)."""
