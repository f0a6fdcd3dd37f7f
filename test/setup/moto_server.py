"""The moto server as the tests run it: moto's own `moto_server`, with costs it pays again and again taken off.

- moto looks up which service a request is for by listing its own package's folders on disk, once per request,
  while holding the lock every request takes (moto/backends.py `list_of_moto_modules`): the folders never change
  while the server runs, so they are listed once here.
- moto loads a service's API model and builds its request router the first time a request needs them, and keeps
  them (functools.cache); but requests that come together, as a scan's parallel reads of a service do, each load
  and build them at once. Here the first request builds them and the others wait for it.
- werkzeug writes a log line per request, which the tests discard (they start the server with its output ignored).

Everything else is moto's. Arguments are moto_server's (-H, -p).

With MOTO_REQUEST_LOG set to a file, each request is written to it as it ends: when it began, how long it took,
how many were in flight as it began, and what it asked (to find what makes a suite wait on moto).
"""

import functools
import json
import logging
import os
import sys
import threading
import time

from moto import backends
from moto.core import responses, routing, utils
from moto.server import main

MOTO_MODULES = tuple(backends.list_of_moto_modules())
backends.list_of_moto_modules = lambda: MOTO_MODULES


def one_at_a_time(cached):
    """A cached function whose first call for a key runs alone: the calls that come meanwhile wait for its result."""
    guard = threading.Lock()
    locks = {}

    @functools.wraps(cached)
    def call(*args, **kwargs):
        with guard:
            lock = locks.setdefault((args, tuple(sorted(kwargs.items()))), threading.Lock())
        with lock:
            return cached(*args, **kwargs)

    return call


service_model = one_at_a_time(utils.get_service_model)
utils.get_service_model = responses.get_service_model = routing.get_service_model = service_model
service_router = one_at_a_time(routing.get_service_router)
routing.get_service_router = responses.get_service_router = service_router

# A service's router builds its router for a protocol (REST, JSON, query) on the first request that needs it.
build_router = routing.ServiceOperationRouter._get_router
router_lock = threading.Lock()


def get_router(self, protocol):
    if protocol in self._routers:
        return self._routers[protocol]
    with router_lock:
        return build_router(self, protocol)


routing.ServiceOperationRouter._get_router = get_router

logging.getLogger("werkzeug").setLevel(logging.WARNING)


class RequestLog:
    """Each request written to a file as it ends, with how many were in flight as it began."""

    def __init__(self, path):
        self.out = open(path, "a", buffering=1)
        self.guard = threading.Lock()
        self.in_flight = 0

    def around(self, environ, handle):
        with self.guard:
            self.in_flight += 1
            concurrent = self.in_flight
        began = time.time()
        try:
            return handle()
        finally:
            line = {
                "began": round(began, 3),
                "seconds": round(time.time() - began, 3),
                "in_flight": concurrent,
                "host": environ.get("HTTP_HOST", ""),
                "auth": environ.get("HTTP_AUTHORIZATION", "")[:120],
                "path": environ.get("PATH_INFO", "")[:120],
                "target": environ.get("HTTP_X_AMZ_TARGET") or environ.get("QUERY_STRING", "")[:80],
            }
            with self.guard:
                self.in_flight -= 1
                self.out.write(json.dumps(line) + "\n")


if os.environ.get("MOTO_REQUEST_LOG"):
    from moto.moto_server import werkzeug_app

    request_log = RequestLog(os.environ["MOTO_REQUEST_LOG"])
    dispatch = werkzeug_app.DomainDispatcherApplication.__call__
    werkzeug_app.DomainDispatcherApplication.__call__ = lambda self, environ, start_response: request_log.around(
        environ, lambda: dispatch(self, environ, start_response)
    )

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
