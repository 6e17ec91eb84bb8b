"""python -m simdom.results [--docs [PAGE]]: print the schema tables, or write them into the docs page that
shows them (default docs/results.md, between its schema markers)."""
import sys
from pathlib import Path

from .tables import SCHEMA_PAGE, schema_tables, update_schema_page

USAGE = "usage: python -m simdom.results [--docs [PAGE]] (PAGE: a Markdown file with the schema markers, default docs/results.md)"

args = sys.argv[1:]
if not args:
    print(schema_tables())
elif args[0] == "--docs" and len(args) <= 2:
    page = Path(args[1]) if len(args) == 2 else SCHEMA_PAGE
    try:
        print("updated" if update_schema_page(page) else "up to date")
    except (OSError, ValueError) as e:
        print(f"python -m simdom.results: {e}", file=sys.stderr)
        sys.exit(2)
else:
    print(f"python -m simdom.results: bad arguments {' '.join(args)!r}; {USAGE}", file=sys.stderr)
    sys.exit(2)
