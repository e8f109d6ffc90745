"""Answers True (not the action id 1)."""


class BoolBot:
    def act(self, info, rng):
        return True
