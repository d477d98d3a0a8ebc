import unittest

from greet import greet


class GreetTest(unittest.TestCase):
    def test_greet_names_the_person(self):
        self.assertEqual(greet("Ada"), "Hello, Ada!")

    def test_greet_refuses_an_empty_name(self):
        with self.assertRaises(ValueError):
            greet("  ")
