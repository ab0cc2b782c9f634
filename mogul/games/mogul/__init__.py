"""Mogul (Michael Schacht): the 2002 classic rules and their quick start; its spec is "mogul".

Read ``rules.py`` beside the rulebook: it follows the round phase by phase. Components
(cards, chips, crash placement, credit size) are data in ``data/editions/``.
"""
