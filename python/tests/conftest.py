# SPDX-License-Identifier: GPL-3.0-or-later
"""pytest configuration: the package from this source tree, the CLI named by ATTNRANK_BIN
(default: the repository's bin/attnrank)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
REPO = os.path.dirname(os.path.dirname(HERE))
os.environ.setdefault("ATTNRANK_BIN", os.path.join(REPO, "bin", "attnrank"))
