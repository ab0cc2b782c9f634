"""Analysis of the games, one module or folder per game (named as its folder in
``mogul/games/``): ``mogul.analysis.mogul`` (share values, the 2013 sell right, position
analysis) and ``mogul.analysis.credit_mobilier`` (what a share still earns).

Generic, here: ``position`` (rollout results to the frame of values every game's position
analysis returns). A game's spec names its position analysis
(``GameSpec.faces["analyse_position"]``), so a page can offer it for any game.
"""
