"""Old path of toyhw.evolve.experiments.branch_check, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.evolve.experiments import branch_check as _module

sys.modules[__name__] = _module
