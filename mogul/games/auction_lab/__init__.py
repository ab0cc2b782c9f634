"""The auction lab: a group plays rounds of one auction on private values it is dealt.

One game is one group's session (``mogul.new_game("auction-lab", players=4, seed=1,
mechanism="first-price", rounds=5, values="uniform 0..10", budget=10)``): each round every
seat draws a private value for the prize and bids with a fresh budget of chips, in Mogul's
auction, an English auction, or first-price, second-price or all-pay sealed bids. Each
mechanism is also an edition (``"first-price-auction"``), which is how ``simulate`` and the
classroom pick it. The modules, in the order to read them: ``values`` (the distributions),
``actions``, ``rules`` (one session, round by round), ``setup`` (dealing it),
``equilibrium`` (the theory's bids), ``bots``, ``tables``, ``spec``.
"""
