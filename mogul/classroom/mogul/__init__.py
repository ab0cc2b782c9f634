"""The classroom's Mogul-only parts: the debrief of Mogul's auctions (``debrief``) and the sample
class session it reads, played by stand-in students (``sample``)."""
