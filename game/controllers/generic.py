"""The generic controller: answers any pending Decision of any ruleset from clicks and keys.

It turns input into choices and nothing else; what is legal is the Decision's (its options
and its spaces' ``check``), never re-derived here. No pygame: the scene feeds it model ids,
table points (mm) and option indices, and submits what it returns.

- Enumerated options are listed (labels from the engine) and picked by index or hotkey 1-9.
- An option names models through its fields (``model``, ``target``, ``shooter`` ...): clicking
  a model selects it and narrows the list to its options; when it has exactly one option and no
  table answer, a second click on it picks it (a first click never spends anything). Options
  that name no model (end the activation, pass) are kept apart (``general``), always in view.
  With a model selected, clicking an enemy picks the attack on it (or narrows the list when
  several weapons could).
- Spaces (a point on the table) are answered by clicking there: the space offers the choice for
  that point (``ChoiceSpace.at_point``) and the space's own ``check`` decides.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from engine.core import Choice, ChoiceSpace, Decision
from engine.rulesets.common import MoveSpace


def involved(choice: Choice, ids) -> list[str]:
    """The model ids an option names, in field order (the first is the one who acts)."""
    out: list[str] = []
    for f in dataclasses.fields(choice):
        v = getattr(choice, f.name)
        for x in (v if isinstance(v, tuple) else (v,)):
            if isinstance(x, str) and x in ids and x not in out:
                out.append(x)
    return out


@dataclass
class Outcome:
    """What a click or key led to: a choice to submit, a refusal to show, or neither."""
    choice: Choice | None = None
    refusal: str | None = None
    selected: str | None = None


@dataclass
class Preview:
    """The live answer under the mouse: legal or not (with the engine's reason), and for a move
    the route the engine would take and what it costs (mm)."""
    legal: bool
    reason: str | None = None
    path: list = field(default_factory=list)
    cost: float | None = None
    allowance: float | None = None
    choice: Choice | None = None        # the answer a click there gives
    flight: object | None = None        # a heading's straight flight (``ChoiceSpace.flight``)


class GenericController:
    def __init__(self, decision: Decision, pieces: list[dict]):
        self.decision = decision
        self.pieces = {p["id"]: p for p in pieces}
        ids = set(self.pieces)
        self.ids_of = [involved(o, ids) for o in decision.options]
        self.selected: str | None = None
        self.group: list[str] = []         # models Shift+clicked into the selected leader's group
        self._groups: list[bool] | None = None
        self.prone = False                 # moves end Prone (where the ruleset offers it)
        self._preview_key: tuple | None = None
        self._preview: Preview | None = None

    # --- what may be picked -------------------------------------------------------------
    def actors(self) -> set[str]:
        """Models that have an option or a table answer of their own in this decision."""
        out = {ids[0] for ids in self.ids_of if ids}
        out |= {s.actor for s in self.decision.spaces if s.actor is not None}
        return out

    def ordered_actors(self) -> list[str]:
        """``actors()`` in the engine's order: as its options, then its spaces, name them."""
        out = [ids[0] for ids in self.ids_of if ids]
        out += [s.actor for s in self.decision.spaces if s.actor is not None]
        return list(dict.fromkeys(out))

    def next_member(self, before: frozenset, last: str | None) -> str | None:
        """The model to select when a step several models take in turn goes on (a Counterblast
        group's Move: each member moves, one decision each). ``before`` are the actors of this
        player's previous decision and ``last`` the model selected in it: when ``last`` has taken
        its part and those left were all offered before with it, the first of them in the
        engine's order, so that a click on the table answers for it. None otherwise (a new turn
        or activation starts with nobody selected)."""
        now = self.actors()
        if last is None or last in now or last not in before or not now or not now < before:
            return None
        return self.ordered_actors()[0]

    def spaces_for(self, model: str | None) -> list[ChoiceSpace]:
        # a space that answers a point overrides at_point (typeshed's bound method has no __func__)
        sp = [s for s in self.decision.spaces if s.at_point.__func__ is not ChoiceSpace.at_point]  # type: ignore[attr-defined]
        if model is None:
            actors = {s.actor for s in sp}
            return sp if len(actors) <= 1 else []   # no model picked: only a space with one actor
        return [s for s in sp if s.actor == model]

    def labels(self) -> list[str]:
        return list(self.decision.labels or [o.describe() for o in self.decision.options])

    def general(self) -> list[tuple[int, str]]:
        """(option index, label) of the options that name no model (end the activation, pass the
        turn, no reaction) when the decision also has options of models: they stay in view
        whichever model is selected, apart from the list. Empty when no option names a model."""
        if not any(self.ids_of):
            return []
        return [(i, t) for i, t in enumerate(self.labels()) if not self.ids_of[i]]

    def is_group(self, i: int) -> bool:
        """An option naming two or more of the deciding player's own models in one tuple field
        (a Counterblast group activation): formed by clicking its models, not read from a list."""
        if self._groups is None:
            own = {m for m, p in self.pieces.items() if p.get("player") == self.decision.player}

            def group(o) -> bool:
                return any(isinstance(v, tuple) and len(v) >= 2 and all(isinstance(x, str) and x in own for x in v)
                           for v in (getattr(o, f.name) for f in dataclasses.fields(o)))
            self._groups = [group(o) for o in self.decision.options]
        return self._groups[i]

    def shortcut(self, i: int) -> bool:
        """An option that is also a point of a table space other than a move (a Jump's compass
        headings): the table answers it too, so the list shows it after the others."""
        o = self.decision.options[i]
        return any(not isinstance(s, MoveSpace) and type(o) is getattr(s, "choice_type", None)
                   and s.at_point.__func__ is not ChoiceSpace.at_point  # type: ignore[attr-defined]
                   for s in self.decision.spaces)

    def flight_of(self, i: int):
        """The straight flight option ``i`` starts (a compass heading), from the space that
        also takes it, or None."""
        if not 0 <= i < len(self.decision.options):
            return None
        o = self.decision.options[i]
        for s in self.decision.spaces:
            if type(o) is getattr(s, "choice_type", None):
                f = s.flight(o)
                if f is not None:
                    return f
        return None

    def groups_of(self, leader: str | None) -> list[int]:
        return [i for i, ids in enumerate(self.ids_of) if ids and ids[0] == leader and self.is_group(i)]

    def group_option(self) -> int | None:
        """The group option made of the selected model and the models added to it, if any."""
        if not self.group:
            return None
        want = {self.selected, *self.group}
        for i in self.groups_of(self.selected):
            if set(self.ids_of[i]) == want:
                return i
        return None

    def items(self) -> list[tuple[int, str]]:
        """(option index, label) of the options listed now: the selected model's, or all, less
        the ``general`` ones shown apart and group options (formed by Shift+clicking the models;
        the one formed is listed first); the table's shortcuts (a Jump's compass headings) come
        last, so that keys 1-9 keep the other actions."""
        apart = {i for i, _ in self.general()}
        labels = self.labels()
        formed = self.group_option()
        all_items = [(i, t) for i, t in enumerate(labels) if i not in apart and not self.is_group(i)]
        all_items.sort(key=lambda it: self.shortcut(it[0]))     # stable: the engine's order otherwise
        if self.selected is None:
            return all_items or [(i, t) for i, t in enumerate(labels) if i not in apart]
        mine = [(i, t) for i, t in all_items if self.selected in self.ids_of[i]]
        if formed is not None:
            mine = [(formed, labels[formed])] + mine
        return mine or all_items

    def group_with(self, members: list[str]) -> Choice | None:
        """The group option's shape with ``members`` in its group field (the selected leader
        first): the answer a player forming that group would give, to ask the engine about."""
        opts = self.groups_of(self.selected)
        if not opts:
            return None
        o = self.decision.options[opts[0]]
        for f in dataclasses.fields(o):
            if isinstance(getattr(o, f.name), tuple) and set(getattr(o, f.name)) <= set(self.ids_of[opts[0]]):
                return dataclasses.replace(o, **{f.name: (self.selected, *members)})
        return None

    def add_to_group(self, mid: str, why_not=None) -> Outcome:
        """Shift+click on a friend with a leader selected: in or out of the group being formed.
        ``why_not(choice)`` asks the engine why it refuses a group (its reason, or None)."""
        if self.selected is None or not self.groups_of(self.selected):
            return Outcome(refusal="select the group's leader first, then Shift+click the others")
        if mid == self.selected:
            return Outcome(selected=self.selected)

        def refused(what: str, members: list[str]) -> Outcome:
            c = self.group_with(members)
            why = why_not(c) if why_not is not None and c is not None else None
            return Outcome(refusal=f"{what}: {why}" if why else what, selected=self.selected)

        if mid in self.group:
            self.group.remove(mid)
        elif any(mid in self.ids_of[i] for i in self.groups_of(self.selected)):
            self.group.append(mid)
        else:
            return refused(f"{self.pieces[mid]['name']} cannot join this group", [*self.group, mid])
        if self.group and self.group_option() is None and \
                not any(set(self.group) <= set(self.ids_of[i]) for i in self.groups_of(self.selected)):
            tried = list(self.group)
            self.group.remove(mid)
            return refused("no group the rules allow has these models", tried)
        return Outcome(selected=self.selected)

    def hotkey(self, n: int) -> Outcome:
        """Key 1-9: the n-th listed option."""
        items = self.items()
        if 1 <= n <= min(9, len(items)):
            return Outcome(choice=self.decision.options[items[n - 1][0]])
        return Outcome()

    def pick(self, index: int) -> Outcome:
        if 0 <= index < len(self.decision.options):
            return Outcome(choice=self.decision.options[index])
        return Outcome(refusal="no such option")

    # --- clicks -------------------------------------------------------------------------
    def click_model(self, mid: str) -> Outcome:
        sel = self.selected
        own = [i for i, ids in enumerate(self.ids_of) if ids and ids[0] == mid and not self.is_group(i)]
        if sel is not None and mid != sel and not own and not self.spaces_for(mid):
            # an option of the selected model that names the clicked one (a target); a model
            # that may act itself is selected instead (a friend, not a target)
            aimed = [i for i, ids in enumerate(self.ids_of) if ids and ids[0] == sel and mid in ids[1:]]
            if len(aimed) == 1:
                return Outcome(choice=self.decision.options[aimed[0]])
            if aimed:
                return Outcome(selected=sel)  # several (weapons): the list shows them
        if own or self.spaces_for(mid) or self.groups_of(mid):
            again = sel == mid
            if not again:
                self.group = []
            self.selected = mid
            self._preview_key = None
            # a model whose one option only names it (activate it, elect it): the first click
            # selects it and lists the option with its cost; a second click on it means it
            if again and len(own) == 1 and not self.spaces_for(mid) and self._single_model_option(own[0]):
                return Outcome(choice=self.decision.options[own[0]], selected=mid)
            return Outcome(selected=mid)
        return Outcome(refusal=f"{self.pieces[mid]['name']} has nothing to do in this decision"
                       if mid in self.pieces else None, selected=self.selected)

    def _single_model_option(self, i: int) -> bool:
        """An option that only names its model (activate X, elect X): a click on X means it."""
        return len(self.ids_of[i]) == 1

    def deselect(self) -> None:
        self.selected = None
        self.group = []
        self._preview_key = None

    def table_spaces(self, alternate: bool = False) -> list[ChoiceSpace]:
        """The spaces a plain click answers (a move, when the model may move) and those a
        Shift+click answers (anything else pointed at the table: a throw at the ground)."""
        spaces = self.spaces_for(self.selected)
        moves: list[ChoiceSpace] = [s for s in spaces if isinstance(s, MoveSpace)]
        others = [s for s in spaces if not isinstance(s, MoveSpace)]
        if alternate:
            return others
        # a ruleset may offer the same move ending another way (Counterblast: Prone), answered
        # while the client's toggle is on (``prone``); without such a space the plain move stays
        toggled = [s for s in moves if getattr(s, "prone_toggle", False) == self.prone]
        moves = toggled or [s for s in moves if not getattr(s, "prone_toggle", False)]
        return moves or others

    def prone_offered(self) -> bool:
        """Does the selected model's move have a way to end Prone (the P toggle applies)?"""
        return any(getattr(s, "prone_toggle", False) for s in self.spaces_for(self.selected))

    def click_table(self, x: float, y: float, alternate: bool = False) -> Outcome:
        """A click on the table (mm): the first of the selected model's spaces that accepts the
        point, or the reason the point is refused."""
        spaces = self.table_spaces(alternate)
        if not spaces:
            return Outcome()
        reasons = []
        for s in spaces:
            for c in s.at_point(x, y):
                reason = s.check(c)
                if reason is None:
                    return Outcome(choice=c)
                reasons.append(reason)
        return Outcome(refusal=reasons[0] if reasons else "nothing can be done there")

    def preview(self, x: float, y: float, grid_mm: float = 2.0, alternate: bool = False) -> Preview | None:
        """Legality of the point under the mouse and, for a move, the route (cached per 2 mm)."""
        spaces = self.table_spaces(alternate)
        if not spaces:
            return None
        key = (round(x / grid_mm), round(y / grid_mm), self.selected, alternate, self.prone)
        if key == self._preview_key:
            return self._preview
        self._preview_key = key
        first: Preview | None = None
        for s in spaces:
            for c in s.at_point(x, y):
                reason = s.check(c)
                pv = Preview(reason is None, reason, choice=c, flight=s.flight(c))
                if isinstance(s, MoveSpace):
                    pv.allowance = s.allowance
                    route = s.route(c) if reason is None else None  # type: ignore[arg-type]  # a move space's points are MoveTo
                    if route is not None:      # the engine's own route to the point a click gives
                        pv.path, pv.cost = route
                if reason is None:
                    self._preview = pv
                    return pv
                first = first or pv
        self._preview = first
        return first
