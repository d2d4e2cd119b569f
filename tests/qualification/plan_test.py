#!/usr/bin/env python3
"""Table-driven checks of the qualification plan: scaling to --trials N and the order the
trials run in. No display needed."""

import os
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "desktop", "harness"))
import qualification  # noqa: E402
from qualification import BASE_PLAN, interleaved, scaled_plan  # noqa: E402


def total(plan):
    return sum(sum(kinds.values()) for kinds in plan.values())


class ScaledPlanTest(unittest.TestCase):
    def test_the_base_plan_is_the_ci_plan_of_100(self):
        self.assertEqual(total(BASE_PLAN), 100)
        self.assertEqual(scaled_plan(BASE_PLAN, 100), BASE_PLAN)

    def test_scaling_reaches_at_least_the_asked_trials(self):
        for trials in (1, 7, 99, 101, 250, 1000, 1234):
            with self.subTest(trials=trials):
                plan = scaled_plan(BASE_PLAN, trials)
                self.assertGreaterEqual(total(plan), trials)
                # Rounding up adds at most one trial per kind.
                kinds = sum(len(kinds) for kinds in BASE_PLAN.values())
                self.assertLessEqual(total(plan), max(trials, kinds) + kinds)

    def test_every_kind_keeps_at_least_one_trial_and_its_share(self):
        base = {"app": {"x": 9, "y": 1}}
        cases = [
            ("a tenth of the plan", 1, {"x": 1, "y": 1}),
            ("the plan itself", 10, {"x": 9, "y": 1}),
            ("ten times the plan", 100, {"x": 90, "y": 10}),
            ("rounded up", 15, {"x": 14, "y": 2}),
        ]
        for what, trials, wanted in cases:
            with self.subTest(what):
                self.assertEqual(scaled_plan(base, trials), {"app": wanted})

    def test_the_soak_runs_every_kind_of_every_app(self):
        plan = scaled_plan(BASE_PLAN, 1000)
        self.assertEqual({app: set(kinds) for app, kinds in plan.items()},
                         {app: set(kinds) for app, kinds in BASE_PLAN.items()})
        self.assertEqual(total(plan), 1000)


class InterleavedTest(unittest.TestCase):
    def test_round_robin_over_apps_and_kinds(self):
        plan = {"a": {"x": 2, "y": 1}, "b": {"z": 3}}
        self.assertEqual(interleaved(plan), [
            ("a", "x", 0), ("a", "y", 0), ("b", "z", 0),
            ("a", "x", 1), ("b", "z", 1),
            ("b", "z", 2)])

    def test_every_planned_trial_runs_once(self):
        plan = scaled_plan(BASE_PLAN, 300)
        order = interleaved(plan)
        self.assertEqual(len(order), total(plan))
        self.assertEqual(len(set(order)), len(order))

    def test_each_app_runs_only_the_kinds_that_fit_it(self):
        for app, kinds in BASE_PLAN.items():
            with self.subTest(app):
                if app in qualification.REAL_APPS:
                    self.assertLessEqual(set(kinds), set(qualification.REAL_APPS[app].kinds))
                else:
                    self.assertLessEqual(set(kinds), set(qualification.TRIALS))


if __name__ == "__main__":
    unittest.main()
