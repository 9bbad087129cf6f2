"""One clear line per bad input: the file, the field, what was expected."""
import functools
import os
import sys


def _shown(path):
    """Paths inside the working directory are shown relative to it."""
    path = str(path)
    if os.path.isabs(path):
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            return rel
    return path


class InputError(Exception):
    """Bad input a user can fix. str() is the whole message."""

    def __init__(self, path, field, expected):
        self.path, self.field, self.expected = _shown(path), field, expected
        where = f"{self.path}: {field}" if field else self.path
        super().__init__(f"{where}: {expected}")


def cli(main):
    """Wraps a command-line entry point: an InputError becomes one line on
    stderr and exit status 2, instead of a traceback."""

    @functools.wraps(main)
    def wrapper(*args, **kwargs):
        try:
            return main(*args, **kwargs)
        except InputError as e:
            print(f"error: {e}", file=sys.stderr)
            sys.exit(2)

    return wrapper
