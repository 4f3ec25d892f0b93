# ctrs test data written for this repo: puts host_patterns.py (one directory up) on sys.path.
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
