"""Where the games of a run are played: in this process, a local process pool, or Ray.

``run_jobs(fn, jobs, workers=..., ray=...)`` yields ``fn(job)`` for every job, in completion
order; callers sort by job index. A job is a picklable value that carries its own seed, so the
results do not depend on the backend or on the number of workers (issue 16 point 5).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from typhoon.errors import OptionError

J = TypeVar("J")
R = TypeVar("R")


def run_jobs(
    fn: Callable[[J], R], jobs: Sequence[J], *, workers: int = 1, ray: str | None = None
) -> Iterator[R]:
    """``fn`` over ``jobs``. ``ray``: None (local processes), "local" (start a Ray cluster on
    this machine) or the address of a running cluster ("auto", "ray://host:10001", ...)."""
    if workers < 1:
        raise OptionError("--jobs must be at least 1")
    if ray is not None:
        yield from _run_ray(fn, jobs, ray, workers)
        return
    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            yield fn(job)
        return
    with multiprocessing.get_context().Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap_unordered(fn, jobs)


def _run_ray(fn: Callable[[J], R], jobs: Sequence[J], address: str, workers: int) -> Iterator[R]:
    try:
        import ray as ray_mod
    except ImportError:
        raise OptionError("--ray needs Ray: pip install 'typhoon[ray]'") from None
    started = False
    if not ray_mod.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        try:
            if address == "local":
                # A cluster of this machine only, sized by --jobs.
                ray_mod.init(num_cpus=workers, **kwargs)
            else:
                ray_mod.init(address=address, **kwargs)
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError...
            raise OptionError(f"cannot start or reach the Ray cluster {address!r}: {exc}") from None
        started = True
    try:
        task = ray_mod.remote(fn)
        pending = [task.remote(job) for job in jobs]
        while pending:
            done, pending = ray_mod.wait(pending, num_returns=1)
            for ref in done:
                yield ray_mod.get(ref)
    finally:
        if started:
            ray_mod.shutdown()
