"""The classroom's auction-lab parts: the sample session its debrief reads (``sample``),
played by stand-in students, and the student page's how-to (``howto.html``)."""
