"""The games of the kit, one folder each: ``mogul`` (2002 and 2013 editions).

Each game registers a ``mogul.kit.spec.GameSpec``; importing this package registers them all.
"""

from mogul.games.credit_mobilier import spec as _credit_mobilier  # noqa: F401 - registers "credit-mobilier"
from mogul.games.mogul import spec as _mogul  # noqa: F401 - registers "mogul"
