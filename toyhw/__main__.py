"""`python -m toyhw <command>`: see toyhw.cli."""

from toyhw.cli import main

raise SystemExit(main())
