"""Imports every module of iac_code.a2a, so a dependency that drifted fails here and not in a running kernel.

`iac-code a2a --help` alone does not catch it: the server modules are imported only when the server starts
(a2a-sdk >= 1.2.1 removed `encode_page_token`, which iac_code.a2a.task_store and the transports import).
Exit status 1 and one line per failing module when any import fails.
"""

import importlib
import pkgutil
import sys

import iac_code.a2a

failures = []
for module in pkgutil.walk_packages(iac_code.a2a.__path__, iac_code.a2a.__name__ + "."):
    try:
        importlib.import_module(module.name)
    except Exception as error:  # any failure to import is a broken kernel environment
        failures.append(f"{module.name}: {type(error).__name__}: {error}")

if failures:
    print("iac-code kernel modules fail to import:", *failures, sep="\n  ", file=sys.stderr)
    sys.exit(1)
