"""ipywidgets apps built from the kit's pieces (no rules inside), generic ones and one place per game.

Generic, here: ``player`` (opens the right player for any registered game), ``SessionPlayer``
and ``GameTable`` (``session_player``: plays any game from its spec), ``AuctionExplorer``
(``auction``: the auction model). Each game's widgets live in its own module or folder,
``mogul.widgets.<game>``, named as the game's folder in ``mogul/games/``; its spec names its
player (``GameSpec.faces["player"]``).

    >>> from mogul.kit.spec import default_game, games
    >>> from mogul.widgets import SessionPlayer, player
    >>> app = player(default_game(), seed=3)           # the game's own player, you against bots
    >>> app = player(default_game(), ["human", "random", "random"], 3)  # as mogul.new_game
    >>> isinstance(app, SessionPlayer), app.session.human_to_act()
    (True, True)
    >>> all(isinstance(player(game, seed=3), SessionPlayer) for game in games())
    True
"""

import gc
from collections.abc import Sequence
from typing import Any

from mogul.kit.spec import default_game, resolve
from mogul.widgets.auction import AuctionExplorer
from mogul.widgets.session_player import GameTable, SessionPlayer

__all__ = ["AuctionExplorer", "GameTable", "SessionPlayer", "player"]


def player(
    game: str | None = None, seats: Sequence[Any] | None = None, seed: int = 0, **options: Any
) -> SessionPlayer:
    """A player widget for any registered game or edition (default: the registry's default game).

    The first arguments are ``mogul.new_game``'s, in its order. ``seats``: one spec per seat,
    ``"human"`` or a bot name of the game (default: the game's own player decides; a game
    without one gets you against its first bots at the fewest seats). ``seed`` deals the
    game. Other keywords (``names``, ``hot_seat``, ``autoplay``, setup keywords and the game
    player's own options) go to the game's player, which its spec names
    (``GameSpec.faces["player"]``); a game that names none is played by ``SessionPlayer``.
    """
    spec, edition = resolve(game if game is not None else default_game())
    cls = spec.face("player", SessionPlayer)
    if seats is not None:  # else the game's player seats its own default table
        options["seats"] = seats
    return cls(edition, seed=seed, **options)


# An app answers clicks and slider moves; a full garbage collection walks every object in
# the kernel (over 200,000 once pandas, plotly and ipywidgets are loaded) and took 110 ms in
# the middle of an update. The modules loaded by now live as long as the kernel, so they are
# moved out of the collector's way once, after clearing what is already garbage.
gc.collect()
gc.freeze()
