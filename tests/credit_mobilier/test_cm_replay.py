"""The engine plays every game exactly as it did before it was made faster.

The digests below were worked out on the engine as it stood before the speed work (commit
0afee3a, before the caches it has since dropped): for each game, every state's table (money, stock, treasuries,
goods, track, whose turn, dice, colour, kind, unit actions used), its events and its legal
actions in order, one state after another. Random play depends on the order of the legal
actions too, so a changed order, a changed event or a changed sum shows here as a changed
digest. The branching games also apply every legal action at every step (as the bots do when
they look ahead), so nothing kept for one branch can leak into another.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from mogul import credit_mobilier as cm

RANDOM_GAMES = {
    0: "842289eecc44aefa",
    1: "b2f0e89eb4a76058",
    2: "651334909218dc04",
    3: "f1c206a6c8feac4a",
    4: "e003dfa8b84e444b",
    5: "e42e7d76ec5f7fab",
    6: "e806b458bd62b1ec",
    7: "744bbb79e4d1b9f5",
    8: "6b5da5849dff3106",
    9: "e4940b8a516e87b0",
    10: "0abf742e9b8493b9",
    11: "65d37dac2c11f253",
    12: "0e8ed876ef2d414d",
    13: "53e162b2e08cf74e",
    14: "a5dbbfd64d874a74",
    15: "fe0ff630436b8e9f",
    16: "2e6165ea7b8b2934",
    17: "a5885de23bad8c94",
    18: "8708be6480bc53c2",
    19: "2793e257dd764ce9",
    20: "ea8c922070a2f1f6",
    21: "ca6c9855ad835fd7",
    22: "e8f8b47157837861",
    23: "5ec78358f9104d68",
    24: "cba71756c3213685",
    25: "5164fdf6ac749caf",
    26: "cde2b1ab2569bdb8",
    27: "c935af071d6fd3bb",
    28: "5e17f852ca2fb631",
    29: "69ede55ef8447e83",
    30: "7eb7eefc04ebbc3a",
    31: "adaf32573ad37a58",
    32: "ddcf0753307af181",
    33: "230070b59d4d9a68",
    34: "697e504dcd1c2241",
    35: "f40d380498842413",
    36: "b1614f20ff6ac1ed",
    37: "cc83e0aef1cba915",
    38: "7342bbf86789a2c9",
    39: "d3d3faffc19cffe2",
    40: "63ed6160a16df522",
    41: "b8fddc52ce1a1e1d",
    42: "5e98794ddc09cb6e",
    43: "574a94088175ba51",
    44: "3b88847eb76e447c",
    45: "4837c07aa70a0cc4",
    46: "cc82e60f9f5cb127",
    47: "5ad799e44e965140",
    48: "532289ac3d46ceb1",
    49: "dc21cca4de016263",
    50: "01dda85729f33744",
    51: "6d7d18bf13aa226a",
    52: "0ffc8ab03dfab69e",
    53: "a487e4c7d598558f",
    54: "df0e70ca83c46ea2",
    55: "fd34a023a6c7bbf4",
    56: "dfd29f59e8dd5f68",
    57: "54c629b236f15188",
    58: "234347827005b856",
    59: "86729d4c033b8b7c",
    60: "7625b159697ad824",
    61: "19217b90e22f642d",
    62: "16063c5fcfd8f1ed",
    63: "3df8ac5725d8daf4",
    64: "882c24b6c49c2e05",
    65: "bb8887e6eb4f52a5",
    66: "75a1fdb9b7f8acfc",
    67: "bd2d0a43ecd019f6",
    68: "f54f50b4a3630a85",
    69: "55eeb2b4ffca8f75",
    70: "e4f4df905069abf9",
    71: "62609d2c7d3d6bf5",
    72: "66c7127375502b5b",
    73: "6c7f40f489690c6c",
    74: "d16dcdba637c37f3",
    75: "b271dcf342060316",
    76: "3fe9b9e5409f9da9",
    77: "d79a2afd0d6533c5",
    78: "31fee934e0d65370",
    79: "c2707ef76c12b748",
    80: "3aeae221d20b73fc",
    81: "0f8b43922b2bb361",
    82: "21ad648ac9d4ca0e",
    83: "9f465febc9da7b9e",
    84: "d08ffcb81735c01e",
    85: "dba10dd8e2e469a5",
    86: "3fb467ef83b8b6b6",
    87: "1de8a20c4de69d10",
    88: "84fe1f7029cce556",
    89: "d147d8063591004f",
    90: "43ca8733f7f63a3f",
    91: "705db38513ac0b72",
    92: "13df4b4e921a83ad",
    93: "b3fd5274f8a7a4b0",
    94: "26b50bb7dba46fa6",
    95: "1fe72f848f16ccce",
    96: "36a887d4379bd6d3",
    97: "2541849b261995e9",
    98: "00eed8db434ac15d",
    99: "f8ab65fbe2569e47",
    100: "8facc6e1af1ca4d3",
    101: "f3b9191db72c38c0",
    102: "6c5fbea7d7e3fc6d",
    103: "ecd24f592a49e387",
    104: "da01a5d8595c7269",
    105: "64bfabb997818487",
    106: "93c2e46534eea316",
    107: "a404f9393397d04f",
    108: "be4140902a793f7a",
    109: "acd0a4ac3768ffa9",
    110: "d6774e873625b3e6",
    111: "c3faa9a4f11a56b2",
    112: "05b400f8fead1a60",
    113: "ca3db59065657b2f",
    114: "a39b46a63fc354ad",
    115: "22f29e5dbb7a5d53",
    116: "42237f95632f6eb1",
    117: "7bc1946f84dd99a2",
    118: "4eaa3228595d5856",
    119: "56a4ac554b372bdc",
    120: "5e81ff0f70a40529",
    121: "7cf9d3a3affd96b2",
    122: "700d68f9cb04c089",
    123: "4cb988ca56002711",
    124: "d1531f111a98c4cd",
    125: "75bf7c4dde08ca5b",
    126: "65d0f478519a49b2",
    127: "ac6feb8055d52d03",
    128: "a46416d4fbbc4e0e",
    129: "dd459912bc5843a2",
    130: "1cab5c257e4fa37d",
    131: "cf16a1985752f3d3",
    132: "acdbea8337050b80",
    133: "c429bf8b89fa9b25",
    134: "36dca759b6e5b4d7",
    135: "e01823171d2e1ecf",
    136: "f9f685558202e284",
    137: "5140a056f829b82f",
    138: "0c439bdf70481b6b",
    139: "124134e89bad33d1",
    140: "172b147519708c36",
    141: "98b822d061732a77",
    142: "5a5191061b07f496",
    143: "a0db3d39872bab80",
    144: "ca459c57aaab556d",
    145: "9e43e3634cdba9e1",
    146: "45c47e12e3511361",
    147: "bf662b1f19952f92",
    148: "280bee81173bfa2e",
    149: "41b91fe590ed7f1e",
    150: "5cb45d008534f8ff",
    151: "bd979ebdc69b2b67",
    152: "8b082a18cfb84833",
    153: "1edbf955d86f1d52",
    154: "46f6af7a98de5f21",
    155: "e44b9db9d7932517",
    156: "ac03f9494616bbba",
    157: "0326b7f3c9077ed6",
    158: "6796f4fac1d64fde",
    159: "e5f6e42d56514366",
    160: "2bf6d2864990bb24",
    161: "5bb40c16d142e005",
    162: "c9ac75dda0073b56",
    163: "17504720bd5e5543",
    164: "28b2d37df15724b2",
    165: "86e9018ab560ddb9",
    166: "90acab756891f8cf",
    167: "d3d1cfdc0d87db98",
    168: "77fbe0d94b3d0161",
    169: "d9436136ec0a97fd",
    170: "93c86f4c54b04075",
    171: "8ede860792d6e1eb",
    172: "7be2cd3d5b85aee4",
    173: "91651e35003d581d",
    174: "cebb01bf11fe35ea",
    175: "ba217532c5708b49",
    176: "5a23a69969af74c6",
    177: "9a391628e34aa984",
    178: "dd9317a1946631d5",
    179: "fa13d2639deb5fd5",
    180: "cdcbf6e171bb39de",
    181: "04b6d677c6840722",
    182: "5e633b9a2e1512b5",
    183: "c9832b079009e396",
    184: "3931228d344ad209",
    185: "8949676cef7d2444",
    186: "06d9b3c56cec66d4",
    187: "406b5532f14cfa66",
    188: "4d64dd5219706cfc",
    189: "240d9f78fa2a7567",
    190: "6a81cd57330adedd",
    191: "8054308b9853e605",
    192: "4effa77fb8c5a0d1",
    193: "534059d8c9258d6b",
    194: "5754afe7c96df7f1",
    195: "900a31d883570003",
    196: "d79712d8e35b195f",
    197: "78e81b193dc43a6b",
    198: "e583566b63cb80db",
    199: "b99d5b6d192d819e",
}
"""Seed -> digest of the random game dealt from it (2 to 5 players: 2 + seed % 4)."""

BRANCHING_GAMES = {
    1000: "03c461f936efd59c",
    1001: "6171f9f4c1d0d608",
    1002: "8cb97ea94f82e3ef",
    1003: "fde19f2cf777fd6c",
    1004: "872af7ae8cfe2d73",
    1005: "8bfed916f1e7e2e6",
    1006: "7d70c6f7ed2a4a11",
    1007: "2965d5d061ce0343",
    1008: "2bc0b0b5dcf1a17d",
    1009: "f2f17e150fea909b",
    1010: "cec8313b0ebf8ad2",
    1011: "ba6ab8fc53ef205d",
}
"""Seed -> digest of every state one action away from each state of the game."""


def table_text(state: cm.GameState) -> str:
    """Everything a state shows but its setup, with its events and its legal actions in order."""
    legal = " | ".join(map(str, state.legal_actions()))
    return repr((tuple(state[1:-1]), state.events)) + legal


def game_digest(seed: int) -> str:
    state = cm.new_game(players=2 + seed % 4, seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256(table_text(state).encode())
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
        digest.update(table_text(state).encode())
    return digest.hexdigest()[:16]


def branching_digest(seed: int) -> str:
    state = cm.new_game(players=2 + seed % 4, seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    while not state.is_over:
        for action in state.legal_actions():
            digest.update(table_text(state.apply(action)).encode())
        state = state.apply(rng.choice(state.legal_actions()))
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("block", range(4))
def test_random_games_are_played_exactly_as_before(block):
    seeds = sorted(RANDOM_GAMES)[block::4]
    assert {seed: game_digest(seed) for seed in seeds} == {s: RANDOM_GAMES[s] for s in seeds}


def test_games_branching_at_every_step_are_played_exactly_as_before():
    assert {seed: branching_digest(seed) for seed in BRANCHING_GAMES} == BRANCHING_GAMES


def test_a_changed_game_changes_its_digest():
    state = cm.new_game(players=2, seed=0)
    moved = state.apply(state.legal_actions()[-1])
    assert table_text(moved) != table_text(state.apply(state.legal_actions()[0]))
    assert game_digest(1) != game_digest(2)
