"""bench/lib - the harness's library (bench/README.md): constants, /proc readers, runs, per-run
figures, the table. Its modules import tests/lib's readers (jsfiles), shared with the integration
tests, so the package puts that folder on the path."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests',
                                'lib'))
