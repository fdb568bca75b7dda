"""``python -m ruleproof.cli``: the ``ruleproof`` command."""

import sys

from ruleproof.cli.commands import main

sys.exit(main())
