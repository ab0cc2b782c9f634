"""The auction lab: a group plays rounds of one auction on private values it is dealt.

One game is one group's session (``mogul.new_game("auction-lab", players=4, seed=1,
mechanism="first-price", rounds=5, values="uniform 0..10", budget=10)``): each round every
seat draws a private value for the prize and bids with a fresh budget of chips, in Mogul's
auction, an English auction, or first-price, second-price or all-pay sealed bids. Each
mechanism is also an edition (``"first-price-auction"``), which is how ``simulate`` and the
classroom pick it. The modules, in the order to read them: ``values`` (the distributions),
``actions``, ``rules`` (one session, round by round), ``setup`` (dealing it),
``equilibrium`` (the theory's bids), ``bots``, ``tables``, ``display`` (a seat's panel in
HTML), ``spec``. The game's places in the layers above: ``mogul.auction.auction_lab`` (Mogul's equilibrium thresholds, computed by
``mogul.auction`` and kept here as ``thresholds.json``), ``mogul.widgets.auction_lab`` (the
notebook player) and ``mogul/classroom/auction_lab/howto.html`` (the student page's how-to).

A session of *partners* is one game per group for all rounds. A session of *strangers*
(groups drawn again each round) is one game of ``rounds=1`` per round and group, each dealt
with a seed drawn from the session's, the players named as the students.
"""
