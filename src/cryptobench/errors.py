"""Errors that end a command with a message and an exit code, never a traceback."""


class CryptobenchError(Exception):
    exit_code = 1


class UsageError(CryptobenchError):
    """A bad argument or unknown name: exit 2, the message lists the valid values."""

    exit_code = 2


class DataError(CryptobenchError):
    """A corrupt, foreign or unreadable data file (catalog, preset, results, database)."""

    exit_code = 1
