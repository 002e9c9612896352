"""What every ruleset's list of missions must say (test_doubles_missions, test_frontier_missions)."""
from engine.core import MissionInfo


def check_missions_listed(rules, ids, doc, min_markers):
    """``rules.missions()`` lists ``ids`` in that order, each one of this project's own, with its
    summary and ``doc`` (the rules file's Missions section), needing ``min_markers`` markers each."""
    ms = rules.missions()
    assert list(ms) == list(ids)
    for mid, info in ms.items():
        assert isinstance(info, MissionInfo) and info.id == mid and info.ours
        assert info.doc == doc and info.summary
    assert [ms[k].min_markers for k in ms] == list(min_markers)
