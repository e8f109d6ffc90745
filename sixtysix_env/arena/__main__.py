"""``python -m sixtysix_env.arena``."""

from .cli import main

raise SystemExit(main())
