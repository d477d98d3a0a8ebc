import io
import unittest
from contextlib import closing

from naturals import naturals
from stages import chunked, flatten, numbered, parse_numbers, running_total, take


class GeneratorBasicsTest(unittest.TestCase):
    def test_calling_a_generator_function_runs_none_of_its_body(self):
        log = []
        generator = naturals(log)
        self.assertEqual(log, [])  # nothing has run yet
        self.assertEqual(next(generator), 1)
        self.assertEqual(log, [("started",), ("yield", 1)])
        generator.close()

    def test_close_runs_the_finally_block(self):
        log = []
        generator = naturals(log)
        next(generator)
        generator.close()  # raises GeneratorExit at the paused yield
        self.assertEqual(log[-1], ("closed",))
        with self.assertRaises(StopIteration):
            next(generator)  # a closed generator is exhausted

    def test_closing_closes_the_generator_when_the_block_exits(self):
        log = []
        with closing(naturals(log)) as generator:
            self.assertEqual(take(2, generator), [1, 2])
        self.assertEqual(log[-1], ("closed",))


class PipelineTest(unittest.TestCase):
    def test_stages_compose_lazily_over_an_endless_source(self):
        log = []
        with closing(naturals(log)) as source:
            self.assertEqual(take(4, running_total(source)), [1, 3, 6, 10])
            yielded = [entry[1] for entry in log if entry[0] == "yield"]
            self.assertEqual(yielded, [1, 2, 3, 4])  # not one value more than needed
        self.assertEqual(log[-1], ("closed",))

    def test_parses_a_file_like_object_line_by_line(self):
        text = io.StringIO("10\n\n20\r\n 5\n")
        self.assertEqual(list(running_total(parse_numbers(numbered(text)))), [10, 30, 35])

    def test_a_bad_line_raises_with_its_line_number(self):
        totals = running_total(parse_numbers(numbered(["1", "2", "three", "4"])))
        self.assertEqual(next(totals), 1)
        self.assertEqual(next(totals), 3)
        with self.assertRaisesRegex(ValueError, r"^line 3: not a number: 'three'$"):
            next(totals)

    def test_chunked_groups_items_and_keeps_the_remainder(self):
        self.assertEqual(list(chunked(range(1, 6), 2)), [[1, 2], [3, 4], [5]])
        self.assertEqual(list(chunked([], 3)), [])

    def test_flatten_delegates_with_yield_from(self):
        self.assertEqual(list(flatten([1, [2, [3, [4]], 5], [], 6])), [1, 2, 3, 4, 5, 6])


if __name__ == "__main__":
    unittest.main()
