"""The architecture, checked: one engine boundary, no upward imports, no import cycles (docs/architecture.md).

* The compiled kernel and every integer layout live in simdom/engine/_kernel/; the boundary is that
  folder, not a list: outside simdom/engine/ no module imports anything under ``_kernel`` or touches the
  arrays a DealState keeps (``_St``, ``_G``, ``_bone``, ``_work``, ``_rec``); they use the engine's
  named façade (every module directly in simdom/engine/). A change of an integer layout therefore
  changes code in simdom/engine/ only. Nothing in ``_kernel`` imports the façade.
* Each part imports only the parts below it (the flow of the architecture picture).
* No two modules import each other, directly or through others, counting imports inside functions.
"""
import ast
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1] / "simdom"
KERNEL = "_kernel"
ENGINE_PRIVATE_ATTRS = {"_St", "_G", "_bone", "_work", "_rec"}
#: what each part of simdom may import (besides itself); a part is a top-level module or package
ALLOWED = {
    "tiles": set(),
    "figures": set(),                           # numbers and names as answers show them (present re-exports them)
    "present": {"figures"},
    "rulevalues": set(),                        # the values a rule parameter takes, their bounds and checks
    "rules": {"tiles", "rulevalues"},
    "results": {"tiles"},
    "policies": {"rules", "tiles"},
    "engine": {"rules", "tiles", "policies"},
    "board": {"tiles"},                         # the SVG drawing of a layout (geometry; reads a DealState duck-typed)
    "deal": {"engine", "rules", "tiles", "policies", "present", "board"},
    "analyze": {"engine", "deal", "rules", "tiles", "policies", "present", "stats", "board"},
    "stats": {"results", "rules", "tiles", "present"},
    "testing": {"results", "rules", "tiles", "stats", "engine"},  # engine: the behaviour version its folders claim
    "run": {"engine", "rules", "tiles", "policies", "results", "present", "stats", "deal"},
    "report": {"stats", "results", "rules", "tiles", "present", "board"},
    "cli": {"api", "engine", "rules", "tiles", "policies", "results", "present", "stats", "deal", "run", "report",
            "analyze", "table", "equilibrium"},
    # simdom table, the web app: over the engine façade, the analysis and the board
    "table": {"engine", "rules", "tiles", "policies", "analyze", "deal", "board", "present"},
    "openspiel": {"engine", "rules", "tiles"},  # python_simdom for pyspiel (the rl extra)
    "pettingzoo": {"openspiel"},                # the AEC environment over it
    "equilibrium": {"engine", "rules", "tiles", "policies", "present"},  # the exact equilibrium of small games
    "examples": {"engine"},                     # example Python policies (docs/policies.md)
    # the library (simdom/api.py, re-exported lazily by simdom/__init__.py): the top, over every part
    "api": {"engine", "rules", "tiles", "policies", "results", "present", "stats", "deal", "run", "analyze"},
}
ALLOWED["safeio"] = set()  # reading and writing files safely: below every part
for _part in set(ALLOWED) - {"safeio", "tiles"}:
    ALLOWED[_part].add("safeio")
ALLOWED["signals"] = set()  # SIGTERM, SIGHUP and Ctrl-C (standard library only): below safeio
for _part in set(ALLOWED) - {"signals", "tiles"}:
    ALLOWED[_part].add("signals")
ALLOWED["__main__"] = {"signals", "cli"}  # the simdom command: the stop signals first, then the command line


def module_name(rel: Path) -> tuple[str, ...]:
    parts = ("simdom", *rel.parts[:-1])
    return parts if rel.name == "__init__.py" else (*parts, rel.stem)


def modules(root: Path = ROOT):
    """(path, part, rel) of every module of simdom under ``root``."""
    for p in sorted(root.rglob("*.py")):
        rel = p.relative_to(root)
        yield p, rel.parts[0].removesuffix(".py"), rel


def known_modules(root: Path = ROOT) -> set[tuple[str, ...]]:
    return {module_name(rel) for _, _, rel in modules(root)}


def imports(path: Path, rel: Path, known: set[tuple[str, ...]]):
    """(imported simdom module, line) for every import in the file, at any depth (inside functions and
    ``if TYPE_CHECKING`` blocks too): ``from a import b`` counts as importing a.b when that is a module,
    else a."""
    me = module_name(rel)
    pkg = list(me if rel.name == "__init__.py" else me[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        targets = []
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg[: len(pkg) - node.level + 1]
                mod = tuple(base + (node.module.split(".") if node.module else []))
            else:
                mod = tuple((node.module or "").split("."))
            if mod[0] != "simdom":
                continue
            for a in node.names:
                sub = (*mod, a.name)
                targets.append(sub if sub in known else mod)
        elif isinstance(node, ast.Import):
            targets = [tuple(a.name.split(".")) for a in node.names if a.name.split(".")[0] == "simdom"]
        for t in targets:
            yield t, node.lineno


def graph(root: Path = ROOT) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
    known = known_modules(root)
    g = {}
    for path, _, rel in modules(root):
        me = module_name(rel)
        g[me] = {t for t, _ in imports(path, rel, known) if t != me and t in known}
    return g


def cycles(g) -> list[list[tuple[str, ...]]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def boundary_violations(root: Path = ROOT) -> list[str]:
    known = known_modules(root)
    bad = []
    for path, part, rel in modules(root):
        me = module_name(rel)
        in_engine = me[:2] == ("simdom", "engine")
        in_kernel = me[:3] == ("simdom", "engine", KERNEL)
        for t, line in imports(path, rel, known):
            if t[:3] == ("simdom", "engine", KERNEL) and not in_engine:
                bad.append(f"{rel}:{line} imports {'.'.join(t)}: outside the engine use its named façade "
                           f"(simdom.engine.codes, api, state, matches, analysis, decisions)")
            if in_kernel and t[:2] == ("simdom", "engine") and t[:3] != ("simdom", "engine", KERNEL):
                bad.append(f"{rel}:{line} imports {'.'.join(t)}: the kernel may not import the façade above it")
        if not in_engine:
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Attribute) and node.attr in ENGINE_PRIVATE_ATTRS:
                    bad.append(f"{rel}:{node.lineno} reads .{node.attr}, the kernel's integer state: use "
                               f"DealState's methods")
    return bad


def upward_imports(root: Path = ROOT) -> list[str]:
    known = known_modules(root)
    bad = []
    for path, part, rel in modules(root):
        if part == "__init__":
            continue
        if part not in ALLOWED:
            bad.append(f"{rel}: a new part of simdom; add it to ALLOWED and the architecture page")
            continue
        for t, line in imports(path, rel, known):
            target = t[1] if len(t) > 1 else "__init__"
            if target in (part, "__init__", "__version__"):
                continue
            if target not in ALLOWED[part]:
                bad.append(f"{rel}:{line} imports simdom.{target}: {part} may import "
                           f"{', '.join(sorted(ALLOWED[part])) or 'nothing of simdom'}")
    return bad


#: the layers of simdom/stats/, lowest first (docs/architecture.md): a module imports only modules of its own
#: layer or below. matches/ and decisions/ are columns of their own: their tables beside tables/, their
#: views beside views/.
STATS_LAYERS = [
    ("primitives", {"inference", "names"}),
    ("read", {"read"}),
    ("estimate", {"estimate"}),
    ("tables", {"tables", "matches.tables", "matches.equity", "matches.met", "matches.metdp", "decisions.tables"}),
    ("views", {"views", "matches.views", "matches.metview", "decisions.views"}),
]


def stats_layer(mod: tuple[str, ...]) -> int | None:
    """The layer of a module of simdom.stats (None: the package itself, or not in stats)."""
    if mod[:2] != ("simdom", "stats") or len(mod) < 3:
        return None
    for i, (_, members) in enumerate(STATS_LAYERS):
        if mod[2] in members or ".".join(mod[2:4]) in members:
            return i
    if len(mod) == 3 and any(m.startswith(f"{mod[2]}.") for _, ms in STATS_LAYERS for m in ms):
        return len(STATS_LAYERS) - 1  # a column's package (matches/, decisions/): at the top of its column
    return -1


def stats_upward(root: Path = ROOT) -> list[str]:
    known = known_modules(root)
    bad = []
    for path, _, rel in modules(root / "stats"):
        rel = Path("stats") / rel
        me = module_name(rel)
        mine = stats_layer(me)
        if mine is None:
            continue
        if mine < 0:
            bad.append(f"{rel}: a module of no layer; place it in STATS_LAYERS and the architecture page")
            continue
        for t, line in imports(path, rel, known):
            theirs = stats_layer(t)
            if theirs is not None and theirs > mine:
                bad.append(f"{rel}:{line} imports {'.'.join(t)}: the {STATS_LAYERS[mine][0]} layer may not import "
                           f"the {STATS_LAYERS[theirs][0]} layer above it")
    return bad


def test_stats_imports_only_downhill():
    assert stats_upward() == []


def test_the_architecture_page_names_every_module():
    """docs/architecture.md names every module of simdom (its file name, or its package for __init__)."""
    page = (ROOT.parent / "docs" / "architecture.md").read_text()
    missing = [str(rel) for _, _, rel in modules() if rel.name != "__init__.py" and rel.name not in page]
    assert missing == [], f"docs/architecture.md does not name: {', '.join(missing)}"


#: the most lines a module of simdom may have (the compiled kernel aside): a longer one is split by job
MAX_LINES = 450


def long_modules(root: Path = ROOT) -> dict[str, int]:
    """Every module outside simdom/engine/_kernel/ longer than MAX_LINES, with its length."""
    return {str(rel): n for path, _, rel in modules(root) if KERNEL not in rel.parts
            for n in [len(path.read_text().splitlines())] if n > MAX_LINES}


def test_no_module_is_longer_than_450_lines():
    assert long_modules() == {}


def test_the_kernel_is_reached_only_through_the_engine_facade():
    assert (ROOT / "engine" / KERNEL / "layout.py").is_file()
    assert boundary_violations() == []


def test_no_upward_imports():
    assert upward_imports() == []


def test_no_import_cycles():
    found = cycles(graph())
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(".".join(m) for m in c) for c in found)


def test_the_checks_catch_planted_violations(tmp_path):
    """A copy of simdom with a module reaching into the kernel, an upward import and a cycle through an
    import inside a function: each check names it."""
    import shutil
    root = tmp_path / "simdom"
    shutil.copytree(ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    (root / "run" / "bad.py").write_text("from ..engine._kernel import layout as L\n")
    (root / "results" / "worse.py").write_text("def f():\n    from ..run import bad\n")
    (root / "tiles_b.py").write_text("")
    (root / "present.py").write_text((root / "present.py").read_text() + "\ndef g():\n    from . import tiles_b\n")
    (root / "tiles_b.py").write_text("from .present import g\n")
    (root / "stats" / "read" / "up.py").write_text("from simdom.stats.tables import stats\n")
    (root / "run" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert any("run/bad.py:1 imports simdom.engine._kernel.layout" in b for b in boundary_violations(root))
    assert any("results/worse.py:2 imports simdom.run" in b for b in upward_imports(root))
    assert [("simdom", "present"), ("simdom", "tiles_b")] in cycles(graph(root))
    assert long_modules(root) == {"run/long.py": MAX_LINES + 1}
    assert any("stats/read/up.py:1 imports simdom.stats.tables.stats: the read layer may not import the tables "
               "layer" in b for b in stats_upward(root))


def test_the_statistical_primitives_import_without_the_readers():
    """run/ and analyze/ take intervals and tests from simdom.stats.inference; importing it loads no
    reader, table or view of simdom.stats."""
    import subprocess
    import sys
    code = ("import sys, simdom.stats.inference, simdom.run.summary, simdom.analyze.evaluate; "
            "print(sorted(m for m in sys.modules if m.startswith('simdom.stats.') and m != 'simdom.stats.inference'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
