"""The classroom: students play each other from their own devices; the lecturer watches.

* ``table``: a table in words (states, codes, seat keys, what a page is told);
* ``store``: tables, seats and every action in SQLite or PostgreSQL (``TableStore``: the
  lecturer's tables, the students' seats and moves, the bots' answers, the turn timer), on
  ``database`` (the schema and the reads);
* ``export``: a session's records (JSON) and tidy tables (CSV), and reading them back;
* ``decisions``: the debrief's "analyse this position" for any game: every decision of a
  session's tables, and what each legal action was worth to the seat that moved (the game's
  ``analyse_position`` face), the move made marked;
* ``server``: the lecture hall, the students' pages (a Jupyter server extension, or
  ``python -m mogul.classroom.server``), and the projector page;
* ``desk``: what the lecturer does to a session's tables (create them, the turn timer, pause,
  a new seat key, free a seat, export) and a table's card, for the dashboard;
* ``server``'s dashboard page (``/mogul/hall/dashboard``, no kernel: the lecturer's link),
  ``projector`` (the projector page's drawing) and ``figures``, the debrief's charts (with
  ``server``, the faces of this layer);
* ``<game>/``, named as the game's folder in ``mogul/games/``: a game's own part, such as its
  debrief (the class's real bids beside the auction's equilibrium) and the sample session
  played by stand-in students.

The live store, the hall and the dashboard need the install extra ``mogul-kit[classroom]``
(SQLAlchemy, psycopg, segno); ``table``, ``export``'s reader, ``decisions`` and the debrief
read an exported session without it.
"""
