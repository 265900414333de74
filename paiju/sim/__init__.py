"""`paiju simulate`: deals and matches played in batches, locally or on a Dask cluster.

- ``command``: the command — agents and rules options, the run, its summary;
- ``batch``: a run cut into chunks of consecutive units, and one unit played;
- ``backends``: where chunks are played (this process, local processes, Dask);
- ``progress``: the progress display;
- ``logs``: the event log of a run (one merged file, or one per worker);
- ``referee_summary``: the referee's part of a refereed run's summary;
- ``refereed``: one refereed unit played as a log header describes it (replay, train, fuzz).
"""
