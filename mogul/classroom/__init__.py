"""The classroom: students play each other from their own devices; the lecturer watches.

* ``store``: tables, seats and every action in SQLite or PostgreSQL (``TableStore``: the
  moves), on ``reading`` (the reads and replays) and ``schema`` (states, codes, seat keys, the
  database schema);
* ``export``: a session's records (JSON) and tidy tables (CSV), and loading them back;
* ``student``, ``lecturer`` and ``figures``: the pages' widgets and the debrief's charts (the
  faces of this layer);
* ``mogul/``: Mogul's own part, the debrief (the class's real bids beside the auction's
  equilibrium) and the sample session played by stand-in students;
* ``pages/``: the two notebooks that Voila serves (``make classroom``, ``make lecturer``).
"""

from mogul.classroom.store import ClassroomError, TableInfo, TableStore, Ticket

__all__ = ["ClassroomError", "TableInfo", "TableStore", "Ticket"]
