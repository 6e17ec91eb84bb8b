"""The folder's names, the format version and the error of the results package (simdom.results)."""
from __future__ import annotations

KIND = "simdom-results"
#: Results format version. 1: one row per seat (simdom <= 0.1); 2: one row per arm, deal and rotation;
#: 3: the manifest records every part's content hash, size, rows and deal range (``parts``); 4: the
#: settings hash leaves out the number of deals (a run with more deals extends the folder).
FORMAT = 4
MANIFEST = "manifest.json"
LOCK = ".simdom.lock"
PART = "part-{:05d}.parquet"
META_KEY = "simdom"


class ResultsError(ValueError):
    """A results folder that cannot be read or written as it is: says what is wrong and what to do."""
