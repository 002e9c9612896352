"""Forces (issue 49): each ruleset's catalog and price check (``Rules.force_catalog``,
``build_force``, ``read_force``, ``price_force``), the limits the games keep (Counterblast's 500
points and its character rule, Frontier's posse budget, Doubles' game size), the player's force
files (saved atomically, read back through the ruleset's models, a bad one refused with file,
field and reason) and ``skirmish validate`` on them."""
from __future__ import annotations

import copy
import json

import pytest

from engine.core import Game, Setup, SetupError
from engine.core.forces import add_model, new_model, toggle_gear
from engine.core.rules import get_rules
from engine.data.errors import DataError
from engine.data.maps import load_named_map

RULESETS = ("counterblast", "frontier", "doubles")
HOME = {"counterblast": "outpost", "frontier": "town", "doubles": "prehistoric"}


def rules(rs):
    return get_rules(rs)


def shipped(rs, gid):
    return copy.deepcopy(rules(rs).force_catalog().starts[gid])


def new_game(rs, rosters, options=None):
    return Game(Setup(rs, load_named_map(HOME[rs]), tuple(rosters), {"deployment": "automatic", **(options or {})}, 1))


# --- the price hooks ----------------------------------------------------------------------

def test_the_default_limits_are_the_options_defaults():
    assert rules("counterblast").force_catalog().limit == 500           # the seed: "500 points is a standard game"
    assert rules("frontier").force_catalog().limit == 135               # ours: the dearest posse's $133, up to $5
    assert rules("doubles").force_catalog().limit == 200                # ours: the dearest warband's 186, up to 200
    from engine.rulesets.counterblast.options import CounterblastOptions
    from engine.rulesets.doubles.data import DoublesOptions
    from engine.rulesets.frontier.data import Options
    assert (CounterblastOptions().game_points, Options().posse_budget, DoublesOptions().game_points) == (500, 135, 200)
    assert "ours" in Options.model_fields["posse_budget"].description
    assert "ours" in DoublesOptions.model_fields["game_points"].description


def test_the_shipped_rosters_totals_fit_their_defaults():
    from engine.rulesets.counterblast.data import shipped_crews
    from engine.rulesets.doubles.data import bundled_warbands
    from engine.rulesets.doubles.points import warband_points
    from engine.rulesets.frontier.data import load_posses, posse_dollars
    want = {"counterblast": {k: c.points for k, c in shipped_crews().items()},
            "frontier": {k: posse_dollars(p) for k, p in load_posses().items()},
            "doubles": {k: warband_points(w) for k, w in bundled_warbands().items()}}
    assert want["frontier"] == {"bootleggers": 127, "outlawmen": 121, "sheriffs": 133, "townsfolk": 121}
    assert want["doubles"] == {"ash_skulls": 192, "bone_hunters": 186, "obsidian_clan": 171}
    for rs in RULESETS:
        cat = rules(rs).force_catalog()
        assert set(cat.starts) == set(want[rs])
        for gid, roster in cat.starts.items():
            price = rules(rs).price_force(roster)
            assert price.ok, (rs, gid, price.reasons())
            assert price.total == want[rs][gid] <= price.limit == cat.limit
            assert sum(m.total for m in price.models) == price.total


def test_each_shipped_roster_is_accepted_by_its_game():
    for rs in RULESETS:
        ids = list(rules(rs).roster_ids())
        for a in ids:
            new_game(rs, (a, ids[0]))


@pytest.mark.parametrize("rs", RULESETS)
def test_a_roster_read_into_a_draft_builds_the_same_force(rs):
    R = rules(rs)
    for roster in R.force_catalog().starts.values():
        draft = R.read_force(roster)
        built = R.build_force(draft)
        assert R.price_force(built).total == R.price_force(roster).total
        again = R.read_force(built)
        assert [(m.name, m.count, m.gear) for m in again.models] == [(m.name, m.count, m.gear) for m in draft.models]
        assert again.leader_index() == draft.leader_index()


def test_counterblast_over_the_limit_is_refused_with_the_reason():
    crew = shipped("counterblast", "iron-choir")                      # 433 points (the formula's)
    crew["models"][-1]["count"] += 2                                    # two more Gun Drones (36 each): 505
    price = rules("counterblast").price_force(crew)
    assert price.total == 505 and not price.ok
    assert any("505 points" in p.reason and "over the 500-point limit" in p.reason for p in price.problems)
    with pytest.raises(SetupError, match="over the 500-point limit"):
        new_game("counterblast", (crew, "reach-rangers"))
    crew["points_limit"] = 600                                          # a bigger game takes a crew made for it
    assert rules("counterblast").price_force(crew, limit=600).ok
    new_game("counterblast", (crew, "reach-rangers"), {"game_points": 600})
    # a shipped crew is held to a smaller game's size too
    with pytest.raises(SetupError, match="over the game's 400-point limit"):
        new_game("counterblast", ("iron-choir", "reach-rangers"), {"game_points": 400})


def test_counterblast_two_copies_of_a_character_are_refused():
    R = rules("counterblast")
    cat = R.force_catalog()
    tibbs = cat.template("dustjaw-raiders.tibbs")
    assert tibbs.role == "character" and tibbs.most == 1              # asked of the crew check, not restated
    assert cat.template("dustjaw-raiders.raider").most is None
    draft = R.read_force(shipped("counterblast", "dustjaw-raiders"))
    draft.models = [m for m in draft.models if m.role != "lackey"]       # room in the points
    i = add_model(draft, cat, tibbs.id)                                  # one more Mad Tibbs: the entry's count
    assert draft.models[i].count == 2
    price = R.price_force(R.build_force(draft))
    assert any(p.field == f"models[{i}].count" and "character" in p.reason for p in price.problems)
    draft.models[i].count = 1
    draft.models.append(new_model(tibbs))                                # or a second entry of him
    price = R.price_force(R.build_force(draft))
    assert any("never hold two copies of one character" in p.reason for p in price.problems)
    with pytest.raises(SetupError, match="two copies of one character"):
        new_game("counterblast", (R.build_force(draft), "iron-choir"))


def test_counterblast_gear_a_model_may_take_is_the_crew_checks():
    cat = rules("counterblast").force_catalog()
    psi = {g.key for g in cat.gear if g.key in ("gear:deep-focus", "gear:psi-lens")}
    assert psi and psi <= set(cat.template("dustjaw-raiders.hexa").allowed)          # a psifer
    assert not psi & set(cat.template("dustjaw-raiders.grekka").allowed)              # a hero
    assert "shooting:flamer" in cat.template("iron-choir.drone").allowed


def test_frontier_a_posse_over_the_budget_is_refused_with_the_reason():
    R = rules("frontier")
    posse = shipped("frontier", "sheriffs")                             # $133
    posse["models"][5]["items"].append("whiskey")                       # $137
    price = R.price_force(posse)
    assert price.total == 137 and not price.ok
    assert [p.reason for p in price.problems if "budget" in p.reason][0].startswith(
        "the posse's items are worth $137")
    assert "over the $135 budget" in price.reasons()[0]
    with pytest.raises(SetupError, match=r"over the \$135 budget"):
        new_game("frontier", (posse, "outlawmen"))
    new_game("frontier", (posse, "outlawmen"), {"posse_budget": 140})
    with pytest.raises(SetupError, match=r"over the \$120 budget"):    # a shipped posse too
        new_game("frontier", ("sheriffs", "outlawmen"), {"posse_budget": 120})


def test_frontier_a_built_posse_keeps_the_shape():
    R = rules("frontier")
    cat = R.force_catalog()
    draft = R.read_force(shipped("frontier", "outlawmen"))
    draft.models.pop()                                                   # two gangers
    price = R.price_force(R.build_force(draft))
    assert any("3 gangers, this one has 2" in p.reason for p in price.problems)
    ganger = next(t for t in cat.templates if t.group == "outlawmen" and t.role == "ganger")
    add_model(draft, cat, ganger.id)
    assert R.price_force(R.build_force(draft)).ok


def test_doubles_a_warband_over_the_game_size_is_refused():
    R = rules("doubles")
    cat = R.force_catalog()
    draft = R.read_force(shipped("doubles", "obsidian_clan"))            # 171
    add_model(draft, cat, "bone_hunters.chip")                           # + 22
    assert R.price_force(R.build_force(draft)).total == 193
    toggle_gear(draft.models[-1], cat, "weapon:javelin")                 # a better throwing weapon
    price = R.price_force(R.build_force(draft))
    assert price.total > 193 and price.ok
    add_model(draft, cat, "ash_skulls.soot")
    price = R.price_force(R.build_force(draft))
    assert price.total > 200 and any("over the game's 200-point size" in p.reason for p in price.problems)
    with pytest.raises(SetupError, match="200-point size"):
        new_game("doubles", (R.build_force(draft), "bone_hunters"))
    new_game("doubles", (R.build_force(draft), "bone_hunters"), {"game_points": 300})


def test_an_armour_slot_holds_one():
    cat = rules("doubles").force_catalog()
    m = new_model(cat.template("ash_skulls.grit"))
    assert "armour:hide" in m.gear
    toggle_gear(m, cat, "armour:tusk_mail")
    assert [k for k in m.gear if k.startswith("armour:")] == ["armour:tusk_mail"]


def test_an_unreadable_roster_has_no_total_and_says_why():
    for rs in RULESETS:
        price = rules(rs).price_force({"name": 3}, file="x.json")
        assert price.total is None and price.problems and all(p.file == "x.json" for p in price.problems)
        with pytest.raises(DataError):
            rules(rs).read_force({"name": 3})


# --- the player's files -----------------------------------------------------------------

@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SKIRMISH_HOME", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("rs", RULESETS)
def test_a_saved_force_reads_back_and_validates(home, rs):
    from game.cli import validate_file
    from game.forces import files
    R = rules(rs)
    draft = R.read_force(next(iter(R.force_catalog().starts.values())))
    draft.name, draft.id = "Best Force", "best_force"
    roster = R.build_force(draft)
    path = files.save_force(rs, roster)
    assert path == home / "data" / "forces" / rs / "best_force.json"
    assert [p.name for p in path.parent.iterdir()] == ["best_force.json"]        # no temporary file left
    assert files.load_roster(rs, "user:best_force") == roster
    assert files.roster_choices(rs)["user:best_force"] == "* Best Force"
    assert validate_file(path).split(":")[0].endswith("'best_force'")
    assert files.free_id(rs, "best_force") == "best_force_2" and files.free_id(rs, "best_force", "best_force") == "best_force"


def test_an_invalid_force_is_not_saved(home):
    from game.forces import files
    crew = shipped("counterblast", "iron-choir")
    crew["id"] = "big"
    crew["models"][-1]["count"] = 9
    with pytest.raises(DataError) as err:
        files.save_force("counterblast", crew)
    assert any("over the 500-point limit" in r for _, r in err.value.problems)
    assert not (home / "data" / "forces" / "counterblast" / "big.json").exists()


def test_a_malformed_force_file_is_refused_with_file_field_and_reason(home):
    from game.forces import files
    folder = home / "data" / "forces" / "frontier"
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text("{not json")
    bad = shipped("frontier", "sheriffs")
    bad["models"][0]["wounds"] = "many"
    (folder / "typo.json").write_text(json.dumps(bad))
    (folder / "list.json").write_text("[1, 2]")
    listed = {f.key: f for f in files.list_forces("frontier")}
    assert set(listed) == {"user:broken", "user:list", "user:typo"}
    assert not any(f.readable for f in listed.values())
    assert "broken.json" in listed["user:broken"].problem and "not valid JSON" in listed["user:broken"].problem
    assert "typo.json: models[0].wounds:" in listed["user:typo"].problem
    assert not [k for k in files.roster_choices("frontier") if k.startswith("user:")]
    with pytest.raises(DataError, match="typo.json"):
        files.load_roster("frontier", "user:typo")
    with pytest.raises(DataError, match="no such force"):
        files.load_roster("frontier", "user:gone")


def test_validate_refuses_a_force_over_its_limit(home, tmp_path):
    from game.cli import validate_file
    posse = shipped("frontier", "sheriffs")
    posse["models"][0]["items"].append("rifle")
    p = tmp_path / "rich.json"
    p.write_text(json.dumps(posse))
    with pytest.raises(DataError, match=r"over the \$135 budget"):
        validate_file(p)
    wb = shipped("doubles", "bone_hunters")
    wb["fighters"].append(dict(wb["fighters"][1], id="tusk2"))
    p = tmp_path / "big.json"
    p.write_text(json.dumps(wb))
    with pytest.raises(DataError, match="over the game's 200-point size"):
        validate_file(p)
    crew = shipped("counterblast", "reach-rangers")
    crew["models"][-1]["count"] += 1
    p = tmp_path / "crew.json"
    p.write_text(json.dumps(crew))
    with pytest.raises(DataError, match="over the 500-point limit"):
        validate_file(p)


def test_two_saved_forces_of_one_name_are_told_apart_in_the_launcher(home):
    from game.forces import files
    R = rules("frontier")
    for fid in ("posse_a", "posse_b"):
        draft = R.read_force(shipped("frontier", "sheriffs"))
        draft.name, draft.id = "Same Name", fid
        files.save_force("frontier", R.build_force(draft))
    got = {k: v for k, v in files.roster_choices("frontier").items() if files.is_user(k)}
    assert got == {"user:posse_a": "* Same Name", "user:posse_b": "* Same Name (2)"}


def test_a_counterblast_weapon_changes_the_price_and_the_built_crew_plays():
    """The points formula (docs/rules/counterblast.md, Points) prices a model's weapons: a Raider
    given a Long Rifle instead of his Pulse Carbine costs what the formula says for that profile,
    the builder's price is the game's, and the built crew (stating no points) sets up a game."""
    from engine.rulesets.counterblast.data import Profile, load_armoury
    from engine.rulesets.counterblast.points import model_points
    R = rules("counterblast")
    cat = R.force_catalog()
    draft = R.read_force(shipped("counterblast", "dustjaw-raiders"))
    raider = next(m for m in draft.models if m.name == "Raider")
    before = R.price_force(R.build_force(draft)).total
    assert "shooting:pulse-carbine" in raider.gear
    toggle_gear(raider, cat, "shooting:pulse-carbine")
    toggle_gear(raider, cat, "shooting:long-rifle")
    raider.count -= 2                                  # rifles cost more: five Raiders, to stay within 500
    before -= 2 * R.price_force(R.build_force(R.read_force(shipped("counterblast", "dustjaw-raiders")))).models[-1].each
    built = R.build_force(draft)
    entry = next(m for m in built["models"] if m["profile"]["name"] == "Raider")
    assert "points" not in entry["profile"] and entry["profile"]["shooting"] == ["long-rifle"]
    each = model_points(Profile(**entry["profile"]), load_armoury())
    old_each = model_points(Profile(**{**entry["profile"], "shooting": ["pulse-carbine"]}), load_armoury())
    assert each != old_each
    price = R.price_force(built)
    assert price.total == before + (each - old_each) * raider.count
    assert next(m.each for m in price.models if m.name == "Raider") == each
    assert price.ok, price.problems
    g = new_game("counterblast", (built, "reach-rangers"))
    assert g.rules.crews[1].points == price.total
