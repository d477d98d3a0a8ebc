"""What a for loop does, written out by hand."""


def manual_for(iterable, body):
    """Calls body(item) for each item of iterable, exactly as `for item in iterable` would."""
    iterator = iter(iterable)  # calls iterable.__iter__()
    while True:
        try:
            item = next(iterator)  # calls iterator.__next__()
        except StopIteration:
            return
        body(item)
