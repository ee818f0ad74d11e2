"""Old path of toyhw.course.proposal_trace, kept for notebooks and scripts: this name is that module."""

import sys

from toyhw.course import proposal_trace as _module

sys.modules[__name__] = _module
