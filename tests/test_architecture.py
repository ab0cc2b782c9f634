"""The package's two axes, as ``mogul/__init__.py`` writes them: layers that import in one
direction, and in every layer above the engines one place per game.

Every module under ``mogul/`` is parsed (not imported) and every import in it is checked:
at the top, inside functions (lazy imports), under ``TYPE_CHECKING``, relative imports and
``importlib.import_module("...")`` calls alike. A module's game is read from its path: the
folders of ``mogul/games/`` are the games, and ``mogul.<layer>.<game>...`` belongs to that
game (so does the short import package ``mogul.<game>``). This file names no game. The rules:

* layers, lowest first: ``kit``, ``games``, ``auction`` and ``analysis``, ``plots``,
  ``widgets``, then ``classroom`` and ``cli``. A module imports only its own layer and those
  below it; ``mogul.classroom``'s store, exports and debrief import no face (``plots``,
  ``widgets``, the classroom's pages); nothing but the classroom and the command line
  imports the classroom, and nothing but the package root and ``__main__`` the root facade;
* ``mogul.kit`` and ``mogul.games`` (which only announces the games) import no game;
* a game's module imports its own game's modules and generic ones, never another game's;
* a generic module (no game in its path) imports no game's module, lazily or not, and names
  no game or edition in its code: games reach it through the registry;
* no import circle among ``mogul`` modules (lazy imports count: a circle papered over with
  an import inside a function is still a circle), and none through a table: no module sets
  an attribute of something it imported at module level (``ANSWERS.apply = apply``);
* no generated code: no ``exec``, ``eval`` or ``compile`` anywhere in the package.

Modules are sized by their ideas, not by a line count: one idea per module, however long.

The checker is tested on small made-up modules first, so a rule that stopped matching would
show here and not pass silently.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "mogul"
LAYERS = ("kit", "games", "auction", "analysis", "plots", "widgets", "classroom", "cli")
RANK = {
    "kit": 0,
    "games": 1,
    "auction": 2,
    "analysis": 2,
    "plots": 3,
    "widgets": 4,
    "classroom": 5,
    "cli": 5,
}
# the classroom's faces: these modules and the hall server (mogul.classroom.server), which serves pages
CLASSROOM_PAGES = ("projector", "figures")


def game_folders(package: Path = PACKAGE) -> frozenset[str]:
    """The games: the folders of ``mogul/games/``."""
    return frozenset(p.name for p in (package / "games").iterdir() if (p / "__init__.py").exists())


GAMES = game_folders()


@dataclass(frozen=True)
class Place:
    """Where a module sits: its layer and its game (None: generic)."""

    layer: str
    game: str | None = None
    face: bool = False  # plots, widgets, the classroom's pages

    def __str__(self) -> str:
        return f"mogul.{self.layer}" + (f" ({self.game})" if self.game else "")


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the mogul module it imports
    line: int
    lazy: bool  # inside a function

    def __str__(self) -> str:
        where = "inside a function" if self.lazy else "at module level"
        return f"{self.module} imports {self.target} (line {self.line}, {where})"


def _within(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def place(module: str, games: frozenset[str] = GAMES) -> Place:
    """The layer and game of a module; a module of no known layer fails the test."""
    parts = module.split(".")
    if parts[0] != "mogul":
        raise ValueError(f"{module} is not a mogul module")
    if len(parts) == 1 or parts[1] == "__main__":
        return Place("root")
    if parts[1] in games:
        return Place("root", parts[1])  # a game's short import name (``mogul.<game>``)
    if parts[1] not in LAYERS:
        raise ValueError(
            f"{module} is in no layer of mogul/__init__.py's list; add it there and here"
        )
    game = parts[2] if len(parts) > 2 and parts[2] in games else None
    face = parts[1] in ("plots", "widgets") or (
        parts[1] == "classroom" and (parts[-1] in CLASSROOM_PAGES or parts[2:3] == ["server"])
    )
    return Place(parts[1], game, face)


def broken_rule(importer: str, target: str, games: frozenset[str] = GAMES) -> str | None:
    """Why ``importer`` may not import ``target``; None when it may."""
    here, there = place(importer, games), place(target, games)
    if here.layer == "root":
        if here.game and there.game not in (None, here.game):
            return f"the {here.game} facade re-exports its own game only"
        return None
    if there.layer == "root":
        return "the package root is the facade for users; nothing inside the package imports it"
    if there.game is not None and there.game != here.game:
        if here.game is None:
            return f"{here} is generic and imports no game's module (games reach it through the registry)"
        return f"{here} imports another game's module"
    if RANK[there.layer] > RANK[here.layer]:
        return f"{here} sits below {there}"
    if there.layer == "classroom" and here.layer not in ("classroom", "cli"):
        return f"{here} sits below the classroom"
    if here.layer == "classroom" and not here.face and there.face:
        return f"the classroom's store, exports and debrief import no face ({target})"
    if there.layer == "cli" and here.layer != "cli":
        return "only the package root's __main__ imports the command line"
    if here.layer == "cli" and there.face:
        return "the command line imports no face"
    return None


def module_names(root: Path) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports_of(module: str, source: str, is_package: bool, known: Iterable[str]) -> list[Import]:
    """Every import of a ``mogul`` module in ``source``, wherever it stands."""
    known = set(known)
    tree = ast.parse(source)
    lazy_nodes = {
        id(inner)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for inner in ast.walk(fn)
    }
    base_package = module if is_package else module.rpartition(".")[0]
    found = []

    def add(target: str, node: ast.AST) -> None:
        if _within(target, "mogul"):
            found.append(Import(module, target, node.lineno, id(node) in lazy_nodes))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node)
        elif isinstance(node, ast.ImportFrom):
            base = base_package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            source_module = node.module or ""
            if node.level:
                source_module = f"{base}.{source_module}".rstrip(".")
            for alias in node.names:
                # ``from mogul import games`` imports the module mogul.games, not an attribute.
                child = f"{source_module}.{alias.name}"
                add(child if child in known else source_module, node)
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                add(node.args[0].value, node)
    return list(dict.fromkeys(found))  # ``from m import a, b`` is one import of m


def violations(sources: Mapping[str, tuple[str, bool]], games: frozenset[str] = GAMES) -> list[str]:
    """The broken rules among ``{module: (source, is_package)}``, one line each."""
    out = []
    for module, (source, is_package) in sorted(sources.items()):
        for imp in imports_of(module, source, is_package, sources):
            reason = broken_rule(module, imp.target, games)
            if reason:
                out.append(f"{imp}: {reason}")
    return out


def import_graph(sources: Mapping[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the mogul modules it imports (lazy ones too), among the known modules."""
    graph: dict[str, set[str]] = {m: set() for m in sources}
    for module, (source, is_package) in sources.items():
        for imp in imports_of(module, source, is_package, sources):
            if imp.target in sources and imp.target != module:
                graph[module].add(imp.target)
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of two or more modules (Tarjan, 1972)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


# --- the checker itself, on made-up modules (games "alpha" and "beta") -------------------------

FAKE_GAMES = frozenset({"alpha", "beta"})
FAKE_KNOWN = {
    "mogul": ("", True),
    "mogul.games": ("", True),
    "mogul.games.alpha": ("", True),
    "mogul.games.beta": ("", True),
    "mogul.kit": ("", True),
    "mogul.plots": ("", True),
    "mogul.plots.alpha": ("", True),
}

BAD = {
    "lazy import in the kit": (
        "mogul.kit.runner",
        "def f():\n    from mogul.games.alpha import rules\n",
    ),
    "kit imports the root": ("mogul.kit.spec", "import mogul\n"),
    "kit imports games via the root": ("mogul.kit.spec", "from mogul import games\n"),
    "kit imports a face": ("mogul.kit.session", "from mogul.widgets.session_player import P\n"),
    "kit, TYPE_CHECKING": (
        "mogul.kit.bots",
        "if TYPE_CHECKING:\n    from mogul.analysis.alpha import x\n",
    ),
    "game imports another game": (
        "mogul.games.alpha.bots",
        "from mogul.games.beta.state import S\n",
    ),
    "games package imports a game": ("mogul.games", "from mogul.games.alpha import spec\n"),
    "game imports analysis, relative": ("mogul.games.alpha.rules", "from ...analysis import x\n"),
    "game, importlib": (
        "mogul.games.alpha.rules",
        "import importlib\nimportlib.import_module('mogul.plots')\n",
    ),
    "auction imports plots": ("mogul.auction", "def f():\n    import mogul.plots.auction\n"),
    "analysis imports the cli": ("mogul.analysis", "from mogul.cli import main\n"),
    "generic analysis imports a game": (
        "mogul.analysis",
        "from mogul.games.alpha.state import S\n",
    ),
    "generic widget imports a game's widget": (
        "mogul.widgets.session_player",
        "def f():\n    from mogul.widgets.alpha.player import P\n",
    ),
    "a game's plots import another game's": (
        "mogul.plots.alpha.board",
        "from mogul.plots.beta import f\n",
    ),
    "a game's plots import another game": (
        "mogul.plots.alpha.board",
        "from mogul.games.beta import rules\n",
    ),
    "plots import widgets": ("mogul.plots.alpha.game", "from mogul.widgets import live\n"),
    "plots import widgets, relative": ("mogul.plots.alpha.game", "from ...widgets import live\n"),
    "widgets import the classroom": (
        "mogul.widgets.alpha.player",
        "from mogul.classroom import store\n",
    ),
    "classroom store imports widgets": (
        "mogul.classroom.store",
        "from mogul.widgets import live\n",
    ),
    "classroom debrief imports a page": (
        "mogul.classroom.alpha.debrief",
        "from ..projector import App\n",
    ),
    "classroom page imports the cli": ("mogul.classroom.projector", "from mogul.cli import main\n"),
    "facade of one game re-exports another": ("mogul.alpha", "from mogul.games.beta import x\n"),
}

GOOD = {
    "kit imports kit": (
        "mogul.kit.record",
        "from mogul.kit.spec import resolve\nfrom . import bots\n",
    ),
    "game imports its folder and the kit": (
        "mogul.games.alpha.rules",
        "from mogul.games.alpha.state import S\nfrom .cards import C\nfrom mogul.kit import spec\n",
    ),
    "a game's analysis imports its game": (
        "mogul.analysis.alpha",
        "from mogul.games.alpha.state import S\n",
    ),
    "a game's widget imports its plots": (
        "mogul.widgets.alpha.player",
        "from mogul.plots.alpha.game import score_data\nfrom mogul.widgets.session_player import P\n",
    ),
    "root imports everything": (
        "mogul",
        "from mogul.games.alpha.bots import REGISTRY\nimport mogul.widgets\n",
    ),
    "a game's facade": ("mogul.alpha", "from mogul.games.alpha.bots import REGISTRY\n"),
    "other packages": ("mogul.kit.runner", "import pandas\nfrom tqdm.auto import tqdm\n"),
    "classroom debrief uses the kit and the auction": (
        "mogul.classroom.alpha.debrief",
        "from mogul.kit.record import GameRecord\nfrom mogul.auction import solve\n",
    ),
    "classroom page uses widgets and the store": (
        "mogul.classroom.projector",
        "from mogul.widgets.session_player import GameTable\nfrom .store import TableStore\n",
    ),
}


@pytest.mark.parametrize("name", BAD)
def test_the_checker_finds_a_made_up_violation(name):
    module, source = BAD[name]
    found = violations({**FAKE_KNOWN, module: (source, module in FAKE_KNOWN)}, FAKE_GAMES)
    assert len(found) == 1 and found[0].startswith(module), f"{name}: found {found}"


@pytest.mark.parametrize("name", GOOD)
def test_the_checker_accepts_a_made_up_allowed_import(name):
    module, source = GOOD[name]
    assert violations({**FAKE_KNOWN, module: (source, module in FAKE_KNOWN)}, FAKE_GAMES) == []


def test_the_circle_finder_sees_a_lazy_circle_and_passes_a_line():
    sources = {
        "mogul.games.alpha.state": ("def f():\n    from mogul.games.alpha import rules\n", False),
        "mogul.games.alpha.rules": ("from mogul.games.alpha.display import d\n", False),
        "mogul.games.alpha.display": ("from mogul.games.alpha.state import S\n", False),
        "mogul.games.alpha.bots": ("from mogul.games.alpha.state import S\n", False),
    }
    assert circles(import_graph(sources)) == [
        ["mogul.games.alpha.display", "mogul.games.alpha.rules", "mogul.games.alpha.state"]
    ]
    sources["mogul.games.alpha.state"] = ("", False)
    assert circles(import_graph(sources)) == []


def test_the_checker_tells_lazy_imports_apart():
    (imp,) = imports_of("mogul.kit.x", "def f():\n    import mogul.plots\n", False, ())
    assert imp.lazy and imp.line == 2 and imp.target == "mogul.plots"
    (imp,) = imports_of("mogul.kit.x", "\nimport mogul.plots\n", False, ())
    assert not imp.lazy and imp.line == 2


# --- the real package -------------------------------------------------------------------------


def real_sources() -> dict[str, tuple[str, bool]]:
    return {
        m: (p.read_text(encoding="utf-8"), p.name == "__init__.py")
        for m, p in module_names(PACKAGE).items()
    }


def test_every_module_belongs_to_a_layer():
    modules = module_names(PACKAGE)
    assert len(modules) > 30 and "mogul.kit.spec" in modules and len(GAMES) >= 2
    for module in modules:
        place(module)  # raises for a module of no layer
    per_game = {place(m).game for m in modules if place(m).layer not in ("root", "games")}
    assert per_game >= GAMES, "every game has a place above the engines"


def test_the_layers_import_in_one_direction():
    sources = real_sources()
    checked = sum(len(imports_of(m, s, pkg, sources)) for m, (s, pkg) in sources.items())
    assert checked > 100, f"only {checked} imports of mogul modules found; is the parser blind?"
    found = violations(sources)
    assert not found, "imports against the two axes of mogul/__init__.py:\n" + "\n".join(found)


def test_no_import_circle():
    found = circles(import_graph(real_sources()))
    assert not found, "import circles (lazy imports included):\n" + "\n".join(
        " <-> ".join(c) for c in found
    )


def _code_strings(source: str) -> list[tuple[int, str]]:
    """The string constants of a module's code: docstrings left out."""
    tree = ast.parse(source)
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
    ]


def test_generic_modules_name_no_game():
    """Above the engines, only a game's own place names it (docstring examples aside)."""
    from mogul.kit.spec import games, get_game

    words = set()
    for name in games():
        spec = get_game(name)
        words.update({spec.name, *spec.editions, *spec.aliases})
    words.discard("mogul")  # also the package's name (and the auction rule's): not a sign
    found = []
    for module, (source, _) in real_sources().items():
        where = place(module)
        if where.game is not None or where.layer in ("root", "games"):
            continue
        for line, text in _code_strings(source):
            low = text.lower()
            if any(w in low for w in words):
                found.append(f"{module} line {line}: {text!r}")
    assert not found, "generic modules that name a game:\n" + "\n".join(found)


# --- no generated code, no registration tables ----------------------------------------------
# Rules are read beside the rulebook: no code written at run time (``exec``, ``eval``,
# ``compile``). And no module fills another module's table when it is imported (as
# ``ANSWERS.apply = apply`` once tied a state to its rules): such a tie is an import circle that
# the import graph cannot see, so it is refused here.

GENERATING = ("exec", "eval", "compile")


def generated_code(source: str) -> list[int]:
    """The lines that call ``exec``, ``eval`` or ``compile``."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in GENERATING
    ]


def filled_tables(module: str, source: str, is_package: bool, known: Iterable[str]) -> list[str]:
    """Module-level statements that set an attribute of a name imported from a mogul module
    (``table.answer = f`` or ``setattr(table, ...)``), one line each."""
    tree = ast.parse(source)
    imported = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom | ast.Import) and imports_of(
            module, ast.unparse(node), is_package, known
        ):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)

    def base(target: ast.AST) -> str | None:
        while isinstance(target, ast.Attribute | ast.Subscript):
            target = target.value
        return target.id if isinstance(target, ast.Name) else None

    found = []
    for node in tree.body:  # module level only: a function may of course set attributes
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            for t in node.targets:
                targets.extend(t.elts if isinstance(t, ast.Tuple) else [t])
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets.append(node.target)
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", None) == "setattr"
            and node.value.args
        ):
            targets.append(ast.Attribute(value=node.value.args[0], attr="?"))
        for t in targets:
            if isinstance(t, ast.Attribute | ast.Subscript) and base(t) in imported:
                found.append(f"{module} line {node.lineno} fills {ast.unparse(t)}")
    return found


def test_the_table_finder_sees_a_filled_table_and_passes_a_local_one():
    known = {"mogul.games.alpha.state": ("", False)}
    rules = (
        "from mogul.games.alpha.state import ANSWERS\n"
        "def apply(s, a): return s\n"
        "ANSWERS.apply = apply\n"
    )
    assert filled_tables("mogul.games.alpha.rules", rules, False, known) == [
        "mogul.games.alpha.rules line 3 fills ANSWERS.apply"
    ]
    several = "from mogul.games.alpha import state\nstate.T['x'], y = 1, 2\n"
    assert len(filled_tables("mogul.games.alpha.rules", several, False, known)) == 1
    called = "from mogul.games.alpha.state import T\nsetattr(T, 'x', 1)\n"
    assert len(filled_tables("mogul.games.alpha.rules", called, False, known)) == 1
    local = (
        "import numpy as np\nfrom mogul.games.alpha.state import S\n"
        "class T: pass\nT.x = 1\nnp.x = 1\ndef f(s): s.y = 2\n"
    )
    assert filled_tables("mogul.games.alpha.rules", local, False, known) == []


def test_the_code_finder_sees_exec_and_eval():
    assert generated_code("x = 1\nexec('y = 2')\nz = eval('3')\n") == [2, 3]
    assert generated_code("import re\nre.compile('x')\n") == []


def test_no_generated_code_and_no_filled_tables():
    sources = real_sources()
    found = [
        f"{m} line {line} calls exec, eval or compile"
        for m, (source, _) in sources.items()
        for line in generated_code(source)
    ]
    found += [
        entry
        for m, (source, is_package) in sources.items()
        for entry in filled_tables(m, source, is_package, sources)
    ]
    assert not found, "generated code or tables filled at import:\n" + "\n".join(found)
