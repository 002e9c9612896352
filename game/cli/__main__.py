"""``python -m game.cli``: the ``skirmish`` command (the editor's workers and the tests run it so)."""
import sys

from game.cli import main

sys.exit(main())
