"""The classroom: students play each other from their own devices; the lecturer watches.

* ``store``: tables, seats and every action in SQLite or PostgreSQL (``TableStore``);
* ``export``: a session's records (JSON) and tidy tables (CSV), and loading them back;
* ``debrief``: the class's real bids beside the auction's equilibrium;
* ``student``, ``lecturer`` and ``figures``: the pages' widgets and the debrief's charts (the
  faces of this layer); ``sample``: a session played by stand-in students;
* ``pages/``: the two notebooks that Voila serves (``make classroom``, ``make lecturer``).
"""

from mogul.classroom.store import ClassroomError, TableInfo, TableStore, Ticket

__all__ = ["ClassroomError", "TableInfo", "TableStore", "Ticket"]
