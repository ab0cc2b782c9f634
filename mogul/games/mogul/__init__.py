"""Mogul (Michael Schacht): the 2002 classic rules and their quick start, and the 2013 Rio
Grande edition ("rio-grande": branches on a railway map); its spec is "mogul".

Read ``rules.py`` beside the rulebook: it follows the round phase by phase. Components
(cards, chips, crash placement, credit size, setup card, map) are data in ``data/editions/``;
``network.py`` reads the map (free stations, what branches score).
"""
