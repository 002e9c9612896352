"""Pure rule functions, scripted with forced dice. Seed: 003_52d4831de0a47706.txt (Counterblast)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.rng import GameRng
from engine.rulesets.counterblast import actions, attacks, conditions, damage, movement, moxie, panic, scoring
from engine.rulesets.counterblast.checks import ability_check
from engine.rulesets.counterblast.damage import Wounds
from engine.rulesets.counterblast.data import shipped_missions
from engine.rulesets.counterblast.options import CounterblastOptions


def forced(*values):
    rng = GameRng(0)
    rng.force(*values)
    return rng


# --- attacks -------------------------------------------------------------------------------

def test_shoot_difficulty_by_range():
    """003_52d4831de0a47706.txt: 'The Difficulty of he Check is 7 if the target is within Short Range 8″, or 8 otherwise'."""
    assert attacks.shoot_difficulty(8.0) == 7
    assert attacks.shoot_difficulty(3.2) == 7
    assert attacks.shoot_difficulty(8.01) == 8
    assert attacks.shoot_difficulty(10, options=CounterblastOptions(short_range=12)) == 7


def test_shoot_modifiers_aim_marked_panic():
    """003_52d4831de0a47706.txt: 'reduces the Difficulty of the next Zap Check it rolls' (Aim),
    'zap checks targeting a model with this condition have their difficulty reduced by 1' (Marked),
    'zap and grit checks have their difficulties increased by 1' (Panic)."""
    assert attacks.shoot_difficulty(12, aimed=True) == 7
    assert attacks.shoot_difficulty(4, aimed=True, target_marked=True) == 5
    assert attacks.shoot_difficulty(4, shooter_panicked=True) == 8


def test_strike_difficulty_by_grit():
    """003_52d4831de0a47706.txt: 'The Difficulty of the Check is 7 if the target's Grit is equal to or lower than the attacker's, and 8 otherwise'."""
    assert attacks.strike_difficulty(4, 4) == 7
    assert attacks.strike_difficulty(4, 3) == 7
    assert attacks.strike_difficulty(3, 4) == 8


def test_grit_vs_down_and_prone():
    """003_52d4831de0a47706.txt: 'Grit checks against downed models are always difficulty 2' and
    'increases the difficulty of its own Grit checks by 1, while Grit checks against a Prone model reduce the difficulty by 1'."""
    assert attacks.strike_difficulty(1, 9, target_down=True, attacker_panicked=True, attacker_prone=True) == 2
    assert attacks.strike_difficulty(4, 4, attacker_prone=True) == 8
    assert attacks.strike_difficulty(3, 4, target_prone=True) == 7
    assert attacks.throw_difficulty(3, 4, attacker_panicked=True) == 9


def test_throw_only_smaller_targets_and_distance():
    """003_52d4831de0a47706.txt: 'may only target models smaller than the attacker' / 'move the target by the Check result in inches'."""
    assert attacks.can_throw(3, 2) and not attacks.can_throw(2, 2)
    assert attacks.throw_distance(3) == 3


def test_raw_damage_is_successes_times_damage():
    """003_52d4831de0a47706.txt: 'Multiply the result of the Grit check by the chosen weapon's damage stat'."""
    assert attacks.raw_damage(3, 2) == 6
    assert attacks.raw_damage(0, 3) == 0


def test_split_dice():
    """003_52d4831de0a47706.txt: 'it divides its Zap or Grit among however many targets it wishes'."""
    assert attacks.split_dice(5, [2, 3]) == [2, 3]
    assert attacks.split_dice(12, [5, 5]) == [5, 5]          # capped pool of 10 split
    with pytest.raises(ValueError):
        attacks.split_dice(5, [2, 2])
    with pytest.raises(ValueError):
        attacks.split_dice(5, [5, 0])


def test_assists():
    """003_52d4831de0a47706.txt: 'A model may only benefit from on Aim-Assist at a time' /
    'Multiple Dog piles on the same target stack' / 'Models with a Knack of 0d may not use the Boost Action'."""
    assert attacks.aim_assist_dice(3) == 1 and attacks.aim_assist_dice(0) == 0
    assert attacks.dog_pile_dice(2) == 2 and attacks.boost_dice(2) == 2
    assert not attacks.can_assist(0) and attacks.can_assist(1)


def test_sight_third_and_disperse():
    """003_52d4831de0a47706.txt: 'If one third of the model is within LOS it is considered unobscured' /
    'If the result is greater than the other model's roll, then the target's roll is treated as having a result of 0'."""
    assert attacks.visible_enough(1 / 3) and attacks.visible_enough(0.5) and not attacks.visible_enough(0.3)
    assert attacks.disperse_cancels(3, 2) and not attacks.disperse_cancels(2, 2)
    assert attacks.psi_ability(2, 3, 6) == 6
    assert attacks.disperse_in_range(12) and not attacks.disperse_in_range(12.5)


# --- damage --------------------------------------------------------------------------------

def test_cover_classes():
    """003_52d4831de0a47706.txt: 'If a third of the model is within cover then it is obscured' and
    'prone models automatically benefit from light cover'."""
    assert damage.cover_class(0, 0) == "none"
    assert damage.cover_class(0.2, 0.2) == "light"
    assert damage.cover_class(0, 1 / 3) == "heavy"
    assert damage.cover_class(0.1, 0, prone=True) == "light"
    assert damage.cover_class(0, 0.5, prone=True) == "heavy"
    assert damage.best_cover("light", "none", "heavy") == "heavy"


def test_defense_pool_cover_parry_substitute():
    """003_52d4831de0a47706.txt: 'Defense checks against shooting will often benefit from cover' /
    'adds its Grit to its Defense' (Parry) / 'other effects that modify defense checks, such as cover or force fields, do not apply'."""
    assert damage.defense_pool(3, cover="light") == 4
    assert damage.defense_pool(3, cover="heavy") == 5
    assert damage.defense_pool(3, cover="heavy", attack="strike") == 3
    assert damage.defense_pool(3, cover="heavy", attack="strike", options=CounterblastOptions(cover_vs_strikes=True)) == 5
    assert damage.defense_pool(3, attack="strike", parry_grit=4) == 7
    assert damage.defense_pool(9, cover="heavy") == 10
    assert damage.defense_pool(3, cover="heavy", bonus_dice=1, substitute=5) == 5


def test_defense_reduces_raw_damage_to_minimum_zero():
    """003_52d4831de0a47706.txt: 'Each success reduces the raw damage by 1, to a minimum of 0'."""
    ch = damage.defense_check(forced(7, 10, 3, 2), 3)      # wave 0: 7 10 3; the 10 explodes: 2
    assert ch.difficulty == 7 and ch.values == (7, 10, 3, 2) and ch.successes == 2
    assert damage.tokens_from(4, 3) == 1
    assert damage.tokens_from(2, 5) == 0


def test_scripted_shot_downs_target():
    """A Zap 4 shooter at 6" with a damage-2 carbine vs a Defense 3 target in light cover, Mettle 3."""
    rng = forced(7, 9, 2, 1,        # Zap: 2 successes -> 4 raw
                 7, 3, 1, 2)        # Defense 3 + light cover = 4 dice: 1 success
    zap = ability_check(rng, 4, attacks.shoot_difficulty(6))
    raw = attacks.raw_damage(zap.successes, 2)
    d = damage.defense_check(rng, damage.defense_pool(3, cover="light"))
    w = damage.apply_tokens(Wounds(), damage.tokens_from(raw, d.successes), mettle=3)
    assert (raw, d.successes, w) == (4, 1, Wounds(3, True, True))
    assert rng.forced_left == 0


def test_tokens_vs_mettle():
    """003_52d4831de0a47706.txt: 'as many or more damage tokes than its Mettle attribute, it immediately becomes Down and Stable' /
    'more than double its Mettle in damage tokens, it is instead removed as a casualty'."""
    assert damage.apply_tokens(Wounds(), 2, 3) == Wounds(2)
    assert damage.apply_tokens(Wounds(), 3, 3) == Wounds(3, True, True)
    assert damage.apply_tokens(Wounds(), 6, 3) == Wounds(6, True, True)
    assert damage.apply_tokens(Wounds(), 7, 3).casualty
    assert damage.apply_tokens(Wounds(2), 5, 3).casualty
    assert damage.newly_down(Wounds(2), damage.apply_tokens(Wounds(2), 1, 3))


def test_more_damage_to_down_model_does_not_restabilise():
    down_unstable = Wounds(3, True, False)
    assert damage.apply_tokens(down_unstable, 1, 3) == Wounds(4, True, False)
    opt = CounterblastOptions(damage_restabilizes_down=True)
    assert damage.apply_tokens(down_unstable, 1, 3, opt) == Wounds(4, True, True)


@given(st.integers(0, 30), st.integers(1, 8))
def test_status_partition(tokens, mettle):
    s = damage.status_for(tokens, mettle)
    assert (s == "ok") == (tokens < mettle)
    assert (s == "casualty") == (tokens > 2 * mettle)


def test_stabilize_actions_by_kind():
    """003_52d4831de0a47706.txt: 'Engineer is used to stabilize robots and treat is used to stabilize living models. Cyberforms can be stabilized using either'."""
    assert damage.stabilize_actions("robot") == {"engineer"}
    assert damage.stabilize_actions("living") == {"treat"}
    assert damage.stabilize_actions("cyberform") == {"engineer", "treat"}
    assert damage.can_heal("treat", {"medkit"}, "living") and not damage.can_heal("treat", {"tools"}, "living")
    assert damage.can_heal("engineer", {"tools"}, "cyberform") and not damage.can_heal("engineer", {"tools"}, "living")


def test_stabilize_on_success():
    """003_52d4831de0a47706.txt: 'a model rolls Knack/7. The target becomes Stable on a success'."""
    w = Wounds(4, True, False)
    assert damage.stabilize(w, 0) == w
    assert damage.stabilize(w, 1) == Wounds(4, True, True)


def test_heal_never_below_one_token():
    """003_52d4831de0a47706.txt: 'Remove one damage token from the target for each success, down to a minimum of 1 token remaining.
    If the target is still Down, it becomes Stable' / 'If a model has less damage tokens than its mettle, it stops being down'."""
    assert damage.heal(Wounds(5, True, False), 1, mettle=3) == Wounds(4, True, True)
    assert damage.heal(Wounds(5, True, False), 3, mettle=3) == Wounds(2)
    assert damage.heal(Wounds(2), 5, mettle=3) == Wounds(1)
    assert damage.heal(Wounds(0), 2, mettle=3) == Wounds(0)
    assert damage.heal(Wounds(5, True, False), 0, mettle=3) == Wounds(5, True, False)
    assert damage.heal(Wounds(5, True, False), 0, 3, CounterblastOptions(heal_failure_stabilizes=True)).stable


def test_upkeep_down_models():
    """003_52d4831de0a47706.txt: 'All down models that are not also stable are removed as casualties' /
    'All down models that are stable become un-stable'."""
    assert damage.upkeep(Wounds(3, True, False)).casualty
    assert damage.upkeep(Wounds(3, True, True)) == Wounds(3, True, False)
    assert damage.upkeep(Wounds(1)) == Wounds(1)


def test_falling_damage_per_full_inch():
    """003_52d4831de0a47706.txt: 'takes 1 raw damage for each full inch fallen'."""
    assert damage.fall_damage(2.9) == 2
    assert damage.fall_damage(3.0) == 3
    assert damage.fall_damage(0.7) == 0


def test_burning():
    """003_52d4831de0a47706.txt: 'Burning models take 3 raw damage' / 'Prone models gain +3d Defense against this damage' /
    'If the model takes no damage tokens form burning, they stop burning'."""
    assert damage.burning_defense_pool(2, prone=True) == 5
    assert damage.burning_defense_pool(2, prone=False) == 2
    b = damage.burning(1)
    assert (b.tokens, b.panic_test, b.stops_burning) == (2, True, False)
    b = damage.burning(3)
    assert (b.tokens, b.panic_test, b.stops_burning) == (0, False, True)


# --- movement ------------------------------------------------------------------------------

def test_rush_d10_and_jump_d5():
    """003_52d4831de0a47706.txt: 'the model rolls a d10 and uses the result instead of its move attribute' / 'rolls a d5'."""
    assert movement.rush_distance(forced(7)) == 7
    assert [movement.jump_distance(forced(v)) for v in (1, 2, 3, 9, 10)] == [1, 1, 2, 5, 5]
    assert movement.jump_distance(forced(4), CounterblastOptions(d5_from_d10=False)) == 4
    assert movement.half_blind_move(forced(6)) == 3


def test_rush_and_jump_preconditions():
    """003_52d4831de0a47706.txt: 'A model that has used the Move action and has not used the Jump action' /
    'A model that has not used the Rush action during the current activation may Jump' / 'Prone models may not Rush or Jump'."""
    assert movement.can_rush(["move"], [])[0]
    assert not movement.can_rush([], [])[0]
    assert not movement.can_rush(["move", "jump"], [])[0]
    assert not movement.can_rush(["move"], ["prone"])[0]
    assert movement.can_jump([], [])[0]
    assert not movement.can_jump(["move", "rush"], [])[0]
    assert not movement.can_jump([], ["half_blind"])[0]


def test_rush_jump_and_react_refusals_name_the_first_bar():
    """The reason shown is the first bar the rule names, in its order (the client words it)."""
    assert movement.can_rush(["rush"], ["prone"]) == (False, "already Rushed this activation (Multitasking)")
    assert movement.can_rush([], ["prone"]) == (False, "a model must Move before it may Rush")
    assert movement.can_rush(["move", "jump"], []) == (False, "a model that Jumped this activation may not Rush")
    assert movement.can_rush(["move"], ["prone", "half_blind"]) == (False, "Prone models may not Rush")
    assert movement.can_rush(["move"], ["half_blind"]) == (False, "Half-blind models may not Rush")
    assert movement.can_rush(["move"], ["stunned"]) == (True, "")
    assert movement.can_jump(["jump", "rush"], []) == (False, "already Jumped this activation (Multitasking)")
    assert movement.can_jump(["rush"], ["prone"]) == (False, "a model that Rushed this activation may not Jump")
    assert movement.can_jump([], ["prone"]) == (False, "Prone models may not Jump")
    assert movement.can_jump([], ["half_blind"]) == (False, "Half-blind models may not Jump")
    assert movement.can_jump(["move"], []) == (True, "")
    assert conditions.can_react({"down", "stunned"}) == (False, "Down models may not use actions")
    assert conditions.can_react({"stunned", "pinned"}) == (False, "a Stunned model may not trigger reactions")
    assert conditions.can_react({"pinned"}) == (False, "a Pinned model may only Recover")
    assert conditions.can_react({"prone"}) == (True, "")


def test_jump_clearance():
    """003_52d4831de0a47706.txt: 'jumping over models of its own size or smaller and any terrain no more than 1″ higher'."""
    assert movement.jumps_over_model(2, 2) and not movement.jumps_over_model(2, 3)
    assert movement.jumps_over_terrain(1.0) and not movement.jumps_over_terrain(1.1)


# --- Moxie ---------------------------------------------------------------------------------

def test_moxie_pool_counts_models_on_table():
    """003_52d4831de0a47706.txt: 'counts all of its models that are currently on the table and adds bonus moxie'."""
    assert moxie.moxie_pool(7, 1) == 8
    assert moxie.spend(3, 2) == 1
    with pytest.raises(moxie.MoxieError):
        moxie.spend(1, 2)


def test_active_crew_by_successes():
    """003_52d4831de0a47706.txt: 'both crews will roll a Moxie check versus 7. The one that rolls the most successes is the Active'."""
    rng = forced(7, 8, 1,   2, 9, 3)   # A (3 Moxie): 2 successes; B (3 Moxie): 1
    r = moxie.determine_active(rng, {"A": 3, "B": 3})
    assert r.active == "A" and r.decided_by == "successes"


def test_active_tie_to_larger_pool_then_roll_off():
    """003_52d4831de0a47706.txt: 'Ties are broken in favor of the crew with the largest Moxie Pool' /
    'each roll 1d10, breaking the tie in favor of whichever one rolls higher'."""
    rng = forced(7, 1, 1, 1,   8, 2)   # A (4): 1 success, B (2): 1 success -> A by pool
    r = moxie.determine_active(rng, {"A": 4, "B": 2})
    assert (r.active, r.decided_by) == ("A", "pool")
    rng = forced(1, 1,  1, 1,  5, 5,  2, 8)   # both 0, pools equal; roll-offs 5-5 then 2-8
    r = moxie.determine_active(rng, {"A": 2, "B": 2})
    assert (r.active, r.decided_by, r.roll_offs) == ("B", "roll_off", [{"A": 5, "B": 5}, {"A": 2, "B": 8}])


def test_passed_crew_fails_moxie_checks():
    """003_52d4831de0a47706.txt: 'a crew that has passed the turn automatically fails all Moxie checks'."""
    rng = forced(10, 10)
    r = moxie.determine_active(rng, {"A": 5, "B": 1}, passed={"A"})
    assert r.active == "B" and r.decided_by == "only_crew" and rng.forced_left == 2
    assert moxie.moxie_check(forced(), 5, passed=True).successes == 0
    with pytest.raises(moxie.MoxieError):
        moxie.determine_active(rng, {"A": 5}, passed={"A"})


def test_activation_costs_and_groups():
    """003_52d4831de0a47706.txt: 'The crew spends 1 Moxie' / 'spends 2 Moxie and chooses one of its un-Spent Hero models and up to 2 of its un-Spent Lackey models' /
    'spending 1 Moxie for each active model for each extra action' / 'Triggering a reaction costs 1 Moxie'."""
    assert moxie.single_activation_cost() == 1 and moxie.group_activation_cost() == 2
    assert moxie.extra_action_cost(3) == 3 and moxie.extra_action_cost() == 1
    assert moxie.reaction_cost() == 1 and moxie.leader_election_cost() == 1
    assert moxie.group_problems([(True, "hero"), (False, "lackey"), (False, "lackey")]) == []
    assert moxie.group_problems([(True, "hero"), (True, "character")])
    assert moxie.group_problems([(True, "hero")] + [(False, "lackey")] * 3)
    assert moxie.group_problems([(False, "lackey")])


def test_one_reaction_per_crew_per_action():
    """003_52d4831de0a47706.txt: 'no more than one reaction may be triggered by each crew in response to any single action'."""
    assert moxie.reaction_allowed([], "B")
    assert not moxie.reaction_allowed(["B"], "B")
    assert moxie.reaction_allowed(["B"], "C")


# --- Dread, Panic, Rally -------------------------------------------------------------------

def test_dread_accumulation():
    """003_52d4831de0a47706.txt: 'Add 1' / 'For each of its downed models, add 1' / 'For each of those casualties that was a hero, add 1 more'."""
    assert panic.dread_gain(0, 0, 0) == 1
    assert panic.dread_gain(2, 3, 1) == 1 + 2 + 3 + 1
    with pytest.raises(ValueError):
        panic.dread_gain(0, 1, 2)


def test_panic_test_when_dread_exceeds_models():
    """003_52d4831de0a47706.txt: 'If a crew's dread level is greater than the number of its models remaining on the table'."""
    assert not panic.panic_test_required(5, 5)
    assert panic.panic_test_required(6, 5)
    assert panic.panic_test(forced(3, 6), 2).failed        # Panicked
    assert panic.panic_test(forced(3, 7), 2).success


def test_reduce_dread_needs_leader():
    """003_52d4831de0a47706.txt: 'If a crew's leader is on the table and not down, it may spend moxie to immediately reduce its dread'."""
    assert panic.reduce_dread(5, 2, leader_on_table_not_down=True) == 3
    assert panic.reduce_dread(1, 3, leader_on_table_not_down=True) == 0
    with pytest.raises(ValueError):
        panic.reduce_dread(5, 1, leader_on_table_not_down=False)


def test_rally_outcomes():
    """003_52d4831de0a47706.txt: 'If they succeed with a result of 2 or more, they lose the Panic Condition. If the result is 1, they remain Panicked'."""
    r = panic.rally(forced(8, 7, 1), 3)
    assert r.clears_panic and r.may_continue and not r.must_flee
    r = panic.rally(forced(8, 2, 1), 3)
    assert not r.clears_panic and r.may_continue
    r = panic.rally(forced(1, 2, 3), 3)
    assert r.must_flee and not r.may_continue


# --- conditions and actions ------------------------------------------------------------------

def test_stunned_definition():
    """003_52d4831de0a47706.txt: 'a model that triggers a reaction becomes stunned after it's resolved' (Stunned defined by the project)."""
    assert not conditions.can_react({"stunned"})[0]
    assert conditions.can_react(set())[0]
    assert not conditions.can_react({"down"})[0] and not conditions.can_react({"pinned"})[0]
    assert conditions.free_actions({"stunned"}) == 2
    assert conditions.free_actions({"stunned"}, CounterblastOptions(stunned_free_actions=1)) == 1
    assert conditions.upkeep({"stunned", "marked", "spent", "prone", "panic"}) == {"prone", "panic"}
    assert conditions.recover({"stunned", "pinned"}, knack_successes=0) == {"pinned"}
    assert conditions.recover({"pinned"}, knack_successes=1) == set()


def test_blind_and_half_blind():
    """003_52d4831de0a47706.txt: 'reduce their Grit to 1d, and reduce their move attribute to 2' /
    'Half-blind models reduce their zap and grit to 1d if it's not already lower'."""
    assert conditions.zap_auto_zero({"blind"})
    assert conditions.effective_grit(4, {"blind"}) == 1
    assert conditions.effective_move(5, {"blind"}) == 2
    assert conditions.effective_zap(4, {"half_blind"}) == 1 and conditions.effective_grit(0, {"half_blind"}) == 0
    assert conditions.gain({"prone"}, "prone") == {"prone"}


def test_which_actions_spend():
    """003_52d4831de0a47706.txt: '* This action does not cause a model to be spent' / 'Reactions do not cause a model to become spent'."""
    free = {a for a in actions.ACTIONS if not actions.spends_model(a)}
    assert {"move", "aim", "boost", "aim_assist", "dog_pile", "do_nothing"} <= free
    assert all(not actions.spends_model(a.id) for a in actions.ACTIONS.values() if a.category == "reaction")
    assert {"rush", "jump", "shoot", "strike", "throw", "engineer", "treat", "hack", "recover", "rally"}.isdisjoint(free)
    assert not actions.spends_model("rally", CounterblastOptions(rally_spends=False))


def test_multitasking():
    """003_52d4831de0a47706.txt: 'a model may not use the same action twice during a single activation'."""
    assert actions.multitasking_allows("shoot", ["move", "aim"])
    assert not actions.multitasking_allows("move", ["move"])
    assert actions.multitasking_allows("do_nothing", ["do_nothing"])


def test_reaction_triggers():
    assert set(actions.reactions_for("targeted_by_shoot")) == {"action_roll", "return_fire"}
    assert set(actions.reactions_for("targeted_by_strike")) == {"counterstrike", "parry"}
    assert actions.reactions_for("maneuver_completed") == ["snapshot"]
    assert actions.reactions_for("disengaged_from") == ["pursuit"]


def test_engaged_restrictions():
    """003_52d4831de0a47706.txt: 'A model may not Aim-assist, boost, use any skill actions or attack with shooting weapons while engaged' /
    'models may use pistols to make snapshots when engaged'."""
    assert not actions.engaged_allows("shoot") and not actions.engaged_allows("treat")
    assert actions.engaged_allows("strike")
    assert actions.engaged_allows("snapshot", pistol=True) and not actions.engaged_allows("snapshot")
    assert not actions.shoot_target_allowed(True) and actions.shoot_target_allowed(True, snapshot=True)


# --- scoring -------------------------------------------------------------------------------

def test_battle_score_thresholds():
    """003_52d4831de0a47706.txt: 'Greater than 75% remaining = 6 points' / '50% to 75% remaining = 3 points' / 'less than 50% = 1 point'."""
    assert scoring.battle_score(376) == 6
    assert scoring.battle_score(375) == 3
    assert scoring.battle_score(250) == 3
    assert scoring.battle_score(249) == 1
    assert scoring.battle_score(300, basis=400) == 3


def test_points_remaining_excludes_down_panicked_and_gone():
    models = [scoring.ModelStanding(100), scoring.ModelStanding(90, down=True),
              scoring.ModelStanding(80, panicked=True), scoring.ModelStanding(70, on_table=False)]
    assert scoring.points_remaining(models) == 100


def test_objective_scores_with_denial():
    """003_52d4831de0a47706.txt: 'from completing its own mission objectives and preventing its opponents from completing their objectives'."""
    hh = shipped_missions()["headhunters"]
    s = scoring.objective_scores(hh, {"A": {"take-the-head": 1, "hold-the-line": 6}, "B": {"hold-the-line": 2}})
    assert s == {"A": 3 + 1 + 4, "B": 0 + 0 + 2}
    assert scoring.marker_controller({"A": 2, "B": 1}) == "A"
    assert scoring.marker_controller({"A": 1, "B": 1}) is None
    assert scoring.marker_controller({"A": 0}) is None


def test_mission_score_and_degrees():
    """003_52d4831de0a47706.txt: '6+ = Heroic Victory' / '4-5 = Major Victory' / '3 or less points = Minor Victory'."""
    assert scoring.mission_score(4, 6) == 10
    assert scoring.degree_of_victory({"A": 12, "B": 6}).degree == "heroic"
    assert scoring.degree_of_victory({"A": 5, "B": 10}) == scoring.Verdict("B", 5, "major")
    assert scoring.degree_of_victory({"A": 7, "B": 4}).degree == "minor"
    assert scoring.degree_of_victory({"A": 7, "B": 7}) == scoring.Verdict(None, 0, "draw")


def test_game_over():
    """003_52d4831de0a47706.txt: 'Each battle lasts for six turns or until only one crew has models remaining'."""
    assert scoring.game_over(6, 2) and scoring.game_over(3, 1) and not scoring.game_over(5, 2)
