import pytest

from sixtysix_env import PRESETS, Rules, get_rules
from sixtysix_env.cards import Rank


def test_standard_is_the_default_and_presets_are_found_by_name():
    assert get_rules() == Rules() == get_rules("standard")
    for name, rules in PRESETS.items():
        assert get_rules(name) is rules and rules.name == name
    custom = Rules(name="custom", match_target=3)
    assert get_rules(custom) is custom


def test_unknown_preset_names_the_choices():
    with pytest.raises(ValueError, match="standard"):
        get_rules("skat")


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"closing_min_stock": 14}, "cannot occur"),
        ({"closing_min_stock": 1}, "cannot occur"),
        ({"deck_size": 32}, "24 or 20"),
        ({"deck_size": 20}, "JACK"),
        ({"claiming": "sometimes"}, "auto, explicit"),
        ({"match_target": 0}, "1..10000"),
        ({"last_trick_bonus": -10}, "0..66"),
    ],
)
def test_impossible_rules_are_rejected_at_construction(changes, fragment):
    with pytest.raises(ValueError, match=fragment):
        Rules(**changes)


def test_replace_and_differences():
    r = get_rules("standard").replace(claiming="explicit")
    assert r.claiming == "explicit" and r.differences() == {"claiming": ("explicit", "auto")}
    assert PRESETS["schnapsen"].hand_size == 5 and PRESETS["schnapsen"].stock_size == 10
    assert PRESETS["schnapsen"].exchange_rank == Rank.JACK


@pytest.mark.parametrize("text", ["١١", "1_1", "１１", "+", "7.0"])
def test_rules_text_reads_numbers_in_ascii_digits_only(text: str) -> None:
    """Issue 20, item 16: int() would read Arabic-Indic and full-width digits and underscores."""
    from sixtysix_env.table.rules import get_four_rules

    with pytest.raises(ValueError, match=r"match_target=.* is not allowed: write an int in ASCII digits"):
        get_rules(f"standard(match_target={text})")
    with pytest.raises(ValueError, match=r"FourRules\.match_target=.* is not allowed"):
        get_four_rules(f"russian(match_target={text})")
    assert get_rules("standard(match_target=11)").match_target == 11
