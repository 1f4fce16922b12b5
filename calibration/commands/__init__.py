"""Sub-commands of ``hertz2d``; each module has ``register(subparsers, parents)`` and ``run(args)``."""
from calibration.commands import halfround

COMMANDS = [halfround]
