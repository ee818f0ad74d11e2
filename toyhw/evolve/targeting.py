"""Old path of toyhw.evolve.experiments.targeting, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.evolve.experiments import targeting as _module

sys.modules[__name__] = _module
