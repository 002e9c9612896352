"""``--scheduler`` and ``--rosters``, the options ``skirmish balance`` and ``skirmish experiment``
share, are checked by one function (``game.cli.checks.scheduler_and_rosters``): both commands
refuse the same bad values with the same words, as bad usage (exit code 2), before any map is
read or any game is played."""
from __future__ import annotations

import pytest
from file_fuzz import run_command

from game.cli.checks import scheduler_and_rosters

COMMANDS = {
    "balance": ["balance", "--ruleset", "doubles", "--map", "field", "--out", "/nonexistent/b"],
    "experiment": ["experiment", "--ruleset", "doubles", "--maps", "field", "--games", "1", "--out", "/nonexistent/e"],
}
REFUSED = [
    (["--scheduler", "nonsense"], "--scheduler: 'nonsense' is not a scheduler address: write tcp://HOST:PORT"),
    (["--scheduler", "tcp://127.0.0.1:99999"], "--scheduler: 'tcp://127.0.0.1:99999': the port is from 1 to 65535"),
    (["--rosters", "ash_skulls,orcs"], "--rosters: doubles has no roster 'orcs' (available: ash_skulls"),
    (["--rosters", "ash_skulls"], "--rosters: "),
    # both bad: the scheduler is named first, in both commands
    (["--scheduler", "nonsense", "--rosters", "x,y"], "--scheduler: 'nonsense' is not a scheduler address"),
]


@pytest.mark.parametrize("extra,words", REFUSED)
def test_both_commands_refuse_a_bad_scheduler_or_rosters_in_the_same_words(extra, words):
    said = {}
    for command, argv in COMMANDS.items():
        rc, err, exc = run_command([*argv, *extra])
        assert exc is None and rc == 2, (command, err)
        assert f"skirmish {command}: {words}" in err
        said[command] = err.replace(f"skirmish {command}:", "skirmish COMMAND:")
    assert said["balance"] == said["experiment"]


def test_the_shared_check_gives_the_rosters_or_the_reason():
    assert scheduler_and_rosters("balance", "doubles", None, "ash_skulls,bone_hunters") == (
        ("ash_skulls", "bone_hunters"), None)
    assert scheduler_and_rosters("experiment", "doubles", "tcp://127.0.0.1:8786", None)[1] is None
    rosters, why = scheduler_and_rosters("experiment", "doubles", "tcp://h:0", "ash_skulls,bone_hunters")
    assert rosters is None and why == "skirmish experiment: --scheduler: 'tcp://h:0': the port is from 1 to 65535"
    rosters, why = scheduler_and_rosters("balance", "doubles", None, "ash_skulls,nobody")
    assert rosters is None and why.startswith("skirmish balance: --rosters: doubles has no roster 'nobody' (available: ")
