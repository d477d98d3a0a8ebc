"""Pipeline stages as generator functions: each takes an iterable and yields its output."""
from itertools import islice


def numbered(lines):
    """Yields (line_number, text) pairs, counting from 1, without the trailing newline."""
    for number, line in enumerate(lines, start=1):
        yield number, line.rstrip("\r\n")


def parse_numbers(numbered_lines):
    """Yields one int per non-blank line; a bad line raises ValueError naming its number."""
    for number, text in numbered_lines:
        if not text.strip():
            continue
        try:
            yield int(text)
        except ValueError:
            raise ValueError(f"line {number}: not a number: {text!r}") from None


def running_total(numbers):
    total = 0
    for n in numbers:
        total += n
        yield total


def take(count, items):
    """The first `count` items, pulled lazily (islice asks for no more than it needs)."""
    return list(islice(items, count))


def chunked(items, size):
    """Yields lists of `size` items; the last one may be shorter."""
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk


def flatten(nested):
    """Yields the leaves of arbitrarily nested lists, delegating with `yield from`."""
    for item in nested:
        if isinstance(item, list):
            yield from flatten(item)
        else:
            yield item
