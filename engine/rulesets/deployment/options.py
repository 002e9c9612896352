"""The deployment's house rules, a part of every ruleset's options (none of the seeds says how
models are deployed: these are ours, docs/rules/deployment.md)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

MODES = ("alternate", "groups", "hidden", "automatic")


class DeploymentOptions(BaseModel):
    # strict types, as every ruleset's options that take these fields in (engine/data/strict.py)
    model_config = ConfigDict(strict=True)

    deployment: Literal["alternate", "groups", "hidden", "automatic"] = Field(
        default="alternate",
        description="how the forces take the table (ours; docs/rules/deployment.md): 'alternate' one "
                    "model at a time, 'groups' deployment_group models at a time, 'hidden' each side "
                    "places all its models unseen and both are revealed together, 'automatic' the "
                    "engine places both forces, each the image of the other on a symmetric table")
    deployment_group: int = Field(
        default=2, ge=1, le=50,
        description="models a side places in one go when deployment is 'groups'")
