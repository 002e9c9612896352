"""Count shots and the wounds they did, per posse and weapon, in saved Frontier games.

    skirmish simulate --ruleset frontier --map field --rosters outlawmen,sheriffs --games 20 \
        --seed 77 --p1 easy --p2 easy --save-dir DIR
    python data/experiments/balance/frontier-screens/round5/shots.py DIR

Reads each save's event log (the words the game shows a player); a shot is the "X shoots Y with
the W" line and the "X vs Y: shot: ... = N wound(s)" line that follows it when it is resolved.
"""
import collections
import re
import sys
from pathlib import Path

from engine.core.saves import load_game

SHOOTS = re.compile(r"^(?P<posse>.+)'s (?P<model>[^']+?) shoots .+ with the (?P<weapon>\w+)$")
RESULT = re.compile(r"^.+? vs .+?: shot: .*= (?P<wounds>\d+) wound")

shots, wounds, outs = collections.Counter(), collections.Counter(), collections.Counter()
games = sorted(Path(sys.argv[1]).glob("*.json"))
for path in games:
    last = None
    for event in load_game(path).log:
        m = SHOOTS.match(event.text)
        if m:
            last = (m["posse"], m["weapon"])
            shots[last] += 1
            continue
        r = RESULT.match(event.text)
        if r and last:
            wounds[last] += int(r["wounds"])
            last = None
print(f"{len(games)} games")
for key in sorted(shots):
    print(f"{key[0]:<24} {key[1]:<10} shots {shots[key]:>4}  wounds {wounds[key]:>4}")
