"""Mogul's figures: the board and the 2013 railway map (``board``: the game's ``board`` face),
one game's charts and the charts of the analyses and the two editions (``game``)."""
