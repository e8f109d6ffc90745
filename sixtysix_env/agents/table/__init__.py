"""Agents for the three- and four-player games (:mod:`sixtysix_env.table`): the base class and
random player (:mod:`.base`), the heuristic (:mod:`.heuristic`), PIMC (:mod:`.pimc`) and the
registry that builds them by name (:mod:`.registry`)."""
