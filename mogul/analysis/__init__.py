"""Analysis of the games, one module or folder per game, ``mogul.analysis.<game>``, named as
the game's folder in ``mogul/games/`` (what a share is worth, a position's options ...).

Generic, here: ``position`` (rollout results to the frame of values every game's position
analysis returns) and ``intervals`` (means with their intervals, and tables that print
them). A game's spec names its position analysis (``GameSpec.faces["analyse_position"]``),
so a page can offer it for any game.
"""
