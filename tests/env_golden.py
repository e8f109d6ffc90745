"""Seeded episodes of every AEC env, hashed step by step, to pin behaviour across refactors.

Each case plays a few seeded episodes with seeded random legal actions and hashes every step's
(agent, observation, action mask, reward, cumulative reward, termination, truncation, info), the
renders, ``state()`` where the env has one, and the texts of the errors a caller can provoke. The
hashes in ``tests/data/env_golden.json`` were recorded from the code before the env base class
(``sixtysix_env.envs.base``); ``tests/test_env_golden.py`` checks the code still gives them.

A deliberate behaviour change (a new observation field, new info keys) changes the hashes: record
them again from the changed code with ``python -m tests.env_golden --write`` and say so in the
commit.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import hashlib
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from sixtysix_env.envs import sixtysix_four_v0, sixtysix_three_v0, sixtysix_v0

GOLDEN = Path(__file__).parent / "data" / "env_golden.json"
SEEDS = (0, 7)


def canon(x: Any) -> Any:
    """A JSON-able, order-stable form of an observation, info or reward."""
    if isinstance(x, np.ndarray):
        return ["nd", str(x.dtype), list(x.shape), hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()]
    if isinstance(x, np.generic):
        return ["np", str(x.dtype), repr(x.item())]
    if isinstance(x, dict):
        return ["dict", [[canon(k), canon(v)] for k, v in sorted(x.items(), key=lambda kv: repr(kv[0]))]]
    if isinstance(x, list | tuple):
        return [type(x).__name__, [canon(v) for v in x]]
    if isinstance(x, enum.Enum):
        return ["enum", type(x).__name__, x.name]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return ["dc", type(x).__name__, [[f.name, canon(getattr(x, f.name))] for f in dataclasses.fields(x)]]
    if isinstance(x, float):
        return ["f", repr(x)]
    if x is None or isinstance(x, bool | int | str):
        return x
    return ["repr", type(x).__name__, repr(x)]


def _digest(items: list[Any]) -> str:
    return hashlib.sha256(json.dumps(items, separators=(",", ":")).encode()).hexdigest()


def play(make: Callable[[], Any], seed: int, render: bool = False, state: bool = False) -> list[Any]:
    """One seeded episode of ``make()`` with seeded random legal actions, every step recorded."""
    env = make()
    rng = random.Random(seed)
    out: list[Any] = []
    env.reset(seed=seed)
    if render:
        out.append(["render", canon(env.render())])
    for agent in env.agent_iter(max_iter=2000):
        obs, reward, term, trunc, info = env.last()
        out.append([agent, canon(obs), canon(reward), canon(env._cumulative_rewards), term, trunc, canon(info)])
        out.append(["all_infos", canon(env.infos), canon(env.rewards)])
        if state:
            out.append(["state", canon(env.state())])
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        env.step(action)
        if render:
            out.append(["render", canon(env.render())])
    out.append(["end", list(env.agents), canon(env.rewards)])
    return out


def errors(make: Callable[[], Any]) -> list[Any]:
    """The texts of the errors a caller can provoke, and the env still usable after each."""
    out: list[Any] = []

    def attempt(what: str, f: Callable[[], Any]) -> None:
        try:
            f()
            out.append([what, "ok"])
        except Exception as e:  # the type and text are what is recorded
            out.append([what, type(e).__name__, str(e)])

    env = make()
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    attempt("illegal", lambda: env.step(illegal))
    out.append(["after_illegal", env.agent_selection, canon(env.observe(env.agent_selection))])
    attempt("bad_agent", lambda: env.observe("player_9"))
    attempt("bad_seed", lambda: env.reset(seed=-1))
    attempt("bad_options", lambda: env.reset(options=[1]))
    attempt("bad_deal", lambda: env.reset(options={"deal": {"hands": []}}))
    attempt("bad_deal_keys", lambda: env.reset(options={"deal": {"hands": [], "stock": [], "extra": 1}}))
    out.append(["after_errors", env.agent_selection, canon(env.observe(env.agent_selection))])
    for _agent in env.agent_iter():  # to the end of the episode, then one step too many
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    attempt("step_after_end", lambda: env.step(0))
    return out


def wrapped_illegal(make: Callable[[], Any]) -> list[Any]:
    """``env()``: an illegal action ends the episode with the penalty for the offender."""
    env = make()
    env.reset(seed=5)
    obs = env.observe(env.agent_selection)
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    out: list[Any] = [canon(env.rewards), canon(env._cumulative_rewards), canon(env.infos), canon(env.terminations)]
    for agent in env.agent_iter(max_iter=20):
        out.append([agent, canon(env.last())])
        env.step(None)
    return out


def cases() -> Iterator[tuple[str, Callable[[], list[Any]]]]:
    """(name, recorder) for every recorded case."""
    two = sixtysix_v0.raw_env

    def episodes(make: Callable[[], Any], render: bool = False, state: bool = False) -> Callable[[], list[Any]]:
        return lambda: [play(make, s, render, state) for s in SEEDS]

    for rules in ("standard", "russian", "marriage", "santase", "schnapsen", "vu"):
        for episode in ("deal", "match"):
            yield f"two/{rules}/{episode}", episodes(lambda r=rules, e=episode: two(rules=r, episode=e), state=True)
    for observation in ("vector", "dict", "history"):
        for reward in ("game_points", "win_loss", "shaped"):
            for episode in ("deal", "match"):
                yield (
                    f"two/{observation}/{reward}/{episode}",
                    episodes(lambda o=observation, w=reward, e=episode: two(observation=o, reward=w, episode=e)),
                )
    yield "two/explicit", episodes(lambda: two(claiming="explicit", episode="match"))
    yield "two/ansi", episodes(lambda: two(render_mode="ansi", episode="match"), render=True)
    yield "two/rgb", lambda: [play(lambda: two(render_mode="rgb_array"), 0, render=True)]
    yield "two/errors", lambda: errors(two)
    yield "two/wrapped", lambda: wrapped_illegal(sixtysix_v0.env)
    yield "two/wrapped_pz", lambda: wrapped_illegal(lambda: sixtysix_v0.env(wrapper="pettingzoo"))
    for name, module, presets in (
        ("three", sixtysix_three_v0, ("pagat", "marriage")),
        ("four", sixtysix_four_v0, ("pagat", "russian")),
    ):
        raw = module.raw_env
        for rules in presets:
            for episode in ("deal", "match"):
                yield f"{name}/{rules}/{episode}", episodes(lambda r=rules, e=episode, m=raw: m(rules=r, episode=e))
        for observation in ("vector", "dict", "history"):
            for reward in ("game_points", "win_loss", "shaped"):
                yield (
                    f"{name}/{observation}/{reward}/match",
                    episodes(lambda o=observation, w=reward, m=raw: m(observation=o, reward=w, episode="match")),
                )
        yield f"{name}/ansi", episodes(lambda m=raw: m(render_mode="ansi", episode="match"), render=True)
        yield f"{name}/rgb", lambda m=raw: [play(lambda: m(render_mode="rgb_array"), 0, render=True)]
        yield f"{name}/errors", lambda m=raw: errors(m)
        yield f"{name}/wrapped", lambda m=module: wrapped_illegal(m.env)


def record() -> dict[str, str]:
    return {name: _digest(recorder()) for name, recorder in cases()}


def main() -> None:
    parser = argparse.ArgumentParser(description="Record or check the seeded env episode hashes.")
    parser.add_argument("--write", action="store_true", help=f"write the hashes to {GOLDEN}")
    args = parser.parse_args()
    hashes = record()
    if args.write:
        GOLDEN.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(hashes)} hashes to {GOLDEN}")
        return
    golden = json.loads(GOLDEN.read_text())
    changed = sorted(k for k in hashes.keys() | golden.keys() if hashes.get(k) != golden.get(k))
    print("changed:", ", ".join(changed) if changed else "none")


if __name__ == "__main__":
    main()
