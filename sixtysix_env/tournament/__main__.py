"""``python -m sixtysix_env.tournament``."""

from .cli import main

raise SystemExit(main())
