"""Agent option text (``pimc:samples=40``) is read as a number only when written in ASCII digits,
and the web command line reads its numbers the same way (checks.parse_int_text, cli_int)."""

from __future__ import annotations

import pytest

from sixtysix_env.agents.spec import option_value, parse_agent_spec


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("40", 40),
        ("-3", -3),
        ("0.5", 0.5),
        ("1e3", 1000.0),
        ("true", True),
        ("None", None),
        ("playout", "playout"),
        ("١٢", "١٢"),
        ("1_000", "1_000"),
        ("٣.٥", "٣.٥"),
        ("9" * 19, "9" * 19),
        ("inf", "inf"),
        ("nan", "nan"),
        ("1e999", "1e999"),
    ],
)
def test_option_values_are_numbers_only_in_ascii_digits(text, value):
    got = option_value(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("spec", ["pimc:samples=١٢", "pimc:samples=1_0", "pimc:samples=" + "9" * 30])
def test_a_budget_in_other_digits_is_refused_by_the_type_check(spec):
    with pytest.raises(ValueError, match="must be an int"):
        parse_agent_spec(spec)


@pytest.mark.parametrize(
    ("flag", "text"), [("--port", "٨٠٦٦"), ("--port", "8_066"), ("--seed", "١"), ("--seed", "9" * 30)]
)
def test_the_web_command_line_reads_numbers_in_ascii_digits_only(capsys, flag, text):
    pytest.importorskip("flask")
    from sixtysix_env.web.__main__ import main

    with pytest.raises(SystemExit) as e:
        main([flag, text])
    assert e.value.code == 2 and "not a whole number" in capsys.readouterr().err
