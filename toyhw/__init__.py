"""toyhw: the course pack's simulations. `toyhw.set_language("zh")` shows the package's own text in Chinese."""

from toyhw.i18n import language, set_language

__all__ = ["language", "set_language"]
