"""The architecture, checked: one engine boundary, no upward imports, small modules (README Architecture).

* Only simdom/engine/ knows the kernel's integer layouts: outside it, no module imports the kernel's
  modules (layout, core, batch, kpolicies, tables, work, rng, bits, jit, aot) or touches the arrays a
  DealState keeps (``_St``, ``_G``, ``_bone``, ``_work``, ``_rec``); they use the named API (api, codes,
  state). A change of an integer layout therefore changes code in simdom/engine/ only.
* Each package imports only the packages below it (the flow of the README's picture).
"""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "simdom"
#: the engine's public modules: named enums, named columns, DealState
ENGINE_PUBLIC = {"analysis", "api", "codes", "state", "matches"}
ENGINE_PRIVATE_ATTRS = {"_St", "_G", "_bone", "_work", "_rec"}
#: what each part of simdom may import (besides itself); a part is a top-level module or package
ALLOWED = {
    "tiles": set(),
    "present": set(),
    "rules": {"tiles"},
    "results": {"tiles"},
    "policies": {"engine"},
    "engine": {"rules", "tiles", "policies"},
    "deal": {"engine", "rules", "tiles", "policies", "present"},
    "analyze": {"engine", "deal", "rules", "tiles", "policies", "present", "stats"},
    "stats": {"results", "rules", "tiles", "present"},
    "run": {"engine", "rules", "tiles", "policies", "results", "present", "stats", "deal"},
    "report": {"stats", "results", "rules", "tiles", "present"},
    "cli": {"engine", "rules", "tiles", "policies", "results", "present", "stats", "deal", "run", "report",
            "analyze"},
}
ALLOWED["safeio"] = set()  # reading and writing files safely: below every part
for _part in set(ALLOWED) - {"safeio", "tiles"}:
    ALLOWED[_part].add("safeio")


def modules():
    for p in sorted(ROOT.rglob("*.py")):
        rel = p.relative_to(ROOT)
        yield p, rel.parts[0].removesuffix(".py"), rel


def simdom_imports(path: Path, rel: Path):
    """(part, submodule-or-None, line) for every import of simdom code in the file."""
    pkg = ["simdom", *rel.parts[:-1]]
    for node in ast.walk(ast.parse(path.read_text())):
        names = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg[: len(pkg) - node.level + 1]
                mod = base + (node.module.split(".") if node.module else [])
            else:
                mod = (node.module or "").split(".")
            if mod[0] != "simdom":
                continue
            if len(mod) == 1:
                names = [["simdom", a.name] for a in node.names]
            elif len(mod) == 2:
                names = [[*mod, a.name] for a in node.names]
            else:
                names = [mod]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".") for a in node.names if a.name.split(".")[0] == "simdom"]
        for n in names:
            if len(n) >= 2:
                yield n[1], (n[2] if len(n) > 2 else None), node.lineno


@pytest.mark.parametrize("path,part,rel", [m for m in modules() if m[1] != "engine"], ids=lambda x: str(x))
def test_outside_the_engine_only_named_things_cross_the_boundary(path, part, rel):
    for target, sub, line in simdom_imports(path, rel):
        if target == "engine" and sub is not None:
            assert sub in ENGINE_PUBLIC, (f"{rel}:{line} imports simdom.engine.{sub}: outside the engine use the "
                                          f"named API ({', '.join(sorted(ENGINE_PUBLIC))})")
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute):
            assert node.attr not in ENGINE_PRIVATE_ATTRS, (
                f"{rel}:{node.lineno} reads .{node.attr}, the kernel's integer state: use DealState's methods")


@pytest.mark.parametrize("path,part,rel", list(modules()), ids=lambda x: str(x))
def test_no_upward_imports(path, part, rel):
    assert part in ALLOWED or part == "__init__", f"{rel}: a new part of simdom; add it to ALLOWED and the README"
    for target, _, line in simdom_imports(path, rel):
        if target == part or part == "__init__" or target == "__version__":
            continue
        assert target in ALLOWED.get(part, set()), f"{rel}:{line} imports simdom.{target}: {part} may import " \
                                                   f"{', '.join(sorted(ALLOWED[part])) or 'nothing of simdom'}"


def test_the_boundary_check_is_not_vacuous(tmp_path):
    """A module that reads the kernel's layout would be caught."""
    bad = tmp_path / "simdom" / "run" / "bad.py"
    bad.parent.mkdir(parents=True)
    bad.write_text("from ..engine import layout as L\nfrom simdom.engine.core import place\n")
    found = list(simdom_imports(bad, Path("run/bad.py")))
    assert ("engine", "layout", 1) in found and ("engine", "core", 2) in found
