"""The ``guandan-fast`` command line, one module per subcommand (``guandan_fast.cli:main``)."""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
