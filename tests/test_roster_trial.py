"""bench/roster_trial.py refuses a roster it cannot play before any game starts: exit 2 and the
rules' reason with the roster named, never a worker's traceback (a designer's bad file must not
crash the tool)."""
import json

from script_modules import ROOT, load_script

CREWS = ROOT / "engine" / "rulesets" / "counterblast" / "data" / "crews"


def trial():
    return load_script("roster_trial", "bench/roster_trial.py")


def test_a_crew_the_rules_refuse_exits_2_naming_it_and_the_reason(tmp_path, capsys):
    crew = json.loads((CREWS / "dustjaw_raiders.json").read_text())
    slink = next(m for m in crew["models"] if m["id"] == "slink")
    slink["profile"]["special"] = ["steady-aim"]  # a hero: only characters have special abilities
    f = tmp_path / "sniper_slink.json"
    f.write_text(json.dumps(crew))
    rc = trial().main(["--ruleset", "counterblast", "--candidate", str(f), "--against", "iron-choir",
                       "--maps", "outpost", "--blocks", "1", "--workers", "1"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "sniper_slink v iron-choir on outpost" in err and "only characters have special abilities" in err


def test_a_file_that_is_not_json_exits_2(tmp_path, capsys):
    f = tmp_path / "broken.json"
    f.write_text('{"id": "broken", ')
    rc = trial().main(["--ruleset", "counterblast", "--candidate", str(f), "--against", "iron-choir",
                       "--maps", "outpost", "--blocks", "1", "--workers", "1"])
    assert rc == 2 and "broken.json" in capsys.readouterr().err
