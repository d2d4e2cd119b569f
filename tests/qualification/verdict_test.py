#!/usr/bin/env python3
"""Table-driven checks of verdict.py: every way a trial can pass or fail, and bad input."""

import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict  # noqa: E402
from verdict import (ACT, HARNESS_ERROR, OVER_HALT, PASS, REFUSAL_FAILURE, REFUSE,  # noqa: E402
                     SILENT_INCORRECT_SUCCESS, UNCONFIRMED)

AMBIGUOUS = {"outcome": REFUSE, "codes": ["AMBIGUOUS_TARGET"]}
CLOSED = {"outcome": REFUSE, "codes": ["WINDOW_NOT_FOUND", "STALE_REF"]}
WRITE = {"outcome": ACT, "effect": "cost $5; \"q\" €".encode()}
KILLED = {"outcome": UNCONFIRMED, "codes": ["APP_NOT_FOUND", "WINDOW_NOT_FOUND"]}


def ok(delivery="delivered_unverified", **effects):
    return {"answered": True, "ok": True, "code": None, "delivery": delivery,
            "effects": effects or {"": None}}


def refused(code, delivery="not_delivered", **effects):
    return {"answered": True, "ok": False, "code": code, "delivery": delivery,
            "effects": effects or {"": None}}


def unanswered(**effects):
    return {"answered": False, "ok": None, "code": None, "delivery": None,
            "effects": effects or {"": None}}


def effects(main=None, twin=None):
    return {"": main, ".twin": twin}


class JudgeTest(unittest.TestCase):
    def test_table(self):
        text = WRITE["effect"]
        cases = [
            # (what, expected, observed, verdict)
            ("refused as asked, nothing written", AMBIGUOUS,
             refused("AMBIGUOUS_TARGET", **{"": None, ".twin": None}), PASS),
            ("either accepted code passes", CLOSED, refused("STALE_REF"), PASS),
            ("reported ok where it must refuse", AMBIGUOUS, ok(), SILENT_INCORRECT_SUCCESS),
            ("reported ok and wrote", AMBIGUOUS, ok(**{"": b"x"}), SILENT_INCORRECT_SUCCESS),
            ("no envelope but the effect happened", AMBIGUOUS, unanswered(**{"": b""}),
             SILENT_INCORRECT_SUCCESS),
            ("refused but the twin wrote", AMBIGUOUS,
             refused("AMBIGUOUS_TARGET", **effects(twin=b"t")), REFUSAL_FAILURE),
            ("refused but an empty effect file appeared", AMBIGUOUS,
             refused("AMBIGUOUS_TARGET", **{"": b""}), REFUSAL_FAILURE),
            ("refused with the wrong code", AMBIGUOUS, refused("STALE_REF"), REFUSAL_FAILURE),
            ("refused claiming delivery", AMBIGUOUS,
             refused("AMBIGUOUS_TARGET", delivery="delivered_unverified"), REFUSAL_FAILURE),
            ("refused without a delivery", AMBIGUOUS,
             refused("AMBIGUOUS_TARGET", delivery=None), REFUSAL_FAILURE),
            ("no envelope, nothing written", AMBIGUOUS, unanswered(), HARNESS_ERROR),
            ("acted and wrote exactly the text", WRITE, ok(**{"": text}), PASS),
            ("acted, wrote other bytes", WRITE, ok(**{"": text + b"\n"}),
             SILENT_INCORRECT_SUCCESS),
            ("acted, wrote nothing", WRITE, ok(), SILENT_INCORRECT_SUCCESS),
            ("verified claim does not rescue a wrong file", WRITE,
             ok(delivery="delivered_verified", **{"": b"other"}), SILENT_INCORRECT_SUCCESS),
            ("refused where it should act", WRITE, refused("STALE_REF"), OVER_HALT),
            ("acted, no envelope", WRITE, unanswered(**{"": text}), HARNESS_ERROR),
            # The app was killed while the action ran: it began, its effect never came.
            ("killed mid-action: ok, honestly unverified", KILLED, ok(), PASS),
            ("killed mid-action: refused, said it was delivered", KILLED,
             refused("APP_NOT_FOUND", delivery="delivered_unverified"), PASS),
            ("killed mid-action: claimed a verified effect", KILLED,
             ok(delivery="delivered_verified"), SILENT_INCORRECT_SUCCESS),
            ("killed mid-action: refused, claiming nothing was delivered", KILLED,
             refused("APP_NOT_FOUND"), REFUSAL_FAILURE),
            ("killed mid-action: refused with another code", KILLED,
             refused("INTERNAL", delivery="delivered_unverified"), REFUSAL_FAILURE),
            ("killed mid-action: ok without a delivery", KILLED, ok(delivery=None),
             REFUSAL_FAILURE),
            ("killed mid-action, but the effect came", KILLED, ok(**{"": b"x"}), HARNESS_ERROR),
            ("killed mid-action, no envelope", KILLED, unanswered(), HARNESS_ERROR),
        ]
        for what, expected, observed, wanted in cases:
            with self.subTest(what):
                self.assertEqual(verdict.judge(expected, observed), wanted)

    def test_a_refused_setup_step_is_an_over_halt(self):
        observed = ok(**{"": WRITE["effect"]})
        observed["setup_refused"] = True
        self.assertEqual(verdict.judge(WRITE, observed), OVER_HALT)

    def test_bad_expectations_raise(self):
        cases = [
            ("unknown outcome", {"outcome": "maybe"}),
            ("no outcome", {}),
            ("refusal without codes", {"outcome": REFUSE, "codes": []}),
            ("unconfirmed without codes", {"outcome": UNCONFIRMED}),
            ("act with text instead of bytes", {"outcome": ACT, "effect": "text"}),
            ("act without effect", {"outcome": ACT}),
        ]
        for what, expected in cases:
            with self.subTest(what), self.assertRaises(ValueError):
                verdict.judge(expected, ok())

    def test_observations_without_effect_files_raise(self):
        for what, observed in (("no effects key", {"answered": True, "ok": True}),
                               ("empty effects", {**ok(), "effects": {}}),
                               ("effects not a dict", {**ok(), "effects": [None]})):
            with self.subTest(what), self.assertRaises(ValueError):
                verdict.judge(AMBIGUOUS, observed)


class ReplyFactsTest(unittest.TestCase):
    def test_table(self):
        cases = [
            ("ok reply", 0, {"ok": True, "data": {"delivery": "delivered_verified"}},
             (True, True, None, "delivered_verified")),
            ("error reply", 1, {"ok": False, "error": {
                "code": "AMBIGUOUS_TARGET", "details": {"delivery": "not_delivered"}}},
             (True, False, "AMBIGUOUS_TARGET", "not_delivered")),
            ("error without details", 1, {"ok": False, "error": {"code": "STALE_REF"}},
             (True, False, "STALE_REF", None)),
            ("ok envelope but a failing exit status", 1, {"ok": True, "data": {}},
             (False, True, None, None)),
            ("error envelope but exit 0", 0, {"ok": False, "error": {"code": "STALE_REF"}},
             (False, False, "STALE_REF", None)),
            ("no envelope (usage error)", 2, None, (False, None, None, None)),
            ("not an object", 1, ["ok"], (False, None, None, None)),
            ("ok not a boolean", 0, {"ok": "true"}, (False, None, None, None)),
            ("error without a code", 1, {"ok": False, "error": {}}, (False, None, None, None)),
            ("error not an object", 1, {"ok": False, "error": "boom"}, (False, None, None, None)),
            ("data not an object", 0, {"ok": True, "data": []}, (True, True, None, None)),
        ]
        for what, status, envelope, wanted in cases:
            with self.subTest(what):
                self.assertEqual(verdict.reply_facts(status, envelope), wanted)


class MetricsTest(unittest.TestCase):
    def test_percentiles_by_nearest_rank(self):
        values = list(range(1, 21))  # 1..20
        for percent, wanted in ((50, 10), (95, 19), (100, 20), (1, 1)):
            with self.subTest(percent=percent):
                self.assertEqual(verdict.percentile(values, percent), wanted)
        self.assertEqual(verdict.percentile([7.5], 95), 7.5)
        self.assertIsNone(verdict.percentile([], 50))

    def test_bad_percentiles_raise(self):
        for percent in (0, 101, -5, 0.5, "50", None):
            with self.subTest(percent=percent), self.assertRaises(ValueError):
                verdict.percentile([1, 2], percent)

    def test_metrics_count_each_failure_kind(self):
        records = [
            {"verdict": PASS, "latency_ms": 10, "cleanup_verified": True},
            {"verdict": PASS, "latency_ms": 30, "cleanup_verified": True, "timing_ok": True},
            {"verdict": SILENT_INCORRECT_SUCCESS, "latency_ms": 20, "cleanup_verified": True},
            {"verdict": OVER_HALT, "latency_ms": None, "cleanup_verified": False},
            {"verdict": PASS, "latency_ms": 40, "cleanup_verified": True, "timing_ok": False},
        ]
        summary = verdict.metrics(records)
        self.assertEqual(summary["trials"], 5)
        self.assertEqual(summary["passed"], 3)
        self.assertEqual(summary["silent_incorrect_successes"], 1)
        self.assertEqual(summary["over_halts"], 1)
        self.assertEqual(summary["refusal_failures"], 0)
        self.assertEqual(summary["cleanup_failures"], 1)
        self.assertEqual(summary["timing_violations"], 1)
        self.assertEqual(summary["latency_ms"], {"p50": 20, "p95": 40, "count": 4})
        self.assertEqual(verdict.failed(summary),
                         ["silent_incorrect_successes", "over_halts", "timing_violations",
                          "cleanup_failures"])

    def test_a_clean_run_fails_nothing(self):
        summary = verdict.metrics([{"verdict": PASS, "latency_ms": 5, "cleanup_verified": True}])
        self.assertEqual(verdict.failed(summary), [])

    def test_no_trials_has_no_latency(self):
        self.assertEqual(verdict.metrics([])["latency_ms"], {"p50": None, "p95": None, "count": 0})


if __name__ == "__main__":
    unittest.main()
