"""The fitting searches on objectives whose minimum is known (no gpusim, no GPU)."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from calibration import fit, search  # noqa: E402


def batch(f):
    calls = []

    def evaluate(xs):
        calls.append(list(xs))
        return [f(x) for x in xs]
    return evaluate, calls


class Minimise(unittest.TestCase):
    def test_finds_an_integer_minimum_across_a_wide_range(self):
        evaluate, calls = batch(lambda x: math.log(x / 37.3) ** 2)
        best, score, tried, at_edge = search.minimise(evaluate, 1, 1000, 1)
        self.assertEqual(best, 37)
        self.assertFalse(at_edge)
        self.assertLess(len(tried), 80)  # refined, not enumerated
        self.assertTrue(all(len(c) <= 8 for c in calls))

    def test_finds_a_fractional_minimum_at_its_resolution(self):
        evaluate, _ = batch(lambda x: (x - 2.37) ** 2)
        best, _, _, at_edge = search.minimise(evaluate, 0.1, 10, 0.01)
        self.assertAlmostEqual(best, 2.37, places=9)
        self.assertFalse(at_edge)

    def test_a_minimum_outside_the_range_is_reported_at_the_edge(self):
        evaluate, _ = batch(lambda x: (x - 50) ** 2)
        best, _, _, at_edge = search.minimise(evaluate, 1, 20, 1)
        self.assertEqual(best, 20)
        self.assertTrue(at_edge)

    def test_ties_go_to_the_smaller_value(self):
        evaluate, _ = batch(lambda x: 0.0 if 10 <= x <= 12 else abs(x - 11))
        self.assertEqual(search.minimise(evaluate, 1, 40, 1)[0], 10)


class Objective(unittest.TestCase):
    def test_is_zero_when_the_model_reproduces_every_launch(self):
        self.assertEqual(search.objective([100, 200], [100, 200]), 0)

    def test_weighs_a_launch_too_fast_as_one_too_slow_by_the_same_factor(self):
        self.assertAlmostEqual(search.objective([100], [50]), search.objective([100], [200]))

    def test_a_failed_simulation_is_infinitely_bad(self):
        self.assertEqual(search.objective([100, 200], [100, None]), math.inf)

    def test_choose_takes_the_best_candidate(self):
        value, score, scores = search.choose(lambda cs: [abs(int(c) - 64) for c in cs], ["32", "64", "128"])
        self.assertEqual((value, score), ("64", 0))
        self.assertEqual(scores, {"32": 32, "64": 0, "128": 64})


class Values(unittest.TestCase):
    def test_a_number_already_parsed_keeps_its_fraction(self):
        self.assertEqual(fit.as_number(0.8), 0.8)  # int(0.8) would give 0
        self.assertEqual(fit.as_number("0.8"), 0.8)
        self.assertEqual(fit.as_number("114"), 114)
        self.assertIsNone(fit.as_number("hashed"))

    def test_the_base_file_follows_the_compute_capability(self):
        self.assertEqual(fit.base_for("9.0"), "hopper.yaml")
        self.assertEqual(fit.base_for("8.9"), "ampere.yaml")
        self.assertEqual(fit.base_for("7.5"), "turing.yaml")
        self.assertEqual(fit.base_for("3.5"), "kepler.yaml")
        self.assertEqual(fit.base_for("1.0"), "g80.yaml")

    def test_the_sm_order_is_the_order_of_first_use_and_needs_every_sm(self):
        self.assertEqual(fit.sm_order([2, 2, 0, 1, 0], 3), [2, 0, 1])
        self.assertIsNone(fit.sm_order([2, 0, 2], 3))

    def test_the_l2_partitions_come_from_the_far_shares_of_the_scan(self):
        q = {"multiProcessorCount": 4, "l2_far_share_by_sm": [0.0, 0.01, 0.5, 0.49],
             "l2_near_hop_cycles": 287.0, "l2_far_hop_cycles": 467.0}
        got = fit.partition_map(q, {})
        self.assertEqual(got["memory.l2.partitions"][0], 2)
        self.assertEqual(got["memory.l2.sm_partitions"][0], [0, 0, 1, 1])
        self.assertEqual(got["memory.l2.far_latency"][0], 180)
        q["l2_far_share_by_sm"] = [0.0] * 4  # nobody far: one partition, whatever the base lists
        got = fit.partition_map(q, {})
        self.assertEqual((got["memory.l2.partitions"][0], got["memory.l2.sm_partitions"][0]), (1, "halves"))

    def test_without_the_scan_a_base_map_for_another_sm_count_becomes_halves(self):
        base = {"memory.l2.sm_partitions": {"value": "[0, 1, 1, 0]"}}
        self.assertEqual(fit.partition_map({"multiProcessorCount": 3}, base),
                         {"memory.l2.sm_partitions": ("halves", "not measured, and the base's map is for another SM count")})
        self.assertEqual(fit.partition_map({"multiProcessorCount": 4}, base), {})


if __name__ == "__main__":
    unittest.main()
