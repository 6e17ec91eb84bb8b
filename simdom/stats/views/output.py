"""Output options of the statistics commands: the format (people: table, md; machines: json, csv,
parquet) and the no-silent-overwrite rule. The rendering itself is simdom.present."""
from __future__ import annotations

from pathlib import Path

from simdom.present import FORMATS, check_out, out_format
from simdom.stats.tables.stats import InputError

__all__ = ["FORMATS", "resolve_format", "check_writable"]


def resolve_format(fmt: str | None, out: str | Path | None) -> str:
    """The output format: ``fmt`` if given, else from the -o suffix, else ``table`` (simdom.present.out_format,
    every command's one rule); parquet needs -o."""
    fmt = out_format(fmt and fmt.lower(), out)
    if fmt == "parquet" and out is None:
        raise InputError("--format parquet writes a file: add -o FILE.parquet")
    return fmt


def check_writable(out: str | Path | None, force: bool) -> None:
    """-o FILE checked before the work (simdom.present.check_out)."""
    check_out(out, force)
