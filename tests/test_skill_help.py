"""`simdom skill --help` shows the definitions of LE and RE whole: the help is rich markup, where
E[optimal] was read as a tag and printed as "E" (the help read "LE = E - E, RE = E - E")."""
from __future__ import annotations

import re

from typer.testing import CliRunner

from simdom.cli import app


def test_the_skill_help_defines_le_and_re_in_full():
    out = CliRunner().invoke(app, ["skill", "--help"], env={"COLUMNS": "200"})
    assert out.exit_code == 0
    text = re.sub(r"\s+", " ", re.sub(r"[│╭╮╰╯─]", " ", out.output))
    assert "LE = E(optimal) - E(beginner), RE = E(fictive) - E(optimal)" in text
