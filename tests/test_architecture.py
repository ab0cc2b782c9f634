"""The package's layers import in one direction only, as ``mogul/__init__.py`` writes them.

Every module under ``mogul/`` is parsed (not imported) and every import in it is checked:
at the top, inside functions (lazy imports), under ``TYPE_CHECKING``, relative imports and
``importlib.import_module("...")`` calls alike. The rules:

* ``mogul.kit`` imports only ``mogul.kit``: no game, nothing above it, not the package root
  (whose ``__init__`` imports every game);
* a game (``mogul.games.<g>``) imports only ``mogul.kit`` and its own folder;
  ``mogul.games`` itself (which registers the games) only ``mogul.kit`` and the games;
* ``mogul.auction`` and ``mogul.analysis`` import no ``mogul.plots``, ``mogul.widgets``,
  ``mogul.cli``; ``mogul.plots`` no ``mogul.widgets``, ``mogul.cli``; ``mogul.widgets`` no
  ``mogul.cli``; and no module but ``mogul.__main__`` imports the package root's facade;
* ``mogul.classroom`` (the store, exports, debrief) imports no face; its pages' widgets
  and figures (``student``, ``lecturer``, ``figures``) sit with the faces and import
  no ``mogul.cli``; nothing but the classroom (and the command line) imports the classroom.
* ``mogul.credit_mobilier`` is a facade like the root: it re-exports a game for users.

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
FACES = ("mogul.plots", "mogul.widgets", "mogul.cli")
CLASSROOM_FACES = ("mogul.classroom.student", "mogul.classroom.lecturer", "mogul.classroom.figures")


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


def layer(module: str) -> str:
    """The layer a module belongs to; a module of no known layer fails the test."""
    if module in ("mogul", "mogul.__main__", "mogul.credit_mobilier"):
        return "root"  # the package root and the game facades re-export for users
    if module == "mogul.games":
        return "games"
    if _within(module, "mogul.games"):
        return "game:" + module.split(".")[2]
    if _within(module, *CLASSROOM_FACES):
        return "classroom-faces"
    if _within(module, "mogul.classroom"):
        return "classroom"
    if module == "mogul.analysis_credit_mobilier":
        return "analysis"  # Credit Mobilier's share-value study: the analysis layer
    for top in ("mogul.kit", "mogul.auction", "mogul.analysis", *FACES):
        if _within(module, top):
            return top.removeprefix("mogul.")
    raise ValueError(f"{module} is in no layer of mogul/__init__.py's list; add it there and here")


def broken_rule(importer: str, target: str) -> str | None:
    """Why ``importer`` may not import ``target``; None when it may."""
    here = layer(importer)
    if here == "root":
        return None
    if target == "mogul":
        return "the package root is the facade for users (it imports every game and layer)"
    if here == "kit":
        return (
            None
            if _within(target, "mogul.kit")
            else "mogul.kit imports no game and nothing above it"
        )
    if here == "games":
        return (
            None
            if _within(target, "mogul.kit", "mogul.games")
            else "mogul.games registers games only"
        )
    if here.startswith("game:"):
        own = "mogul.games." + here.removeprefix("game:")
        return (
            None
            if _within(target, "mogul.kit", own)
            else f"a game imports only mogul.kit and {own}"
        )
    if _within(target, "mogul.classroom") and not here.startswith("classroom") and here != "cli":
        return f"mogul.{here} sits below the classroom"
    forbidden = {
        "auction": FACES, "analysis": FACES, "plots": FACES[1:], "widgets": FACES[2:],
        "classroom": (*FACES, *CLASSROOM_FACES), "classroom-faces": FACES[2:],
    }  # fmt: skip
    if _within(target, *forbidden.get(here, ())):
        return f"mogul.{here} sits above {target}'s layer"
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


def violations(sources: Mapping[str, tuple[str, bool]]) -> list[str]:
    """The broken rules among ``{module: (source, is_package)}``, one line each."""
    out = []
    for module, (source, is_package) in sorted(sources.items()):
        for imp in imports_of(module, source, is_package, sources):
            reason = broken_rule(module, imp.target)
            if reason:
                out.append(f"{imp}: {reason}")
    return out


# --- the checker itself, on made-up modules ------------------------------------------------

FAKE_KNOWN = {
    "mogul": ("", True),
    "mogul.games": ("", True),
    "mogul.games.mogul": ("", True),
    "mogul.games.other": ("", True),
    "mogul.kit": ("", True),
    "mogul.plots": ("", True),
}

BAD = {
    "lazy import in the kit": (
        "mogul.kit.runner",
        "def f():\n    from mogul.games.mogul import rules\n",
    ),
    "kit imports the root": ("mogul.kit.spec", "import mogul\n"),
    "kit imports games via the root": ("mogul.kit.spec", "from mogul import games\n"),
    "kit imports a face": ("mogul.kit.session", "from mogul.widgets.game import GamePlayer\n"),
    "kit, TYPE_CHECKING": (
        "mogul.kit.bots",
        "if TYPE_CHECKING:\n    from mogul.analysis import x\n",
    ),
    "game imports another game": (
        "mogul.games.mogul.bots",
        "from mogul.games.other.state import S\n",
    ),
    "game imports the games package": ("mogul.games.mogul.spec", "from mogul.games import other\n"),
    "game imports analysis, relative": ("mogul.games.mogul.rules", "from ...analysis import x\n"),
    "game, importlib": (
        "mogul.games.mogul.rules",
        "import importlib\nimportlib.import_module('mogul.plots')\n",
    ),
    "auction imports plots": ("mogul.auction", "def f():\n    import mogul.plots.auction\n"),
    "analysis imports the cli": ("mogul.analysis", "from mogul.cli import main\n"),
    "plots import widgets": ("mogul.plots.game", "from mogul.widgets import live\n"),
    "plots import widgets, relative": ("mogul.plots.game", "from ..widgets import live\n"),
    "widgets import the classroom": ("mogul.widgets.player", "from mogul.classroom import store\n"),
    "classroom store imports widgets": ("mogul.classroom.store", "from mogul.widgets import live\n"),
    "classroom debrief imports a page": ("mogul.classroom.debrief", "from .student import App\n"),
    "classroom page imports the cli": ("mogul.classroom.student", "from mogul.cli import main\n"),
}

GOOD = {
    "kit imports kit": (
        "mogul.kit.record",
        "from mogul.kit.spec import resolve\nfrom . import bots\n",
    ),
    "game imports its folder and the kit": (
        "mogul.games.mogul.rules",
        "from mogul.games.mogul.state import S\nfrom .cards import C\nfrom mogul.kit import spec\n",
    ),
    "games package registers a game": ("mogul.games", "from mogul.games.mogul import spec\n"),
    "analysis imports a game": (
        "mogul.analysis",
        "from mogul.games.mogul.state import GameState\n",
    ),
    "widgets import plots": ("mogul.widgets.game", "from mogul.plots.game import score_data\n"),
    "root imports everything": (
        "mogul",
        "from mogul.games.mogul.bots import REGISTRY\nimport mogul.widgets\n",
    ),
    "other packages": ("mogul.kit.runner", "import pandas\nfrom tqdm.auto import tqdm\n"),
    "classroom store uses the kit and the auction": (
        "mogul.classroom.debrief",
        "from mogul.kit.record import GameRecord\nfrom mogul.auction import solve\n",
    ),
    "classroom page uses widgets and the store": (
        "mogul.classroom.student",
        "from mogul.widgets.player import GameTable\nfrom .store import TableStore\n",
    ),
}


@pytest.mark.parametrize("name", BAD)
def test_the_checker_finds_a_made_up_violation(name):
    module, source = BAD[name]
    found = violations({**FAKE_KNOWN, module: (source, module in FAKE_KNOWN)})
    assert len(found) == 1 and found[0].startswith(module), f"{name}: found {found}"


@pytest.mark.parametrize("name", GOOD)
def test_the_checker_accepts_a_made_up_allowed_import(name):
    module, source = GOOD[name]
    assert violations({**FAKE_KNOWN, module: (source, module in FAKE_KNOWN)}) == []


def test_the_checker_tells_lazy_imports_apart():
    (imp,) = imports_of("mogul.kit.x", "def f():\n    import mogul.plots\n", False, ())
    assert imp.lazy and imp.line == 2 and imp.target == "mogul.plots"
    (imp,) = imports_of("mogul.kit.x", "\nimport mogul.plots\n", False, ())
    assert not imp.lazy and imp.line == 2


# --- the real package -------------------------------------------------------------------------


def test_every_module_belongs_to_a_layer():
    modules = module_names(PACKAGE)
    assert (
        len(modules) > 30 and "mogul.kit.spec" in modules and "mogul.games.mogul.rules" in modules
    )
    for module in modules:
        layer(module)  # raises for a module of no layer


def test_the_layers_import_in_one_direction():
    modules = module_names(PACKAGE)
    sources = {
        m: (p.read_text(encoding="utf-8"), p.name == "__init__.py") for m, p in modules.items()
    }
    checked = sum(len(imports_of(m, s, pkg, sources)) for m, (s, pkg) in sources.items())
    assert checked > 100, f"only {checked} imports of mogul modules found; is the parser blind?"
    found = violations(sources)
    assert not found, "imports against the layer order of mogul/__init__.py:\n" + "\n".join(found)
