"""The parts of a results folder: their paths and the encoding of a part as Parquet bytes (written by
simdom.safeio's atomic writer, re-exported here; checked by simdom.results.verify)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..safeio import atomic_open, write_atomic  # noqa: F401 - the one atomic writer, re-exported
from .folder import META_KEY, PART
from .tables import TableSpec


# ---- files --------------------------------------------------------------------------------------------
def part_path(folder: Path, table: str, chunk: int) -> Path:
    return Path(folder) / table / PART.format(chunk)




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
