"""Make `import compare` work from any directory (pytest's importlib mode does not add this folder)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
