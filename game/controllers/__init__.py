"""Controllers turn input (or an agent) into answers to the pending Decision, and nothing else."""
from .ai import AIWorker
from .generic import GenericController, Outcome, Preview, involved

__all__ = ["AIWorker", "GenericController", "Outcome", "Preview", "involved"]
