#!/usr/bin/env python3
"""tests/lib/test_kernel_hz.py - kernel_hz.py's pure arithmetic (no root, no measuring)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernel_hz as K  # noqa: E402


class ConfigHz(unittest.TestCase):
    def test_the_line_among_others(self):
        text = "# CONFIG_HZ_100 is not set\nCONFIG_HZ_1000=y\nCONFIG_HZ=1000\nCONFIG_X=y\n"
        self.assertEqual(K.config_hz(text), 1000)

    def test_not_the_choice_lines(self):
        self.assertIsNone(K.config_hz("CONFIG_HZ_250=y\nCONFIG_HZ_PERIODIC=y\n"))
        self.assertIsNone(K.config_hz(""))


class FromJiffies(unittest.TestCase):
    def test_known_rates_despite_the_reading_delay(self):
        self.assertEqual(K.hz_from_jiffies(1000, 10.0, 1101, 10.4), 250)   # 252.5/s
        self.assertEqual(K.hz_from_jiffies(0, 0.0, 397, 0.4), 1000)        # 992.5/s
        self.assertEqual(K.hz_from_jiffies(5, 1.0, 45, 1.4), 100)
        self.assertEqual(K.hz_from_jiffies(0, 0.0, 121, 0.4), 300)         # 302.5/s

    def test_an_unusual_rate_rounded(self):
        self.assertEqual(K.hz_from_jiffies(0, 0.0, 200, 1.0), 200)

    def test_readings_that_cannot_say(self):
        self.assertIsNone(K.hz_from_jiffies(10, 1.0, 10, 2.0))   # jiffies stood still
        self.assertIsNone(K.hz_from_jiffies(10, 2.0, 20, 2.0))   # no time passed


class TimerPeriod(unittest.TestCase):
    def test_four_expiries_a_tick_at_least(self):
        self.assertEqual(K.timer_period_us(250), 1000)
        self.assertEqual(K.timer_period_us(100), 1000)
        self.assertEqual(K.timer_period_us(300), 833)
        self.assertEqual(K.timer_period_us(1000), 250)


if __name__ == "__main__":
    unittest.main()
