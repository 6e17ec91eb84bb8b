"""The parts of a results folder: their paths, the check of a part, and the encoding of a part as Parquet
bytes (written by simdom.safeio's atomic writer, re-exported here)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..safeio import atomic_open, write_atomic  # noqa: F401 - the one atomic writer, re-exported
from .folder import META_KEY, PART
from .tables import COLUMN_TYPES, TableSpec


# ---- files --------------------------------------------------------------------------------------------
def part_path(folder: Path, table: str, chunk: int) -> Path:
    return Path(folder) / table / PART.format(chunk)


def inspect_part(path: Path, settings_hash: str, chunk: int, rows: int | None,
                 names: list[str]) -> tuple["pa.Table | None", str | None]:
    """(the part's rows, None) if the part is whole and belongs to this run, else (None, what is wrong
    with it): its footer, its metadata (settings hash, chunk number, row count), its columns, and every
    page's checksum (the whole part is read)."""
    import pyarrow.parquet as pq
    if not path.is_file():
        return None, "missing"
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        meta = json.loads((pf.schema_arrow.metadata or {}).get(META_KEY.encode(), b"{}"))
        if meta.get("settings_hash") != settings_hash or meta.get("chunk") != chunk:
            return None, "written by another run or for another chunk"
        n = pf.metadata.num_rows
        if n != meta.get("rows") or (rows is not None and n != rows):
            return None, f"{n} rows, expected {rows if rows is not None else meta.get('rows')}"
        if pf.schema_arrow.names != names:
            have = pf.schema_arrow.names
            extra, missing = [n for n in have if n not in names], [n for n in names if n not in have]
            return None, "not of the schema (" + "; ".join(
                [f"column {', '.join(extra[:3])} added"] * bool(extra) + [f"column {', '.join(missing[:3])} missing"]
                * bool(missing) or ["its columns in another order"]) + ")"
        wrong = next((f for f in pf.schema_arrow if f.type != COLUMN_TYPES.get(f.name, f.type)), None)
        if wrong is not None:
            return None, f"not of the schema (column {wrong.name} is {wrong.type}, expected {COLUMN_TYPES[wrong.name]})"
        table = pf.read(use_threads=False)  # every page: checks the CRCs (no thread pool: forks may follow)
    except Exception as e:  # a truncated or corrupted file: anything pyarrow refuses
        return None, f"unreadable ({type(e).__name__}: {str(e).splitlines()[0][:80] if str(e) else ''})"
    return (table, None) if table.num_rows == n else (None, "rows unreadable")


def read_part(path: Path, settings_hash: str, chunk: int, rows: int | None, names: list[str]) -> "pa.Table | None":
    """The part's rows if it is whole and belongs to this run, else None (see :func:`inspect_part`)."""
    return inspect_part(path, settings_hash, chunk, rows, names)[0]


# ---- writing a part -----------------------------------------------------------------------------------
#: Parquet options of every part: zstd, page checksums (every reader verifies them), no statistics.
#: Integer columns are written BYTE_STREAM_SPLIT (half the time of dictionary encoding, within 3% of its
#: size once compressed: measured on threes chunks), deal numbers DELTA_BINARY_PACKED, strings as
#: dictionaries.
PARQUET = dict(compression="zstd", compression_level=1, write_statistics=False, write_page_checksum=True)


def strings(codes, vocab: list[str]) -> pa.Array:
    """A string column given as codes into ``vocab``: a dictionary array, written as it is (readers get
    plain strings)."""
    import numpy as np
    return pa.DictionaryArray.from_arrays(pa.array(np.asarray(codes).astype(np.int32, copy=False)),
                                          pa.array(vocab, pa.string()))


def encode(spec: TableSpec, players: int, columns: dict[str, Any], settings_hash: str, chunk: int,
           sides: int = 0) -> bytes:
    """One part of ``spec`` as Parquet bytes. ``columns``: every column of the schema by name, as numpy
    arrays (cast to the column's type; a numpy masked array's mask gives nulls) or Arrow arrays
    (:func:`strings` for string columns)."""
    import numpy as np
    import pyarrow.parquet as pq
    fields, arrays = [], []
    for f in spec.schema(players, sides):
        v = columns[f.name]
        if not isinstance(v, pa.Array):
            mask = np.ma.getmaskarray(v) if np.ma.isMaskedArray(v) else None
            data = np.ma.getdata(v).astype(np.bool_ if f.type == pa.bool_() else f.type.to_pandas_dtype(), copy=False)
            v = pa.array(data, f.type, mask=mask if mask is not None and mask.any() else None)
        fields.append(f.with_type(v.type))
        arrays.append(v)
    table = pa.Table.from_arrays(arrays, schema=pa.schema(fields))
    sink = pa.BufferOutputStream()
    # no stored Arrow schema: readers take the types from the Parquet schema (string, int8, bool, ...), so
    # dictionary-typed string columns read back as the declared strings
    encodings = {f.name: "DELTA_BINARY_PACKED" if f.name in ("deal", "match") else "BYTE_STREAM_SPLIT"
                 for f in table.schema if pa.types.is_integer(f.type)}
    strings_ = [f.name for f in table.schema if pa.types.is_dictionary(f.type)]
    with pq.ParquetWriter(sink, table.schema, store_schema=False, use_dictionary=strings_,
                          column_encoding=encodings, **PARQUET) as w:
        w.write_table(table, row_group_size=max(table.num_rows, 1))
        w.add_key_value_metadata({META_KEY: json.dumps({"settings_hash": settings_hash, "chunk": chunk,
                                                        "rows": table.num_rows})})
    return sink.getvalue().to_pybytes()
