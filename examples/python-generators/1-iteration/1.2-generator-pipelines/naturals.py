"""An endless generator that reports what it does, to make laziness and cleanup visible."""


def naturals(log):
    """Yields 1, 2, 3, ... forever, appending ("yield", n) and finally ("closed",) to `log`."""
    log.append(("started",))
    n = 1
    try:
        while True:
            log.append(("yield", n))
            yield n
            n += 1
    finally:
        log.append(("closed",))  # runs on close(), on garbage collection, or on an error
