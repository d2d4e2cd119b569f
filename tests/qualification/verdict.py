"""Judges one qualification trial from the outside oracle (the fixture's effect files) and
the CLI's reply, and sums trials into the suite's metrics. Pure functions: no desktop needed,
so verdict_test.py checks every rule.

A trial expects either to ACT (the effect file must then hold exactly the asked bytes), to
REFUSE with one of a few error codes (every effect file must then stay absent and the reply
must say nothing was delivered), or — when the app is killed while the action runs — to end
UNCONFIRMED (the action began, its effect never came: the reply must not claim a verified
effect, nor that nothing was delivered). The tool's own "ok" never counts as success by
itself.
"""

ACT = "act"
REFUSE = "refuse"
UNCONFIRMED = "unconfirmed"

PASS = "pass"
SILENT_INCORRECT_SUCCESS = "silent_incorrect_success"
OVER_HALT = "over_halt"
REFUSAL_FAILURE = "refusal_failure"
HARNESS_ERROR = "harness_error"

FAILING_METRICS = ("silent_incorrect_successes", "over_halts", "refusal_failures",
                   "harness_errors", "timing_violations", "cleanup_failures")


def reply_facts(exit_status, envelope):
    """What a `companyos --json` run answered: (answered, ok, code, delivery).

    answered is False when there is no well-formed envelope (a crash, a usage error, an
    unreachable daemon), so the run neither acted nor refused in the protocol's terms."""
    if not isinstance(envelope, dict) or not isinstance(envelope.get("ok"), bool):
        return False, None, None, None
    if envelope["ok"]:
        data = envelope.get("data")
        delivery = data.get("delivery") if isinstance(data, dict) else None
        return exit_status == 0, True, None, delivery
    error = envelope.get("error")
    if not isinstance(error, dict) or not isinstance(error.get("code"), str):
        return False, None, None, None
    details = error.get("details")
    delivery = details.get("delivery") if isinstance(details, dict) else None
    return exit_status == 1, False, error["code"], delivery


def judge(expected, observed):
    """One of PASS, SILENT_INCORRECT_SUCCESS, OVER_HALT, REFUSAL_FAILURE, HARNESS_ERROR.

    EXPECTED: {"outcome": ACT, "effect": bytes}, or {"outcome": REFUSE or UNCONFIRMED,
    "codes": [str]}.
    OBSERVED: {"answered", "ok", "code", "delivery"} as reply_facts gives them, plus
    "effects": {file suffix: bytes or None} and, for ACT, "setup_refused": whether a
    preparing action (e.g. set-value before a click) was refused."""
    outcome = expected.get("outcome")
    effects = observed.get("effects")
    if not isinstance(effects, dict) or not effects:
        raise ValueError("observed effects must name at least one effect file")
    if outcome == REFUSE:
        codes = expected.get("codes")
        if not codes:
            raise ValueError("a refusal trial needs the codes it accepts")
        acted = any(content is not None for content in effects.values())
        if not observed.get("answered"):
            return SILENT_INCORRECT_SUCCESS if acted else HARNESS_ERROR
        if observed.get("ok"):
            return SILENT_INCORRECT_SUCCESS
        if acted or observed.get("code") not in codes or \
                observed.get("delivery") != "not_delivered":
            return REFUSAL_FAILURE
        return PASS
    if outcome == UNCONFIRMED:
        codes = expected.get("codes")
        if not codes:
            raise ValueError("an unconfirmed trial needs the codes it accepts")
        if any(content is not None for content in effects.values()):
            return HARNESS_ERROR  # the effect came after all: the kill did not land mid-action
        if not observed.get("answered"):
            return HARNESS_ERROR
        if observed.get("delivery") == "delivered_verified":
            return SILENT_INCORRECT_SUCCESS
        if observed.get("ok"):
            return PASS if observed.get("delivery") == "delivered_unverified" else \
                REFUSAL_FAILURE
        if observed.get("code") not in codes or observed.get("delivery") == "not_delivered":
            return REFUSAL_FAILURE
        return PASS
    if outcome == ACT:
        wanted = expected.get("effect")
        if not isinstance(wanted, bytes):
            raise ValueError("an acting trial needs the exact effect bytes it expects")
        if observed.get("setup_refused"):
            return OVER_HALT
        if not observed.get("answered"):
            return HARNESS_ERROR
        if not observed.get("ok"):
            return OVER_HALT
        return PASS if effects.get("") == wanted else SILENT_INCORRECT_SUCCESS
    raise ValueError(f"unknown expected outcome {outcome!r}")


def percentile(values, percent):
    """Nearest-rank percentile of VALUES (PERCENT a whole number, 1 to 100); None for no
    values."""
    if not isinstance(percent, int) or not 1 <= percent <= 100:
        raise ValueError(f"percentile must be a whole number from 1 to 100, got {percent!r}")
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) * percent + 99) // 100  # ceil(n * percent / 100) in integers
    return ordered[rank - 1]


def metrics(records):
    """The suite's metrics from trial records ({"verdict", "latency_ms",
    "cleanup_verified", "timing_ok"} each)."""
    def count(verdict):
        return sum(1 for record in records if record["verdict"] == verdict)

    latencies = [record["latency_ms"] for record in records
                 if record.get("latency_ms") is not None]
    return {
        "trials": len(records),
        "passed": count(PASS),
        "silent_incorrect_successes": count(SILENT_INCORRECT_SUCCESS),
        "over_halts": count(OVER_HALT),
        "refusal_failures": count(REFUSAL_FAILURE),
        "harness_errors": count(HARNESS_ERROR),
        "timing_violations": sum(1 for record in records if record.get("timing_ok") is False),
        "cleanup_failures": sum(1 for record in records if not record.get("cleanup_verified")),
        "latency_ms": {"p50": percentile(latencies, 50), "p95": percentile(latencies, 95),
                       "count": len(latencies)},
    }


def failed(summary):
    """The failing metrics (everything but latency) that are not zero."""
    return [name for name in FAILING_METRICS if summary.get(name)]
