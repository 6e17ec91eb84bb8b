"""The simdom command line: thin Typer commands over the application layer."""
from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console

from .. import __version__
from ..policies import PolicyError, seat_policies
from ..rules import ALL_PARAMETERS, PRESET_SOURCES, PRESETS, RulesError, from_dict, preset

app = typer.Typer(
    name="simdom",
    help="Simulate the domino scoring games Threes and Fives and study them with statistics.\n\n"
         "Start with [bold]simdom rules[/], [bold]simdom trace[/], [bold]simdom replay --script "
         "scenarios/seed-game.deal.toml[/] or [bold]simdom run scenarios/default.toml[/].",
    rich_markup_mode="rich",
    no_args_is_help=True,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
console = Console()
err = Console(stderr=True)


def fail(message: str) -> "typer.Exit":
    """One clear message and exit code 2 (usage error)."""
    err.print(f"[bold red]Error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def _version(value: bool) -> None:
    if value:
        from ..engine.api import SIM_VERSION
        console.print(f"simdom {__version__} (behaviour version {SIM_VERSION})")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Show the version and the behaviour version, then exit.")) -> None:
    """simdom: simulation and statistics for Threes and Fives."""
    from ..engine.api import check_kernel_mode
    try:
        check_kernel_mode()  # SIMDOM_KERNEL, read by every command that plays deals
    except ValueError as e:
        fail(str(e))


def parse_overrides(items: Optional[List[str]]) -> dict[str, Any]:
    """``--set key=value`` items, each value read as TOML (``--set divisors=[3,5]``)."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, eq, val = item.partition("=")
        if not eq:
            fail(f"--set {item!r}: write --set PARAMETER=VALUE; parameters: {', '.join(ALL_PARAMETERS)}")
        try:
            out[key.strip()] = tomllib.loads(f"v = {val.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            out[key.strip()] = val.strip()
    return out


def make_rules(name: str, players: int, overrides: Optional[List[str]]):
    try:
        return preset(name, players=players, **parse_overrides(overrides))
    except RulesError as e:
        fail(str(e))


def make_policies(policy: List[str], players: int):
    try:
        return seat_policies(policy, players)
    except PolicyError as e:
        fail(str(e))


RULES_OPT = typer.Option("threes", "--rules", "-r", help=f"Preset: {', '.join(PRESETS)}.")
PLAYERS_OPT = typer.Option(4, "--players", "-n", help="Players, 2 to 4.")
SET_OPT = typer.Option(None, "--set", help="Override a rule parameter, e.g. --set min_ends=2 (repeatable).")
POLICY_OPT = typer.Option(["greedy"], "--policy", "-p",
                          help="Policy for every seat, or once per seat in seat order (e.g. hold:until=9).")


@app.command("rules")
def rules_cmd(
    name: Optional[str] = typer.Argument(None, help="A preset; omit to list them."),
    players: int = PLAYERS_OPT,
    overrides: Optional[List[str]] = SET_OPT,
    as_json: bool = typer.Option(False, "--json", help="Print the resolved rules as JSON."),
) -> None:
    """List the rule presets, or print one preset's parameters.

    [bold]Examples[/]

      simdom rules
      simdom rules threes
      simdom rules fives --players 2 --set min_ends=2 --json
    """
    from rich.table import Table

    if name is None:
        t = Table(title="Rule presets (RULES.md section 8)")
        for col in ("preset", "source", "hands 2/3/4", "draw", "lead", "spinner", "scores", "bonuses"):
            t.add_column(col)
        for p in PRESETS:
            r = preset(p)
            hs = "/".join(map(str, r.hand_size))
            scores = f"{r.points} if sum % {' or '.join(map(str, r.divisors))} == 0, >= {r.min_ends} ends"
            fdb = f"first double {r.to_dict()['first_double_bonus']}" if r.first_double_bonus else ""
            bon = ", ".join(x for x in (fdb, f"out {r.out_bonus}", f"block {r.block_bonus}") if x)
            t.add_row(p, PRESET_SOURCES[p], hs, r.draw, r.lead, r.spinner + (f" ({r.arms_open})" if r.arms_open else ""),
                      scores, bon)
        console.print(t)
        return
    r = make_rules(name, players, overrides)
    d = r.to_dict()
    if as_json:
        print(json.dumps(d))
        return
    t = Table(title=f"{name}, {players} players" + (" (with overrides)" if overrides else ""))
    t.add_column("parameter")
    t.add_column("value")
    for k, v in d.items():
        t.add_row(k, json.dumps(v) if not isinstance(v, str) else v)
    console.print(t)


def _open_out(path: Path, overwrite: bool) -> Path:
    if path.exists() and not overwrite:
        fail(f"{path} exists; allowed: a new file name, or --overwrite to replace it")
    if path.parent and not path.parent.exists():
        fail(f"folder {path.parent} does not exist")
    return path.with_name(f".{path.name}.tmp-{os.getpid()}")


@app.command("trace")
def trace_cmd(
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = POLICY_OPT,
    deals: int = typer.Option(100, "--deals", "-d", min=1, help="How many deals."),
    matches: Optional[int] = typer.Option(None, "--matches", "-m", min=1,
                                          help="Write this many whole matches instead (needs --set target=T > 0)."),
    seed: int = typer.Option(1, "--seed", "-s", min=0, help="Root seed: deal i depends on (seed, i) alone."),
    first_deal: int = typer.Option(0, "--first-deal", min=0, help="Number of the first deal."),
    out: Path = typer.Option(..., "--out", "-o", help="Output JSON Lines file."),
    overrides: Optional[List[str]] = SET_OPT,
    overwrite: bool = typer.Option(False, "--overwrite", help="Replace an existing output file."),
) -> None:
    """Write deals as JSON Lines traces (RULES.md section 11), one deal per line; with --matches, whole
    matches (RULES.md section 12): one line per deal with its match object, matches 0, 1, 2, ...

    Any deal can be reproduced from its seed and number: [bold]simdom replay --seed S --deal I[/];
    any match from its seed and id: [bold]simdom replay --set target=T --seed S --match I[/].

    [bold]Examples[/]

      simdom trace --rules threes --players 4 --policy greedy --deals 1000 --seed 7 -o threes.jsonl
      simdom trace -r fives -n 3 -p greedy -p random -p hold:until=9 -d 50 -o mixed.jsonl
      simdom trace -r fives --set target=100 --set teams=partners --matches 20 -o fives100.jsonl
    """
    from rich.progress import Progress

    from ..engine.api import trace

    r = make_rules(rules, players, overrides)
    pols = make_policies(policy, players)
    if matches is not None and not r.is_match:
        fail("--matches needs a match: rules with target > 0 (RULES.md 12); allowed: --set target=T, "
             "e.g. --set target=100, or --deals for single deals")
    if matches is not None and first_deal:
        fail("--first-deal applies to single deals; allowed with --matches: matches 0 .. M - 1 of --seed")
    if matches is None and r.is_match:
        fail(f"target = {r.target} makes every deal part of a match; allowed: --matches M to write whole "
             "matches, or target = 0 for single deals")
    tmp = _open_out(out, overwrite)
    try:
        with open(tmp, "w", encoding="utf-8") as fh, Progress(console=err, transient=True) as bar:
            if matches is None:
                task = bar.add_task("tracing", total=deals)
                for i in range(first_deal, first_deal + deals):
                    fh.write(json.dumps(trace(r, pols, seed, i), separators=(",", ":")) + "\n")
                    bar.advance(task)
            else:
                from ..engine.matches import trace_match

                task = bar.add_task("tracing", total=matches)
                written = 0
                for m in range(matches):
                    for rec in trace_match(r, pols, seed, m, deal0=written):
                        fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
                        written += 1
                    bar.advance(task)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    if matches is None:
        console.print(f"wrote {deals} deals to {out}")
    else:
        console.print(f"wrote {matches} match{'es' if matches > 1 else ''} ({written} deals) to {out}")


def _read_trace(path: Path, deal: Optional[int]) -> dict[str, Any]:
    if not path.exists():
        fail(f"trace file {path} does not exist")
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                fail(f"{path}:{n + 1}: not a JSON line ({e})")
            if deal is None or rec.get("deal") == deal:
                return rec
    fail(f"{path}: no deal {deal}" if deal is not None else f"{path} is empty")


@app.command("replay")
def replay_cmd(
    trace_file: Optional[Path] = typer.Argument(None, help="A JSON Lines trace file (simdom trace)."),
    deal: Optional[int] = typer.Option(None, "--deal", help="Deal number (default: the file's first deal, or 0)."),
    match: Optional[int] = typer.Option(None, "--match", min=0,
                                        help="Match id: show a whole match (RULES.md 12) hand by hand."),
    hand: Optional[int] = typer.Option(None, "--hand", min=0, help="With --match: also show this deal move by move."),
    script: Optional[Path] = typer.Option(None, "--script", help="A scripted deal file (TOML)."),
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = POLICY_OPT,
    seed: int = typer.Option(1, "--seed", "-s", min=0, help="Root seed of the generated deal."),
    overrides: Optional[List[str]] = SET_OPT,
) -> None:
    """Print one deal move by move: hands, each move with its ends, points and bonus, and the totals.

    The deal comes from a trace file, a scripted deal, or rules + policies + seed + deal number.
    Every move is re-played by the engine, so a replay also checks the trace. With --match, a whole
    match: who won, the scoreboard after each deal, and with --hand one deal move by move.

    [bold]Examples[/]

      simdom replay --script scenarios/seed-game.deal.toml
      simdom replay threes.jsonl --deal 12
      simdom replay --rules fives --players 4 --policy greedy --seed 7 --deal 3
      simdom replay fives100.jsonl --match 3 --hand 1
      simdom replay -r fives --set target=100 --seed 7 --match 3
    """
    from ..engine.api import trace
    from ..deal.replay import ReplayError, render, replay_record
    from ..deal.script import ScriptError, check_expectations, load_script, run_script

    if match is not None or hand is not None:
        _replay_match(trace_file, match, hand, script, rules, players, policy, seed, overrides)
        return
    title = ""
    if script is not None:
        try:
            sc = load_script(script)
            st, results = run_script(sc, seed)
        except ScriptError as e:
            fail(str(e))
        rec = st.record(seed=None, deal=0)
        title = sc.name
        bad = check_expectations(sc, st, results)
    elif trace_file is not None:
        rec = _read_trace(trace_file, deal)
        if deal is None and isinstance(rec.get("match"), dict):  # a match trace: show its first match
            _replay_match(trace_file, rec["match"].get("id"), None, None, rules, players, policy, seed, overrides)
            return
        bad = []
    else:
        r = make_rules(rules, players, overrides)
        if r.is_match:
            fail(f"target = {r.target}: a deal of a match; allowed: --match I to replay match I, or target = 0")
        rec = trace(r, make_policies(policy, players), seed, deal or 0)
        bad = []
    if isinstance(rec.get("match"), dict):
        fail(f"deal {rec.get('deal')} is a deal of match {rec['match'].get('id')}; allowed: --match "
             f"{rec['match'].get('id')} to replay its match")
    try:
        st, steps = replay_record(rec)
    except (ReplayError, RulesError, KeyError, TypeError, ValueError) as e:
        fail(f"the deal does not replay: {e}")
    render(rec, steps, st, console, title)
    if script is not None:
        if bad:
            fail("the script's expectations do not hold: " + "; ".join(bad))
        if sc.expect:
            console.print(f"[green]all {len(sc.expect)} expectations of the script hold[/]")


def _replay_match(trace_file, match, hand, script, rules, players, policy, seed, overrides) -> None:
    """simdom replay --match I: a match from a trace file, or regenerated from rules + seed."""
    from ..deal.matchtrace import MatchReplayError, match_records, read_records, render_match, replay_match
    from ..engine.matches import trace_match

    if script is not None:
        fail("--script is a single scripted deal; allowed with --match: a trace file or --rules/--seed")
    if match is None:
        fail("--hand needs --match I (the match whose deal to show)")
    if trace_file is not None:
        if not trace_file.exists():
            fail(f"trace file {trace_file} does not exist")
        try:
            recs = match_records(read_records(trace_file), match)
        except (ValueError, MatchReplayError) as e:
            fail(f"{trace_file}: {e}")
    else:
        r = make_rules(rules, players, overrides)
        if not r.is_match:
            fail("--match needs a match: rules with target > 0 (RULES.md 12); allowed: --set target=T, "
                 "e.g. --set target=100")
        recs = trace_match(r, make_policies(policy, players), seed, match)
    try:
        hands = replay_match(recs)
        render_match(from_dict(recs[0]["rules"]), hands, console, hand)
    except (MatchReplayError, RulesError, KeyError, TypeError, ValueError) as e:
        fail(f"the match does not replay: {e}")


@app.command("bench")
def bench_cmd(
    rules: str = RULES_OPT,
    players: int = PLAYERS_OPT,
    policy: List[str] = POLICY_OPT,
    seconds: float = typer.Option(3.0, "--seconds", "-t", min=0.1, help="How long to measure."),
    overrides: Optional[List[str]] = SET_OPT,
    as_json: bool = typer.Option(False, "--json", help="End with one JSON line (deals_per_s, ...)."),
) -> None:
    """Measure the kernel alone on one core, in deals per second (compile time excluded). With a
    target (--set target=T > 0), the match kernel: deals per second played inside whole matches.

    [bold]Examples[/]

      simdom bench --rules threes --players 4 --policy random --seconds 5
      simdom bench -r fives -p greedy -t 3 --json
      simdom bench -r fives -p greedy --set target=100 --set teams=partners
    """
    from ..engine.api import measure

    r = make_rules(rules, players, overrides)
    pols = make_policies(policy, players)
    n_matches = None
    with console.status(f"measuring {rules}, {players} players, {', '.join(map(str, pols))} ..."):
        if r.is_match:
            from ..engine.matches import measure_matches
            done, n_matches, el = measure_matches(r, pols, seconds)
        else:
            done, el = measure(r, pols, seconds)
    rate = done / el
    pol_text = ",".join(map(str, pols)) if len(set(map(str, pols))) > 1 else str(pols[0])
    from ..engine.api import kernel_kind
    kernel = kernel_kind()
    mode = "" if n_matches is None else (f" in {n_matches:,} matches to {r.target} ({n_matches / el:,.0f} "
                                         f"matches/s, {r.match_end}, teams {r.teams})")
    console.print(f"{rules}, {players} players, {pol_text}: [bold]{rate:,.0f}[/] deals/s "
                  f"({done:,} deals{mode} in {el:.2f} s, one core, {kernel} kernel)")
    if as_json:
        row = {"rules": rules, "players": players, "policy": pol_text, "deals": done,
               "seconds": round(el, 3), "deals_per_s": round(rate, 1), "kernel": kernel}
        if n_matches is not None:
            row.update(mode="matches", target=r.target, match_end=r.match_end, teams=r.teams, matches=n_matches,
                       matches_per_s=round(n_matches / el, 1))
        print(json.dumps(row))


def _register_extensions() -> None:
    import importlib

    for name in ("run", "stats", "policies"):
        try:
            mod = importlib.import_module(f"simdom.cli.{name}")
        except ModuleNotFoundError as e:  # a part still being written
            if e.name != f"simdom.cli.{name}":
                raise
            continue
        mod.register(app)


_register_extensions()

if __name__ == "__main__":  # pragma: no cover
    app()
