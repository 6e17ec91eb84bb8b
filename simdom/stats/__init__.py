"""Statistics over results folders, in layers that import only downhill:

    inference.py   the statistical primitives: t and Wilson intervals, tests, Holm (run/ and analyze/
                   import it without the readers)
    read/          open a checked results folder (simdom.results.verify) as lazy polars frames: the
                   per-seat view (folder.py) and the match views (matchview.py)
    estimate/      cluster sums and moments, distributions, paired families of arms
    tables/        the tables of `simdom stats`, `seats`, `doubles` and `compare`
    matches/       match-mode tables (wins, length, first lead, edges, equity) and their answers
    decisions/     the first-double decisions table and its answer
    views/         every command's answer in words and tables, and where it is written
"""
