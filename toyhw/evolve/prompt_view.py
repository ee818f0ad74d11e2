"""Old path of toyhw.course.prompt_view, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.course import prompt_view as _module

sys.modules[__name__] = _module
