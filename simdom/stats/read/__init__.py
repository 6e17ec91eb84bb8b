"""Reading a results folder: each part checked once, then lazy polars frames over its rows."""

#: the behaviour version of the engine of this process (simdom.engine.api.SIM_VERSION, which the statistics do not
#: import), once the caller has said it (the command line does: simdom/cli/__init__.py); a folder played by another
#: version is then read with a one-line note on stderr (folder.version_note)
PLAYING: dict[str, int | None] = {"sim_version": None}
