"""`ctrs --help` and every subcommand's help end with one example line, and the example is a valid command."""

from __future__ import annotations

import shlex
import subprocess
import sys

import pytest

from ctrs.workflow import cli

SUBCOMMANDS = sorted(cli.build_parser()._subparsers._group_actions[0].choices)  # noqa: SLF001


def test_every_subcommand_has_an_example():
    assert set(cli.EXAMPLES) == {"ctrs", *SUBCOMMANDS}


@pytest.mark.parametrize("name", ["ctrs", *SUBCOMMANDS])
def test_help_ends_with_a_valid_example(name, capsys):
    argv = [] if name == "ctrs" else [name]
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args([*argv, "--help"])
    assert e.value.code == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last == f"example: {cli.EXAMPLES[name]}"
    words = shlex.split(cli.EXAMPLES[name], comments=True)
    assert words[0] == "ctrs" and (name == "ctrs" or words[1] == name)
    cli.build_parser().parse_args(words[1:])  # parses: flags and arguments exist


def test_top_level_help_from_the_entry_point():
    res = subprocess.run([sys.executable, "-m", "ctrs.workflow.cli", "--help"], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.rstrip().endswith(cli.EXAMPLES["ctrs"])
