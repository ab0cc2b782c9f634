"""The classroom's Mogul-only parts: the debrief of Mogul's auctions (``debrief``)."""
