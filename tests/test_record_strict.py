"""Records are untrusted input: every malformed file gets a clear ValueError naming the file and
the field, a tampered game is refused, and nothing else ever escapes (hypothesis fuzzing)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mogul
from mogul import GameRecord, RandomBot, play
from mogul.kit.record import MAX_BYTES


def good() -> dict:
    return json.loads(GameRecord.load("rulebook-opening").to_json())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["setup"].update(seed=None), 'setup field "seed" must be a whole number'),
        (lambda d: d["setup"].update(seed=1.5), 'setup field "seed" must be a whole number'),
        (
            lambda d: d["setup"].update(quick_start="false"),
            'setup field "quick_start" must be true or false',
        ),
        (
            lambda d: d["setup"].update(players=4),
            'setup field "players" must be a list of player names',
        ),
        (
            lambda d: d["setup"].update(chips=[6, "6", 6, 6]),
            'setup field "chips" must be null or one whole number',
        ),
        (lambda d: d["setup"].pop("seed"), "missing: \\['seed'\\]"),
        (lambda d: d.update(game=7), '"game" must name the game'),
        (lambda d: d.update(game="classic"), "a game's name such as 'mogul', not an edition"),
        (lambda d: d.update(version=True), "unsupported record version True"),
        (lambda d: d.update(extra=1), "unknown record fields \\['extra'\\]"),
        (lambda d: d.update(title=["x"]), '"title" must be text'),
        (lambda d: d.update(result=[11, 2]), '"result" must be an object'),
    ],
)
def test_malformed_fields_are_named(change, message):
    data = good()
    change(data)
    with pytest.raises(ValueError, match=message):
        GameRecord.from_dict(data)


def test_errors_name_the_file(tmp_path):
    path = tmp_path / "class-game.json"
    data = good()
    data["setup"]["seed"] = None
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match='^class-game.json: setup field "seed"'):
        GameRecord.load(path)


def test_not_utf8_deeply_nested_and_huge_files_are_refused(tmp_path):
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"title": "Café"}'.encode("latin-1"))
    with pytest.raises(ValueError, match="latin.json: game record is not UTF-8 text"):
        GameRecord.load(latin)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="deep.json: game record is nested too deeply"):
        GameRecord.load(deep)
    huge = tmp_path / "huge.json"
    huge.write_text('{"actions": [' + ", ".join(['"bid"'] * (MAX_BYTES // 6)) + "]}")
    with pytest.raises(ValueError, match="huge.json: game record is .* bytes; records are at most"):
        GameRecord.load(huge)


def test_a_record_saved_without_a_suffix_loads_again(tmp_path):
    record = GameRecord.load("rulebook-opening")
    path = record.save(tmp_path / "my-game")
    assert path.name == "my-game.json"
    assert GameRecord.load(tmp_path / "my-game") == record == GameRecord.load(path)


def test_swapping_two_legal_actions_is_caught_by_the_fingerprint():
    record = play(mogul.new_game(players=4, seed=21), [RandomBot(i) for i in range(4)])
    data = json.loads(record.to_json())
    actions = data["actions"]
    # Find two neighbouring different actions whose swap still replays to the end.
    for i in range(len(actions) - 1):
        if actions[i] == actions[i + 1]:
            continue
        swapped = actions[:i] + [actions[i + 1], actions[i]] + actions[i + 2 :]
        try:
            final = GameRecord(record.setup, tuple(swapped)).replay()
        except ValueError:
            continue
        if final.is_over:
            break
    else:
        pytest.fail("no replayable swap found")
    data["actions"] = swapped
    with pytest.raises(ValueError, match="actions were changed after the game was saved"):
        GameRecord.from_dict(data)


def test_version_1_records_still_load_and_save_as_version_2():
    record = GameRecord.load("rulebook-opening")  # stored as version 1
    data = json.loads(record.to_json())
    assert (
        data["version"] == 2 and data["game"] == "mogul" and len(data["result"]["log_sha256"]) == 64
    )
    assert GameRecord.from_dict(data) == record


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = ["format", "version", "game", "title", "notes", "setup", "actions", "result"]
SETUP = [
    "edition",
    "players",
    "seed",
    "quick_start",
    "deck",
    "starting_shares",
    "start_player",
    "chips",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    where=st.sampled_from(["top", "setup", "action"]),
    key=st.sampled_from(FIELDS + SETUP),
    value=JSON,
)
def test_fuzzed_records_load_or_fail_with_a_value_error(where, key, value):
    data = good()
    if where == "top":
        data[key if key in FIELDS else "setup"] = value
    elif where == "setup":
        data["setup"][key if key in SETUP else "deck"] = value
    else:
        data["actions"][len(data["actions"]) // 2] = value
    try:
        record = GameRecord.from_dict(data)
    except ValueError:
        return
    assert record.replay() is not None  # whatever loads, replays


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_fuzzed_text_never_escapes_as_another_error(text):
    with pytest.raises(ValueError):
        GameRecord.from_json(text)
