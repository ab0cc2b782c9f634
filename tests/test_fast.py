"""The batch simulator (``mogul.games.mogul.fast``) against the readable rules.

Deterministic bots on the same piles must end every game in exactly the same final table as
``rules.py``, from fresh deals and from states in every phase; rollouts on given piles end as
the readable engine's. The batch engine's own games (``fast_batch``: its deals and random
play) are replayed in the readable engine in ``test_mogul_batch.py``.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import numpy as np
import pytest

import mogul
from mogul.games.mogul import fast
from mogul.games.mogul.bots import MonteCarloBot, bot_factory
from mogul.games.mogul.determinize import determinize
from mogul.kit.bots import RandomBot, play_out
from mogul.kit.simulate import simulate


def final_table(state) -> tuple:
    """What must agree: each seat's chips, points, shares and credits; rounds; the bank."""
    seats = tuple((p.chips, p.points, p.shares.counts, p.credits) for p in state.players)
    return seats, state.round, state.bank


def fast_final_table(t) -> tuple:
    seats = tuple(
        (
            int(t["chips"][i]),
            int(t["points"][i]),
            tuple(int(x) for x in t["shares"][i]),
            int(t["credits"][i]),
        )
        for i in range(int(t["players"]))
    )
    return seats, int(t["round"]), int(t["bank"])


def mixed_bots(rng: random.Random, players: int) -> list[str]:
    """A random line-up of deterministic bots with assorted parameters."""
    choices = [
        "value",
        "value:chip_value=0.5",
        "value:chip_value=1.3",
        "value:chip_value=0.2",
        "threshold:drop_at=0",
        "threshold:drop_at=2",
        "threshold:drop_at=3",
        "threshold:drop_at=6",
    ]
    return [rng.choice(choices) for _ in range(players)]


def readable_finish(state, specs):
    return play_out(state, [bot_factory(s)(0) for s in specs])


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_deterministic_bots_end_every_game_as_the_rules_do(players):
    rng = random.Random(players)
    games = 350
    starts = [mogul.new_game("classic", players, seed) for seed in range(games)]
    line_ups = [mixed_bots(rng, players) for _ in range(games)]
    credits = sales = 0
    for start, specs in zip(starts, line_ups, strict=True):
        reference = readable_finish(start, specs)
        result = fast.play_states([start], specs)
        assert fast_final_table(result.tables[0]) == final_table(reference), (
            start.setup.seed,
            specs,
        )
        credits += sum(p.credits for p in reference.players)
        sales += reference.sold.total
        assert list(result.scores[0]) == list(reference.final_scores())
        winners = tuple(int(s) for s in np.flatnonzero(result.ranks[0] == 1))
        assert winners == reference.winners()
    # the comparison covered the rarer rules too
    assert credits > 20 and sales > 100


def test_deterministic_bots_agree_from_states_in_every_phase():
    """Random moves first (credits, sales, any phase), then deterministic bots to the end."""
    rng = random.Random(5)
    phases = Counter()
    for seed in range(300):
        players = 3 + seed % 4
        state = mogul.new_game("classic", players, seed)
        for _ in range(rng.randrange(1, 120)):
            if state.is_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.is_over:
            continue
        phases[state.phase] += 1
        specs = mixed_bots(rng, players)
        expected = final_table(readable_finish(state, specs))
        assert fast_final_table(fast.play_states([state], specs).tables[0]) == expected
    assert min(phases[p] for p in ("auction", "winner", "runner-up")) >= 10, phases


def test_fresh_deals_follow_the_setup_rules():
    result = fast.play_fresh(2000, 5, "threshold", seed=11)
    t = result.tables
    assert (
        t["pile_size"] == 31 - 5 + 1
    ).all()  # the box less one S share per player, plus the crash
    crash_at = np.argmax(t["pile_company"] == fast.CRASH, axis=1)
    counts = np.bincount(crash_at - (t["pile_size"] - 5), minlength=5)
    assert counts.min() > 320 and counts.max() < 480  # uniform over the last 5 positions
    assert (result.rounds == crash_at + 1).all()
    assert (
        result.chips.sum(axis=1) + t["bank"] == 45
    ).all()  # chips are conserved (the pot is empty at the end)


def test_the_same_seed_plays_the_same_games():
    a = fast.play_fresh(300, 4, ["random", "value", "threshold:drop_at=2", "random"], seed=7)
    b = fast.play_fresh(300, 4, ["random", "value", "threshold:drop_at=2", "random"], seed=7)
    c = fast.play_fresh(300, 4, ["random", "value", "threshold:drop_at=2", "random"], seed=8)
    assert (a.scores == b.scores).all() and not (a.scores == c.scores).all()


def test_hidden_piles_are_redealt_by_the_crash_rule():
    state = mogul.new_game("classic", 4, 2)
    while state.round < 20 or state.phase != "auction":
        state = state.apply(state.legal_actions()[0])
    view = state.view(state.current)
    left = view.cards_left
    assert left == 8  # the crash lies in one of the last 5 of these 8 cards, each equally likely
    table = fast.encode(view)
    fast._seed(1)
    places, companies = Counter(), Counter()
    for _ in range(5000):
        fast.deal_hidden_pile(table[0])
        pile = table["pile_company"][0][table["top"][0] :]
        places[int(np.flatnonzero(pile == fast.CRASH)[0])] += 1
        companies[tuple(sorted(pile[pile != fast.CRASH]))] += 1
    assert sorted(places) == list(range(left - 5, left)) and min(places.values()) > 900
    assert len(companies) == 1  # always the same unseen shares


def test_montecarlo_rollouts_on_given_piles_match_the_readable_engine():
    """With the piles of determinize, a value-bot rollout ends as the readable engine's does."""
    state = mogul.new_game("classic", 4, 9)
    for _ in range(40):
        state = state.apply(state.legal_actions()[-1])
    view = state.view(state.current)
    legal = state.legal_actions()
    rng = random.Random(4)
    dealt = [determinize(view, rng) for _ in range(6)]
    piles = np.stack([fast.pile_codes(s) for s in dealt])
    scores, _ = fast.rollouts(view, legal, rollouts=6, bots="value", piles=piles)
    for r, table in enumerate(dealt):
        for b, action in enumerate(legal):
            final = readable_finish(table.apply(action), ["value"] * 4)
            assert tuple(scores[r, b]) == final.final_scores()


def test_what_the_fast_simulator_refuses():
    rio = dataclasses.replace(mogul.edition("classic"), name="rio-grande")
    with pytest.raises(ValueError, match="classic edition only"):
        fast.check_edition(rio)
    with pytest.raises(ValueError, match="plays 'random', 'threshold' and 'value' bots"):
        fast.policies(["value", MonteCarloBot], 2)
    assert fast.bot_policy("mc") is None and fast.bot_policy(lambda seed: None) is None
    assert fast.bot_policy("threshold:drop_at=4") == (fast.THRESHOLD, 4.0)
    assert fast.bot_policy(RandomBot) == (fast.RANDOM, 0.0)
    with pytest.raises(ValueError, match="3 to 6 players"):
        fast.play_fresh(10, 7)
    over = readable_finish(mogul.new_game("classic", 3, 1), ["value"] * 3)
    with pytest.raises(ValueError, match="game is over"):
        fast.encode(over)


def test_montecarlo_bot_values_are_the_same_in_both_engines():
    state = mogul.new_game("classic", 4, 12)
    for _ in range(25):
        state = state.apply(state.legal_actions()[0])
    view, legal = state.view(state.current), state.legal_actions()
    quick = MonteCarloBot(rollouts=12, seed=3).action_values(view, legal)
    reference = MonteCarloBot(rollouts=12, seed=3, engine="readable").action_values(view, legal)
    assert quick == reference and len(set(quick)) > 1
    with pytest.raises(ValueError, match="engine must be"):
        MonteCarloBot(engine="numba")


def test_simulate_with_the_fast_engine_refuses_what_it_cannot_play():
    with pytest.raises(ValueError, match="engine='fast' cannot play this: the fast simulator"):
        simulate("classic", ["random", "mc:rollouts=1"], games=2, players=3, engine="fast")
    sim = simulate("classic", ["random", "mc:rollouts=1"], games=2, players=3, progress=False)
    assert sim.engine == "readable" and len(sim.games) == 6


def test_the_kernels_caches_are_dropped_when_any_file_they_compile_from_changes():
    """numba checks only a function's own file: each compiled module must list every file of
    compiled code or constants it imports (``fast_table.COMPILED``, ``RIO_COMPILED``)."""
    import ast
    from pathlib import Path

    from mogul.games.mogul import fast_table

    folder = Path(fast_table.__file__).parent
    for module, sources in (
        ("fast_kernels", fast_table.COMPILED),
        ("fast_rio_kernels", fast_table.RIO_COMPILED),
    ):
        tree = ast.parse((folder / f"{module}.py").read_text())
        imported = {
            node.module.rpartition(".")[2] + ".py"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module.startswith("mogul.")
        }
        assert imported | {f"{module}.py"} <= set(sources), (module, imported, sources)
        assert all((folder / name).exists() for name in sources)
    before = fast_table.sources_digest()
    assert before == fast_table.sources_digest() != fast_table.sources_digest(("fast_table.py",))
