"""Output options of the statistics commands: the format (people: table, md; machines: json, csv,
parquet) and the no-silent-overwrite rule. The rendering itself is simdom.present."""
from __future__ import annotations

from pathlib import Path

from simdom.present import FORMATS
from simdom.safeio import replaces
from simdom.stats.tables.stats import InputError

_SUFFIX = {".csv": "csv", ".json": "json", ".md": "md", ".txt": "table", ".parquet": "parquet"}
__all__ = ["FORMATS", "resolve_format", "check_writable"]


def resolve_format(fmt: str | None, out: str | Path | None) -> str:
    """The output format: ``fmt`` if given, else from the -o suffix, else ``table``."""
    if fmt is None:
        suffix = Path(out).suffix.lower() if out else ""
        if out and suffix not in _SUFFIX:
            raise InputError(f"-o {out}: the suffix {suffix or '(none)'} names no format; allowed: "
                             f"{', '.join(_SUFFIX)}, or --format {'|'.join(FORMATS)}")
        return _SUFFIX.get(suffix, "table")
    fmt = fmt.lower()
    if fmt not in FORMATS:
        raise InputError(f"bad --format {fmt!r}; allowed: {', '.join(FORMATS)}")
    if fmt == "parquet" and out is None:
        raise InputError("--format parquet writes a file: add -o FILE.parquet")
    return fmt


def check_writable(out: str | Path | None, force: bool) -> None:
    """Refuse to overwrite an existing file unless ``force``."""
    if out is not None and Path(out).is_dir():
        raise InputError(f"{out} is a folder; allowed: a file name for -o")
    if out is not None and replaces(out) and not force:
        raise InputError(f"{out} already exists; pass --overwrite to replace it or choose another -o FILE")
