"""Sub-commands of ``hertz2d``: every module here with a ``register(subparsers, parents)``.

Modules are discovered, so adding a command is adding a module; :data:`PIPELINE_ORDER` only fixes
the order in which ``hertz2d --help`` lists them (the order of the pipeline).
"""
import importlib
import pkgutil

PIPELINE_ORDER = ("halfround", "sweep", "fit", "twodisc", "model", "validate", "report", "all")


def _discover():
    names = [info.name for info in pkgutil.iter_modules(__path__)]
    modules = [importlib.import_module(f"{__name__}.{name}") for name in names]
    commands = [module for module in modules if hasattr(module, "register")]
    rank = {name: i for i, name in enumerate(PIPELINE_ORDER)}
    return sorted(commands, key=lambda m: rank.get(m.__name__.rsplit(".", 1)[1], len(rank)))


COMMANDS = _discover()
