"""The classroom's auction-lab parts: the sample session its debrief reads (``sample``),
played by stand-in students; the debrief on the lecturer's dashboard (``figures``: the game's
``debrief`` face, notebook 09 on the live session); the student page's how-to
(``howto.html``)."""
