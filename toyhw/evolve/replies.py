"""Old path of toyhw.evolve.bridge.replies, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.evolve.bridge import replies as _module

sys.modules[__name__] = _module
