"""The trainer server's time and size limits, apart from the server itself so that the
command line can show them without importing uvicorn."""

READ_TIMEOUT = 10.0
"""Seconds a client has to send a whole request (``--read-timeout``)."""

KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection is kept after a response."""

MAX_HEAD = 16 * 1024
"""Bytes of an unfinished request line and headers h11 holds (its own default, said here)."""
