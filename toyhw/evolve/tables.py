"""Old path of toyhw.course.evolve_tables, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.course import evolve_tables as _module

sys.modules[__name__] = _module
