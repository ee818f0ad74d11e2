"""Old path of toyhw.evolve.bridge.prompt, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.evolve.bridge import prompt as _module

sys.modules[__name__] = _module
