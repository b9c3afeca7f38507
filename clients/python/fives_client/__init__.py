"""A client of the Fives archive's API, and the ``fives`` command line (``fives_client.cli``)."""

from .client import ArchiveError, Client, ExportChanged

__all__ = ["ArchiveError", "Client", "ExportChanged"]
__version__ = "0.1.0"
