"""The deployment phase every ruleset shares (ours: no seed says how models are deployed;
docs/rules/deployment.md): the choices and their space (``choices``), the zones and each side's
frame (``zones``), the fair automatic placement's search (``auto``), the options (``options``)
and the phase as decisions (``flow``)."""
from .choices import DeployRest, PlaceModel, PlaceSpace
from .flow import Deployable, DeploymentMixin, placement_queue, roll_off
from .options import MODES, DeploymentOptions

__all__ = ["DeployRest", "Deployable", "DeploymentMixin", "DeploymentOptions", "MODES", "PlaceModel", "roll_off",
           "PlaceSpace", "placement_queue"]
