"""The game's one source of chance.

Every die, shuffle and draw in the engine comes from the ``GameRng`` held in the game state,
so the same seed and the same decisions always give the same game. Tests may queue forced
results (``force``) to script a scenario; forced values are consumed before the generator.
"""
from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class ForcedValueError(ValueError):
    pass


class GameRng:
    __slots__ = ("_r", "_forced", "_draws")

    def __init__(self, seed: int | str = 0):
        self._r = random.Random(seed)
        self._forced: deque[int] = deque()
        self._draws = 0  # values taken (forced or drawn): what ``marker`` compares

    # --- dice -----------------------------------------------------------------
    def d(self, sides: int) -> int:
        """One die of ``sides`` faces: 1..sides."""
        self._draws += 1
        if self._forced:
            v = self._forced.popleft()
            if not 1 <= v <= sides:
                raise ForcedValueError(f"forced die {v} does not fit a d{sides}")
            return v
        return self._r.randint(1, sides)

    def roll(self, n: int, sides: int) -> list[int]:
        return [self.d(sides) for _ in range(n)]

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (used for draws and picks; forced values count from 1)."""
        if self._forced:
            return self.d(n) - 1
        self._draws += 1
        return self._r.randrange(n)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates through ``below`` so a test can stack a shuffle too."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    # --- scripting (tests) ----------------------------------------------------
    def force(self, *values: int) -> None:
        """Queue results that the next dice (or picks, counted from 1) will show."""
        self._forced.extend(values)

    @property
    def forced_left(self) -> int:
        return len(self._forced)

    # --- state ----------------------------------------------------------------
    def marker(self) -> tuple:
        """Compares equal before and after a step exactly when the step drew nothing. Every
        value comes through ``d`` or ``below``, which count it: no copy of the generator's
        624-word state per step (``fingerprint`` still reads the state itself)."""
        return (id(self), self._draws)

    def fingerprint(self) -> str:
        st = self._r.getstate()
        h = hashlib.blake2b(repr((st, tuple(self._forced))).encode(), digest_size=8)
        return h.hexdigest()

    def __deepcopy__(self, memo) -> GameRng:
        c = GameRng.__new__(GameRng)
        c._r = random.Random()
        c._r.setstate(self._r.getstate())
        c._forced = deque(self._forced)
        c._draws = self._draws
        return c
