"""One module per command of `python -m toyhw` (see toyhw.cli for the protocol)."""
