"""Old path of toyhw.evolve.bridge.chat, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.evolve.bridge import chat as _module

sys.modules[__name__] = _module
