import unittest

from countdown import Countdown, CountdownIterator
from manual_loop import manual_for


class CountdownTest(unittest.TestCase):
    def test_for_loop_counts_down(self):
        self.assertEqual([n for n in Countdown(3)], [3, 2, 1])

    def test_an_iterable_can_be_looped_over_twice(self):
        countdown = Countdown(2)
        self.assertEqual(list(countdown), [2, 1])
        self.assertEqual(list(countdown), [2, 1])  # a fresh iterator each time

    def test_an_iterator_is_consumed_once(self):
        iterator = iter(Countdown(2))
        self.assertEqual(list(iterator), [2, 1])
        self.assertEqual(list(iterator), [])  # exhausted: nothing left

    def test_next_raises_stop_iteration_at_the_end(self):
        iterator = iter(Countdown(1))
        self.assertEqual(next(iterator), 1)
        with self.assertRaises(StopIteration):
            next(iterator)
        self.assertEqual(next(iterator, "done"), "done")  # the default instead of raising

    def test_iter_of_an_iterator_is_the_iterator_itself(self):
        iterator = iter(Countdown(3))
        self.assertIsInstance(iterator, CountdownIterator)
        self.assertIs(iter(iterator), iterator)

    def test_two_iterators_over_one_iterable_are_independent(self):
        countdown = Countdown(3)
        first, second = iter(countdown), iter(countdown)
        self.assertEqual(next(first), 3)
        self.assertEqual(next(first), 2)
        self.assertEqual(next(second), 3)

    def test_manual_for_does_what_a_for_loop_does(self):
        seen = []
        manual_for(Countdown(3), seen.append)
        self.assertEqual(seen, [3, 2, 1])


if __name__ == "__main__":
    unittest.main()
