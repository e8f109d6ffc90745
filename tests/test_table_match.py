"""Four-player matches replayed in the environment: every score field, reward and the match's end."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sixtysix_env.envs import sixtysix_four_v0
from sixtysix_env.table import FOUR_PRESETS, FourDeal, FourRules, TableMatch, TableTermination
from sixtysix_env.table.observers import table_layout

SCORE_MINE = table_layout(4)["score_my_team"].start
SCORE_THEIRS = table_layout(4)["score_their_team"].start


cuts_seen: list = []


def _replay(rules, seed: int, pick) -> tuple[list[tuple[int, int]], int]:
    """Play one match episode; check every observation's score fields and every reward against
    scores kept here from the deal results alone. Returns the scores after each deal and the
    number of steps."""
    env = sixtysix_four_v0.raw_env(rules=rules, episode="match")
    env.reset(seed=seed)
    target = env.rules.match_target
    scores = [0, 0]
    after_deals: list[tuple[int, int]] = []
    steps = 0
    rng = random.Random(seed)
    cuts_seen.clear()
    while not any(env.terminations.values()):
        for p, agent in enumerate(env.possible_agents):  # every seat sees the match score
            obs = env.observe(agent)["observation"]
            team = p % 2
            assert obs[SCORE_MINE] == pytest.approx(min(1.0, scores[team] / target))
            assert obs[SCORE_THEIRS] == pytest.approx(min(1.0, scores[1 - team] / target))
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(pick(np.flatnonzero(mask), rng))
        steps += 1
        finished = env._finished_deal
        if finished is None:
            assert all(r == 0 for r in env.rewards.values())
            continue
        gained = _gained(finished)
        for cut in env.match.cut_deals if finished is not env.deal else []:  # dealt on past a cut
            assert cut.termination == TableTermination.CUT
            gained[cut.winner] += cut.game_points
            cuts_seen.append(cut)
        scores[0] += gained[0]
        scores[1] += gained[1]
        after_deals.append((scores[0], scores[1]))
        diff = gained[0] - gained[1]
        assert env.rewards == {a: float(diff if p % 2 == 0 else -diff) for p, a in enumerate(env.possible_agents)}
        assert env.match.scores == scores
        over = max(scores) >= target
        assert all(env.terminations.values()) is over
        if over:
            winners = [p for p in range(4) if p % 2 == scores.index(max(scores))]
            assert env.match.winners == winners
    return after_deals, steps


def _gained(deal) -> list[int]:
    """What each team puts on its score for a finished deal, from the rules rather than from
    ``TableOutcome.scored``: the deal's game points to the winner, plus three nines."""
    out = deal.outcome
    gained = [0, 0]
    if out.winner >= 0:
        gained[out.winner] += out.game_points
    if deal.nine_left >= 0 and out.termination != TableTermination.NINES:
        p = deal.nines_by
        hit = any(
            deal.committed[q] // 6 == deal.nine_left // 6 for q in ((p + 1) % 4, (p + 3) % 4) if deal.committed[q] >= 0
        )
        gained[(p + hit) % 2] += deal.rules.nines_points
    return gained


def _lowest(legal, rng) -> int:
    return int(legal[0])


def _random(legal, rng) -> int:
    return int(rng.choice(list(legal)))


def test_the_reported_match_scores_two_per_deal_won():
    # sixtysix_four_v0, pagat, reset(seed=6), always the lowest legal action: team 0 wins the first
    # two deals by 2 each. The match scores read [4, -2] and [8, -4] (and the match ended) before.
    after, _ = _replay("pagat", 6, _lowest)
    assert after[:2] == [(2, 0), (4, 0)]
    assert max(after[-1]) >= 7 and all(max(s) < 7 for s in after[:-1])


@pytest.mark.parametrize("preset", list(FOUR_PRESETS))
@pytest.mark.parametrize("seed", range(10))
def test_whole_matches_score_every_field(preset, seed):
    after, _ = _replay(preset, seed, _random if seed % 2 else _lowest)
    target = FOUR_PRESETS[preset].match_target
    assert max(after[-1]) >= target and all(max(s) < target for s in after[:-1])
    pairs = zip([(0, 0), *after[:-1]], after, strict=True)
    assert all(b[0] >= a[0] and b[1] >= a[1] for a, b in pairs), "scores only grow"


def test_a_deal_the_cut_decides_is_scored_and_rewarded_in_the_match():
    for seed in range(100):
        _replay("russian", seed, _lowest)
        if cuts_seen:
            return
    raise AssertionError("no cut decided a deal in 100 Russian matches")


def test_the_russian_match_is_to_eight():
    assert FOUR_PRESETS["russian"].match_target == 8 and FOUR_PRESETS["pagat"].match_target == 7


def _play_match(match: TableMatch, rng: random.Random) -> None:
    while not match.is_over:
        deal = match.deal if match.deal.outcome is None else match.next_deal()
        while deal.outcome is None:
            match.apply(rng.choice(deal.legal_actions()))


def test_points_beyond_the_target_carry_to_the_next_match_when_the_rules_say_so():
    for carry in ("all", "none"):
        rules = FourRules(match_target=2, carry_over=carry)
        seen_excess = False
        for seed in range(30):
            match = TableMatch(FourDeal, rules, random.Random(seed))
            _play_match(match, random.Random(seed))
            excess = tuple(max(0, s - 2) for s in match.scores)
            assert match.carry == (excess if carry == "all" else (0, 0))
            nxt = match.next_match()
            assert nxt.scores == list(match.carry) and not nxt.is_over
            assert nxt.deal.scores == match.carry and nxt.deal.dealer == (match.deal.dealer + 1) % 4
            seen_excess |= any(excess)
        assert seen_excess  # a 3-point deal from 0 or 1 goes past 2


def test_next_match_only_after_the_end_and_scores_checked():
    match = TableMatch(FourDeal, "pagat", random.Random(0))
    with pytest.raises(ValueError, match="still running"):
        match.next_match()
    with pytest.raises(ValueError, match="one per side"):
        TableMatch(FourDeal, "pagat", random.Random(0), scores=(1, 2, 3))
    with pytest.raises(ValueError, match="none, contracts, all"):
        FourRules(carry_over="some")


def test_deal_episodes_deal_on_past_a_cut_and_show_its_point():
    env = sixtysix_four_v0.raw_env(rules="russian")
    for seed in range(600):
        env.reset(seed=seed)
        if env.match.cut_deals:
            break
    else:
        raise AssertionError("no cut decided the first deal in 600 resets")
    assert env.deal.outcome is None and sum(env.match.scores) == len(env.match.cut_deals)
    team = env.match.cut_deals[0].winner
    obs = env.observe(env.possible_agents[team])["observation"]
    assert obs[SCORE_MINE] == pytest.approx(env.match.scores[team] / 8)
