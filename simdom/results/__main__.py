"""python -m simdom.results [--readme README.md]: print the schema tables, or write them into the README."""
import sys
from pathlib import Path

from .tables import readme_schema, update_readme

if sys.argv[1:2] == ["--readme"]:
    print("updated" if update_readme(Path(sys.argv[2] if len(sys.argv) > 2 else "README.md")) else "up to date")
else:
    print(readme_schema())
