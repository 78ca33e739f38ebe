"""``python -m brisca`` runs the ``brisca`` command."""

import sys

from brisca.cli import main

sys.exit(main())
