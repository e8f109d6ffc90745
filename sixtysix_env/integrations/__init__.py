"""What RL frameworks need from this package beyond the envs themselves; nothing here is imported
by ``import sixtysix_env``, and each module imports its framework only when it is imported.

* ``evaluate``: ``duplicate_eval(policy)``, the duplicate-deal strength of a batched policy
  against ``heuristic`` that every example in ``examples/`` reports (needs numba).
* ``openspiel``: the OpenSpiel game ``python_sixtysix`` (registered on import) and
  ``ISMCTSAgent``, OpenSpiel's ISMCTS bot as an arena agent (needs ``open-spiel``).

The other frameworks need no adapter: the envs' options put the mask where they read it (see
README, "Training with RL frameworks", and ``sixtysix_env.envs.infos``).
"""
