"""`simdom policies`: the bot policies of the registry, their parameters and what they do."""
from __future__ import annotations

import json
from typing import Optional

import typer

from ..policies import REGISTRY, PolicyError
from .common import OLD_JSON_OPT, TableOrJson, fail, format_opt


def policies_cmd(
    policy: Optional[str] = typer.Argument(None, help="A policy text to check, e.g. hold:until=9; omit to list them all."),
    fmt: TableOrJson = format_opt(),
    as_json: bool = OLD_JSON_OPT,
) -> None:
    """List the bot policies: name, parameters (with defaults) and what each does.

    A policy is written NAME or NAME:KEY=VALUE,... wherever one is accepted: scenario files,
    simdom trace --policy, simdom bench --policy. Given a policy text, check it and print its
    canonical form and parameter values.

    A policy written in Python is named python:package.module:function (or
    python:path/to/file.py:function) in simdom trace, simdom replay, simdom analyze --then,
    simdom review --then and small runs (docs/policies.md, "Writing a policy in Python"); given one, it is loaded and checked.

    [bold]Examples[/]

      simdom policies
      simdom policies rollout:samples=64
      simdom policies hold:until=never --format json
      simdom policies python:simdom.examples.policies:keep_suits
      simdom trace -r threes -p rollout:samples=32 -p greedy -p greedy -p greedy -d 10 -o r.jsonl
    """
    from rich.text import Text

    from ..engine.pypolicy import parse_any
    from .common import console
    as_json = as_json or fmt is TableOrJson.json  # --json: the old spelling
    if policy is not None:
        try:
            p = parse_any(policy)
        except PolicyError as e:
            fail(str(e))
        if p.name == "python":
            doc = (getattr(p.fn, "__doc__", None) or "no docstring").strip().split("\n\n")[0]
            doc = " ".join(doc.split())
            if as_json:
                print(json.dumps({"policy": str(p), "name": "python", "parameters": {}, "doc": doc}))
                return
            console.print(Text.assemble((str(p), "bold"), f": a Python policy: {doc}"), highlight=False)
            return
        values = p.texts()
        if as_json:
            print(json.dumps({"policy": str(p), "name": p.info.name, "parameters": values, "doc": p.info.doc}))
            return
        shown = ", ".join(f"{k} = {v}" for k, v in values.items()) or "no parameters"
        console.print(Text.assemble((str(p), "bold"), f": {p.info.doc} ({shown})"), highlight=False)
        return
    if as_json:
        print(json.dumps([{"name": i.name, "doc": i.doc,
                           "parameters": [{"name": q.name, "default": q.text(q.default), "doc": q.doc}
                                          for q in i.params]} for i in REGISTRY.values()]))
        return
    console.print(Text(f"{len(REGISTRY)} policies: {', '.join(REGISTRY)}. Write NAME or NAME:KEY=VALUE,... "
                       "(e.g. hold:until=9) in scenarios and after simdom trace --policy. A policy written in "
                       "Python: python:package.module:function (or python:path/to/file.py:function) in simdom trace, "
                       "simdom replay, simdom analyze --then, simdom review --then and small runs "
                       "(docs/policies.md)."), width=80)
    for i in REGISTRY.values():
        console.print()
        console.print(Text.assemble((i.name, "bold"), f": {i.doc}"), width=80)
        for q in i.params:
            console.print(Text(f"  {q.name}={q.text(q.default)} (default): {q.doc}"), width=80)


def register(app: typer.Typer) -> None:
    """Add the command ``policies`` to ``app``."""
    app.command("policies")(policies_cmd)
