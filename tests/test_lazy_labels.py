"""Option labels worded when first read (``engine/core/labels.py``, issue 28's third pass): the
same words as the decision-time state gives, whenever they are read, and none worded for a
simulation that never reads them."""
import copy
import pickle
import random

import pytest
from ai_fixtures import HOME  # each ruleset's home map, from the engine

from engine.ai import make_agent
from engine.core import Game, Setup
from engine.core.labels import Labels, LabelsGone
from engine.data.maps import load_map
from engine.paths import resolve_map
from engine.simulate import game_seed, play


def _game(ruleset, seed=3):
    return Game(Setup(ruleset, load_map(resolve_map(HOME[ruleset])), (), {}, seed))


def _answer(d, rng):
    return make_agent("random", d.player, rng.getrandbits(32)).choose(d, None)


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_labels_read_after_the_game_moved_on_are_the_decision_time_words(ruleset):
    """At each decision the words are worked out eagerly on a copy of the state (what the engine
    did before); the lazy labels, read only after the answer was applied (and after a clone
    played on from the same decision), must equal them. Made to word from the live state (no
    settling in ``submit``), this fails: a move's distance, a charge's contact change."""
    g = _game(ruleset)
    rng = random.Random(1)
    kept, changed = [], 0
    for _ in range(120):
        d = g.pending()
        if d is None:
            break
        assert isinstance(d.labels, Labels)
        snap = copy.deepcopy(g.state)
        want = tuple(g.rules.describe_choice(snap, o) for o in d.options)
        c = g.clone()                      # shares the decision; plays on its own copy
        c.submit(d.player, _answer(d, random.Random(rng.random())))
        choice = _answer(d, rng)
        g.submit(d.player, choice)
        after = tuple(g.rules.describe_choice(g.state, o) for o in d.options if _wordable(g, o))
        changed += after != tuple(w for w, o in zip(want, d.options) if _wordable(g, o))
        kept.append((d, want))
    assert len(kept) > 50
    if ruleset == "frontier":               # its moves' and charges' words depend on the state
        assert changed > 0
    for d, want in kept:
        assert tuple(d.labels) == want and d.labels == want and list(d.labels[:3]) == list(want[:3])


def _wordable(g, o):
    try:
        g.rules.describe_choice(g.state, o)
        return True
    except Exception:
        return False


def test_a_game_that_keeps_no_labels_refuses_to_word_them_late():
    g = _game("doubles")
    g.keep_labels = False
    d = g.pending()
    first = d.labels[0]                    # read while pending: worded
    g.submit(d.player, _answer(d, random.Random(2)))
    assert d.labels[0] == first
    if len(d.options) > 1:
        with pytest.raises(LabelsGone):
            d.labels[1]


def test_labels_compare_hash_copy_and_pickle_as_their_words():
    g = _game("frontier")
    d = g.pending()
    words = tuple(g.rules.describe_choice(g.state, o) for o in d.options)
    assert d.labels == words and hash(d.labels) == hash(words) and len(d.labels) == len(words)
    assert copy.deepcopy(d).labels == words and pickle.loads(pickle.dumps(d.labels)) == words


@pytest.mark.parametrize("ruleset", sorted(HOME))
def test_a_random_simulation_words_no_label(ruleset, monkeypatch):
    """``play`` keeps no labels and the random agent reads none: every decision's labels are
    let go unworded (the rules may still word a choice for their log)."""
    g = _game(ruleset, seed=game_seed(1, 0))
    worded, settled = [], []
    real = Labels.settle

    def spy(self, keep):
        settled.append(keep)
        worded.append(sum(w is not None for w in self._words))
        return real(self, keep)
    monkeypatch.setattr(Labels, "settle", spy)
    agents = {p: make_agent("random", p, p) for p in (1, 2)}
    n = play(g, agents).decisions
    assert n > 50 and len(settled) == n and not any(settled) and sum(worded) == 0
    assert g.keep_labels is True          # put back afterwards
