"""The ``--ray ADDRESS`` check and the missing-ray message: no Ray needed (tests/test_ray_backend.py runs on Ray)."""

from __future__ import annotations

import argparse
import sys

import pytest

from sixtysix_env.distributed import check_ray_address, cli_ray_address, import_ray


@pytest.mark.parametrize(
    "address", ["local", "auto", "127.0.0.1:6379", "head-node.lan:6380", "ray://10.0.0.5:10001", "h:1", "h:65535"]
)
def test_ray_address_forms_are_accepted(address):
    assert check_ray_address(address) == address


@pytest.mark.parametrize(
    "address",
    [
        "",
        "LOCAL",
        "127.0.0.1",  # no port
        "127.0.0.1:",
        "127.0.0.1:0",
        "127.0.0.1:65536",
        "127.0.0.1:١٢",  # Arabic-Indic digits: Python's int() takes them
        "127.0.0.1:6_379",
        "127.0.0.1: 6379",
        "127.0.0.1:+6379",
        "http://127.0.0.1:6379",
        "-host:6379",
        "ho st:6379",
        ":6379",
        "ray://:10001",
        "a;rm -rf:1",
    ],
)
def test_bad_ray_addresses_are_refused_saying_what_is_allowed(address):
    with pytest.raises(ValueError, match="Ray address") as e:
        check_ray_address(address)
    assert "HOST:PORT" in str(e.value) and "'local'" in str(e.value)
    with pytest.raises(argparse.ArgumentTypeError, match="Ray address"):
        cli_ray_address(address)


@pytest.mark.parametrize("value", [None, 6379, b"local"])
def test_a_ray_address_must_be_text(value):
    with pytest.raises(ValueError, match="must be a text"):
        check_ray_address(value)


def test_without_ray_the_backend_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(ImportError, match=r"pip install 'sixtysix-env\[rllib\]'"):
        import_ray()


def test_the_cli_type_refuses_ray_when_it_is_not_installed(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(argparse.ArgumentTypeError, match=r"needs ray: pip install"):
        cli_ray_address("auto")


def test_the_rllib_extra_installs_ray_client_and_each_framework_extra_draws_curves():
    """``ray://`` addresses need ``ray[client]``; each framework example draws its PNG curve with
    matplotlib (the ``plot`` extra) in the venv the docs name for it."""
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    extras = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    ray = next(r for r in extras["rllib"] if r.startswith("ray["))
    assert "client" in ray.partition("[")[2].partition("]")[0].split(","), ray
    for name in ("cleanrl", "tianshou", "torchrl", "openspiel", "rllib"):
        assert any(r.startswith("sixtysix-env[") and "plot" in r for r in extras[name]), (name, extras[name])


INTERRUPT = """
import _thread, signal, sys, time
from sixtysix_env.distributed.ray_backend import _interruptible

assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # as a shell starts a background job
if sys.argv[1] == "restore":
    _interruptible()
_thread.interrupt_main()  # how Ray delivers a cancel to a running task
time.sleep(0.2)
print("ran on")
"""


@pytest.mark.parametrize("restore", [True, False])
def test_a_ray_task_started_with_sigint_ignored_can_be_cancelled(restore) -> None:
    """Ray's cancel is a KeyboardInterrupt, which a process that inherited an ignored SIGINT (a
    driver run under nohup or by a CI job) never raises: each task restores Python's handler."""
    import signal
    import subprocess

    run = subprocess.run(
        [sys.executable, "-c", INTERRUPT, "restore" if restore else "keep"],
        capture_output=True, text=True, timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )  # fmt: skip
    if restore:
        assert run.returncode != 0 and "KeyboardInterrupt" in run.stderr and "ran on" not in run.stdout
    else:
        assert run.returncode == 0 and "ran on" in run.stdout
