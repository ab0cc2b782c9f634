"""The games of the kit, one folder each: ``mogul`` (2002 and 2013 editions),
``credit_mobilier`` and ``auction_lab`` (a class's auctions on private values).

Each game registers a ``mogul.kit.spec.GameSpec`` from its ``spec`` module. This package only
announces them (the first is the default game); the registry imports a game's spec the first
time it is asked for, so importing the kit loads no game that is not played.
"""

from mogul.kit.spec import announce

announce("mogul", "mogul.games.mogul.spec")
announce("credit-mobilier", "mogul.games.credit_mobilier.spec")
announce("auction-lab", "mogul.games.auction_lab.spec")
