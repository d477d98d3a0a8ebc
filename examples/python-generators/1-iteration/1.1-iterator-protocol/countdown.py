"""An iterable countdown and its iterator: the two halves of Python's iteration protocol."""


class Countdown:
    """An iterable: every call to iter() starts a fresh countdown from `start`."""

    def __init__(self, start):
        self.start = start

    def __iter__(self):
        return CountdownIterator(self.start)


class CountdownIterator:
    """An iterator: remembers its position and can be consumed only once."""

    def __init__(self, current):
        self.current = current

    def __iter__(self):
        return self  # iterators are iterable too, so they work in for loops

    def __next__(self):
        if self.current <= 0:
            raise StopIteration  # the end of the sequence, not an error
        value = self.current
        self.current -= 1
        return value
