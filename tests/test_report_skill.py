"""`simdom report --skill FILE --ladder FILE` (issue 20 item 3, balance): the report's "Luck and skill"
section says what `simdom skill` and `simdom ladder` said of those files, and the seat and lead of the
arms played by search at every seat; a file that is not such an output is refused with one line and no
report is written. Real runs, real files, the real command."""
from __future__ import annotations

import json

import pytest

STRONG = """
name = "sp"
players = 2
policies = ["search:worlds=16,depth=6,own=greedy,win=0", "search:worlds=16,depth=6,own=greedy,win=0"]
rotation = true
deals = 20
seed = 3

[[arms]]
name = "threes"
rules = { preset = "threes" }

[[arms]]
name = "fives"
rules = { preset = "fives" }
"""

WEAK = STRONG.replace('["search:worlds=16,depth=6,own=greedy,win=0", "search:worlds=16,depth=6,own=greedy,win=0"]', '["greedy", "random"]').replace('"sp"', '"weak"')


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A strong-play run, a greedy one, and the JSON of skill and ladder (each command run once)."""
    import subprocess

    from conftest import SIMDOM
    d = tmp_path_factory.mktemp("report_skill")

    def run(*args):
        p = subprocess.run([SIMDOM, *map(str, args)], capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        return p.stdout

    for name, text in (("sp", STRONG), ("weak", WEAK)):
        (d / f"{name}.toml").write_text(text)
        run("run", d / f"{name}.toml", "-o", d / name, "-w", "1")
    run("skill", "-r", "threes", "-n", "2", "--deals", "4", "-w", "1", "-f", "json", "-o", d / "skill.json")
    run("ladder", "random", "greedy", "heavy", "-r", "threes", "-n", "2", "--deals", "30", "-f", "json",
        "-o", d / "ladder.json")
    from simdom import present as P
    from simdom.stats.views.skill import skill_answer  # what `simdom skill` prints of these rows
    texts = {"skill": P.text(skill_answer(json.loads((d / "skill.json").read_text())["rows"])),
             "ladder": run("ladder", "random", "greedy", "heavy", "-r", "threes", "-n", "2", "--deals", "30")}
    return d, texts


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_section_says_what_skill_and_ladder_said_and_shows_strong_play(made, cli):
    d, texts = made
    p = cli("report", d / "sp", "--skill", d / "skill.json", "--ladder", d / "ladder.json", "-o", d / "r.md")
    assert p.returncode == 0, p.stderr
    assert "Luck and skill" in p.stdout
    md = (d / "r.md").read_text()
    section = _flat(md[md.index("## Luck and skill"):])
    skill_first = _flat(texts["skill"]).split(" Against a greedy")[0]   # the command's first sentence
    ladder_first = _flat(texts["ladder"]).split(" Threes, 2 players")[0]
    assert skill_first.startswith("Threes, 2 players: skill share at least") and skill_first in section
    assert ladder_first.endswith(")."), ladder_first
    assert ladder_first.split(" is rated ")[0] + " is rated " in section and ladder_first in section
    # the seat and lead of the arms where search plays every seat, one Holm family per folder
    assert "sp (search, expert or rollout at every seat): The leader (1st to act) wins" in section
    assert "Holm over 2 arms" in section
    data = json.loads((d / "skill.json").read_text())
    assert f"From skill.json (seed 1, behaviour version {data['sim_version']})" in section


def test_without_strong_arms_the_section_says_so_and_without_files_there_is_none(made, cli):
    d, _ = made
    p = cli("report", d / "weak", "--ladder", d / "ladder.json", "-o", d / "w.md")
    assert p.returncode == 0, p.stderr
    md = (d / "w.md").read_text()
    assert "## Luck and skill" in md and "No arm of these results has every seat played by search" in md
    from simdom.report.skill import luck_and_skill
    from simdom.stats.read.folder import open_selection
    assert luck_and_skill([open_selection(str(d / "weak"))], [], []) is None  # nothing to say: no section
    assert luck_and_skill([open_selection(str(d / "sp"))], [], []) is not None


@pytest.mark.parametrize("kind,content,says", [
    ("skill", "not json", "is not a `simdom skill --format json` file: not JSON"),
    ("skill", "[1, 2]", "not a JSON object"),
    ("skill", "LADDER", "no 'rows'"),
    ("ladder", "SKILL", "no 'ratings'"),
    ("skill", '{"rows": []}', "'rows' is not a list of rows"),
    ("ladder", "LADDER_ONE", "'head_to_head' lacks pairs"),
])
def test_a_file_that_is_no_such_output_is_refused_and_nothing_written(made, cli, tmp_path, kind, content, says):
    d, _ = made
    if content in ("LADDER", "SKILL"):
        content = (d / f"{content.lower()}.json").read_text()
    elif content == "LADDER_ONE":
        data = json.loads((d / "ladder.json").read_text())
        data["head_to_head"] = data["head_to_head"][1:]
        content = json.dumps(data)
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    out = tmp_path / "r.html"
    p = cli("report", d / "sp", f"--{kind}", bad, "-o", out)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and says in p.stderr and str(bad) in p.stderr, p.stderr
    assert not out.exists()


def test_the_json_of_skill_and_ladder_carry_their_seed_and_behaviour_version(made):
    from simdom.engine.api import SIM_VERSION
    d, _ = made
    for name in ("skill.json", "ladder.json"):
        data = json.loads((d / name).read_text())
        assert data["seed"] == 1 and data["sim_version"] == SIM_VERSION, name
