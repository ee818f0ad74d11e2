"""Old path of toyhw.evolve.experiments.sweep, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.evolve.experiments import sweep as _module

sys.modules[__name__] = _module
