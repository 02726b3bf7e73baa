"""``python -m thirtyone`` runs the ``thirtyone`` command."""

import sys

from thirtyone.cli import main

sys.exit(main())
