"""Run independent tasks on local worker processes or on a Ray cluster, results by index.

Both the arena and self-play hand their work here as a list of argument tuples for one
module-level function; results come back as ``(index, result)`` in completion order and
the callers assemble them by index, so the outcome never depends on the worker count or
the scheduler. ``workers=1`` runs in this process (plain callables work there); more
workers use a :class:`multiprocessing.Pool`; ``ray_address`` uses Ray core tasks. Ctrl-C
stops the workers (the pool is terminated, Ray tasks are cancelled) and raises
KeyboardInterrupt in the caller, which keeps what it has.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from ..engine.cards import bounded


def check_positive(value: object, what: str) -> int:
    """A positive integer (ValueError/TypeError naming ``what`` otherwise)."""
    return bounded(value, what, 1)


def default_workers() -> int:
    return os.cpu_count() or 1


def run_tasks(
    function: Callable[..., Any],
    tasks: Sequence[tuple[Any, ...]],
    *,
    workers: int | None = None,
    ray_address: str | None = None,
) -> Generator[tuple[int, Any], None, None]:
    """``(i, function(*tasks[i]))`` for every task, in completion order (a generator:
    closing it stops the workers)."""
    if ray_address is not None:
        yield from _run_on_ray(function, tasks, ray_address)
        return
    workers = default_workers() if workers is None else check_positive(workers, "the number of workers")
    workers = min(workers, len(tasks))
    if workers <= 1:
        for index, args in enumerate(tasks):
            yield index, function(*args)
        return
    pool = multiprocessing.Pool(workers, initializer=_ignore_interrupts)
    try:
        yield from pool.imap_unordered(_call, [(function, index, args) for index, args in enumerate(tasks)])
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them all."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _call(job: tuple[Callable[..., Any], int, tuple[Any, ...]]) -> tuple[int, Any]:
    function, index, args = job
    return index, function(*args)


# -- Ray --------------------------------------------------------------------------------------
#: The first bytes a gRPC (HTTP/2) client sends: the connection preface and an empty SETTINGS
#: frame. A Ray GCS or Ray Client server answers with its own SETTINGS frame (type 4).
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_SETTINGS_FRAME = 4
PROBE_SECONDS = 5.0


def connect_ray(address: str) -> Any:
    """The ``ray`` module, connected to ``address`` as Ray itself reads it: ``"local"``
    starts a new Ray instance on this machine; ``"auto"`` joins a running cluster
    (``RAY_ADDRESS``, the last ``ray start``, a Ray on this machine) and fails without one;
    anything else is the address of a running cluster (``"ray://head:10001"`` or
    ``"head:6379"``), checked first to speak gRPC, so that a wrong host fails in seconds
    instead of minutes of Ray's retries. A Ray already initialised in this process is used
    as it is."""
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"a Ray address is 'local', 'auto' or host:port, not {address!r}")
    try:
        import ray
    except ImportError:
        raise ImportError("running on Ray needs the optional ray package: pip install 'guandan_fast[ray]'") from None
    if ray.is_initialized():
        return ray
    address = address.strip()
    if address not in ("local", "auto"):
        _probe(address)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except Exception as error:  # noqa: BLE001 - Ray raises many kinds; all mean "no cluster there"
        raise ConnectionError(f"cannot connect to Ray at {address!r}: {error}") from None
    return ray


def _probe(address: str) -> None:
    """Fail fast on an address where nothing listens, or where what listens is no gRPC
    server (``ray.init`` would retry for minutes, warning every few seconds)."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not host or not port.isdigit():
        raise ValueError(f"a Ray address is 'local', 'auto' or host:port (ray://host:port), not {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_SECONDS) as connection:
            if os.environ.get("RAY_USE_TLS", "0") not in ("0", ""):
                return  # a TLS cluster: the plain handshake below cannot be tried
            connection.sendall(_HTTP2_HELLO)
            answer = _read_up_to(connection, 9)
    except OSError as error:
        raise ConnectionError(f"cannot connect to Ray at {address!r}: {error}") from None
    if len(answer) < 9 or answer[3] != _SETTINGS_FRAME:
        raise ConnectionError(
            f"cannot connect to Ray at {address!r}: something listens there but does not speak gRPC as a Ray "
            "cluster does (a Ray head is host:6379, its GCS port, or ray://host:10001 for Ray Client)"
        )


def _read_up_to(connection: socket.socket, size: int) -> bytes:
    """Up to ``size`` bytes, fewer when the peer closes or stays silent for the timeout."""
    answer = b""
    try:
        while len(answer) < size:
            chunk = connection.recv(size - len(answer))
            if not chunk:
                break
            answer += chunk
    except TimeoutError:
        pass
    return answer


def _run_on_ray(function: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], address: str) -> Iterator[tuple[int, Any]]:
    ray = connect_ray(address)
    remote = ray.remote(function)
    pending = {remote.remote(*args): index for index, args in enumerate(tasks)}
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                yield pending.pop(ref), ray.get(ref)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
