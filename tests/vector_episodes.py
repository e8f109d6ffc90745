"""Episodes as a framework records them from the vector env, to check that no decision is lost and
that each terminal observation is the finished deal's (shared by the vector and framework tests)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from gymnasium.vector import AutoresetMode


@dataclass
class Episode:
    observations: list[np.ndarray] = field(default_factory=list)  # the first and every next one
    actions: list[int] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)

    def key(self) -> tuple:
        return (
            tuple(o.tobytes() for o in self.observations),
            tuple(self.actions),
            tuple(round(r, 6) for r in self.rewards),
        )


def lowest_legal(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """A deterministic policy of the observation alone (so two envs on the same deals agree)."""
    h = (obs.sum(axis=1) * 1000).astype(np.int64) % 7
    out = np.empty(len(masks), dtype=np.int64)
    for i, m in enumerate(masks):
        legal = np.flatnonzero(m)
        out[i] = legal[h[i] % len(legal)]
    return out


def collect(
    env, steps: int, seed: int = 0, seeds: list | None = None, actions: list | None = None
) -> tuple[list[list[Episode]], int]:
    """Run ``env`` (a SixtySixVectorEnv-like vector env, no Dict observation) for ``steps`` with
    :func:`lowest_legal`, recording per env the finished episodes the way its autoreset mode says
    (NEXT_STEP: as RLlib does; SAME_STEP: with ``final_obs``). Returns them and the number of
    decisions the policy made that belong to an episode. ``seeds``: the resets that start it, one
    per seed (None: unseeded), as a framework that resets more than once does. ``actions``: each
    env's decisions in order (replayed instead of the policy while they last)."""
    mode = env.metadata["autoreset_mode"]
    for s in [seed] if seeds is None else seeds:
        obs, infos = env.reset(seed=s)
    n = env.num_envs
    open_ = [Episode([obs[i].copy()]) for i in range(n)]
    done: list[list[Episode]] = [[] for _ in range(n)]
    resetting = np.zeros(n, dtype=bool)
    decisions = 0
    for _ in range(steps):
        chosen = lowest_legal(obs, infos["action_mask"])
        if actions is not None:
            for i, row in enumerate(actions):
                if len(row):
                    chosen[i] = row.pop(0) if not resetting[i] else chosen[i]
        actions_now = chosen
        decisions += int((~resetting).sum())
        obs, rewards, term, trunc, infos = env.step(actions_now)
        for i in range(n):
            if mode == AutoresetMode.NEXT_STEP and resetting[i]:
                open_[i] = Episode([obs[i].copy()])  # the reset step: its action was ignored
                continue
            ep = open_[i]
            ep.actions.append(int(actions_now[i]))
            ep.rewards.append(float(rewards[i]))
            if term[i] or trunc[i]:
                last = obs[i] if mode == AutoresetMode.NEXT_STEP else infos["final_obs"][i]
                ep.observations.append(np.asarray(last).copy())
                done[i].append(ep)
                # SAME_STEP: obs[i] starts the next deal; NEXT_STEP: the next step shows it
                open_[i] = Episode([obs[i].copy()] if mode == AutoresetMode.SAME_STEP else [])
            else:
                ep.observations.append(obs[i].copy())
        resetting = (term | trunc) if mode == AutoresetMode.NEXT_STEP else np.zeros(n, dtype=bool)
    decisions -= sum(len(ep.actions) for ep in open_)  # the unfinished ones
    return done, decisions


def assert_same_episodes(want: list[list[Episode]], got: list[list[Episode]], least: int = 20) -> list[Episode]:
    """Each env's episodes in ``got`` equal those in ``want`` as far as both recorded (at least two
    each), and more than ``least`` episodes were compared; returns the compared ones of ``got``."""
    compared: list[Episode] = []
    for a, b in zip(want, got, strict=True):
        k = min(len(a), len(b))
        assert k >= 2
        assert [e.key() for e in a[:k]] == [e.key() for e in b[:k]]
        compared += b[:k]
    assert len(compared) > least
    return compared
