"""Credit Mobilier (Max Michael, Rio Grande Games 2013): the dice-and-railroad companion game.

Read ``rules.py`` beside the rulebook: a turn is a roll of five dice, then unit actions of
one colour and one kind (build track, move goods, buy stock, pay dividends). Components
(board, dice faces, pawns, track markers, stock) are data in ``data/credit-mobilier/``; the
game's spec is "credit-mobilier". ``docs/credit-mobilier.md`` lists the rules decisions.
"""
