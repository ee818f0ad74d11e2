"""Old path of toyhw.course.kernel_tables, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.course import kernel_tables as _module

sys.modules[__name__] = _module
