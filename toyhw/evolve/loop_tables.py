"""Old path of toyhw.course.loop_tables, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.course import loop_tables as _module

sys.modules[__name__] = _module
