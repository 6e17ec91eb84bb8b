"""The parts of a results folder: their paths, the atomic writer and the encoding of a part as Parquet
bytes (their check: simdom.results.verify)."""
from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import IO, Any, Iterator

import pyarrow as pa

from .folder import META_KEY, PART
from .tables import COLUMN_TYPES, TableSpec


# ---- files --------------------------------------------------------------------------------------------
def part_path(folder: Path, table: str, chunk: int) -> Path:
    return Path(folder) / table / PART.format(chunk)


@contextlib.contextmanager
def atomic_open(path: Path, mode: str = "wb", **kw) -> Iterator[IO]:
    """Open a temporary file beside ``path`` for writing; when the block ends without error, fsync it
    and rename it to ``path``: a file under its final name is always whole. On any error (disk full,
    Ctrl-C) the temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, mode, **kw) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_open`)."""
    with atomic_open(path) as fh:
        fh.write(data)


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
