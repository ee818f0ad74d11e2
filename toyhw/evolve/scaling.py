"""Old path of toyhw.course.scaling, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.course import scaling as _module

sys.modules[__name__] = _module
