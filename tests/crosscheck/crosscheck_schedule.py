#!/usr/bin/env python3
"""Cross-checks companyos_schedule's trigger times against an independent computation.

For a few hundred random cron expressions and IANA zones (seeded; the seed is printed), the
triggers that the C++ helper `next_occurrences --batch` reports for a window are compared
with a brute-force scan in Python: every UTC minute of the window is converted to local time
with zoneinfo and tested against the expression. A local time in a DST gap is never produced
by any UTC minute, so it never fires; a repeated local time is produced twice, so it fires
twice. Any difference fails the test.

Standard library only. Zones are read from the system tz database, the same files date/tz
reads. Windows end before 2037: date/tz uses the explicit transitions in those files, which
end in 2037, while zoneinfo continues with the file's rule string.

Usage: crosscheck_schedule.py --helper PATH [--seed N] [--cases N]
"""

import argparse
import datetime as dt
import os
import random
import subprocess
import sys
import zoneinfo

ZONES = [
    "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Jakarta",
    "Europe/London", "Europe/Dublin", "America/Los_Angeles", "America/Santiago",
    "America/Havana", "America/St_Johns", "America/Sao_Paulo", "America/Nuuk",
    "Australia/Adelaide", "Pacific/Auckland", "Pacific/Chatham", "Pacific/Kiritimati",
    "Pacific/Pago_Pago", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tehran", "Asia/Gaza",
    "Africa/Casablanca", "Africa/Cairo", "Antarctica/Troll",
]
MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
ALIASES = {
    "@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *",
    "@weekly": "0 0 * * 0", "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
}
# (low, high, names) per field; day of week 7 is Sunday again.
FIELDS = [(0, 59, None), (0, 23, None), (1, 31, None), (1, 12, MONTH_NAMES), (0, 7, DAY_NAMES)]

FIRST_START = int(dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc).timestamp())
LAST_END = int(dt.datetime(2036, 12, 31, tzinfo=dt.timezone.utc).timestamp())
WEEK = 7 * 86400


class Cron:
    """A cron expression as plain value sets, with Vixie's day rule."""

    def __init__(self, values, dom_starred, dow_starred):
        self.minutes, self.hours, self.doms, self.months, dows = values
        self.dows = {0 if d == 7 else d for d in dows}
        self.both_days_required = dom_starred or dow_starred

    def day_matches(self, day):
        if day.month not in self.months:
            return False
        by_dom = day.day in self.doms
        by_dow = day.isoweekday() % 7 in self.dows
        return (by_dom and by_dow) if self.both_days_required else (by_dom or by_dow)

    def matches(self, local):
        return (local.minute in self.minutes and local.hour in self.hours
                and self.day_matches(local.date()))

    def ever_fires(self):
        # 28 years hold every date on every weekday.
        day = dt.date(2024, 1, 1)
        for _ in range(28 * 366):
            if self.day_matches(day):
                return True
            day += dt.timedelta(days=1)
        return False


def spell(value, names, rng, ends_range_after=None):
    # The name sun is day 0, except where it ends a range that starts later (fri-sun).
    seven_by_name = ends_range_after is not None and ends_range_after > 0
    if names and rng.random() < 0.5 and (len(names) != 7 or value != 7 or seven_by_name):
        name = names[value % 7 if len(names) == 7 else value - 1]
        return rng.choice([name, name.upper(), name.capitalize()])
    return str(value)


def random_item(rng, field):
    """One list item as text, with the values it selects."""
    low, high, names = FIELDS[field]
    kind = rng.choice(["value", "value", "range", "range_step", "star_step", "start_step"])
    if field == 1 and kind == "value" and rng.random() < 0.6:
        a = rng.choice([0, 1, 2, 3, 23])  # the hours where clocks change
    else:
        a = rng.randint(low, high)
    if kind == "value":
        return spell(a, names, rng), {a}
    step = rng.randint(1, min(high - low + 1, 7 if field == 4 else 20))
    if kind == "star_step":
        return f"*/{step}", set(range(low, high + 1, step))
    if kind == "start_step":
        return f"{spell(a, names, rng)}/{step}", set(range(a, high + 1, step))
    b = rng.randint(a, high)
    text = f"{spell(a, names, rng)}-{spell(b, names, rng, ends_range_after=a)}"
    if kind == "range":
        return text, set(range(a, b + 1))
    return f"{text}/{step}", set(range(a, b + 1, step))


def random_field(rng, field):
    low, high, _ = FIELDS[field]
    # Day of month, month and day of week are mostly '*', as in real schedules.
    if rng.random() < (0.15, 0.25, 0.7, 0.75, 0.65)[field]:
        return "*", set(range(low, high + 1))
    items = [random_item(rng, field) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    return ",".join(text for text, _ in items), set().union(*(values for _, values in items))


def random_expression(rng):
    if rng.random() < 0.05:
        alias = rng.choice(sorted(ALIASES))
        fields = ALIASES[alias].split()
        values = [set(range(lo, hi + 1)) if f == "*" else {int(f)}
                  for f, (lo, hi, _) in zip(fields, FIELDS)]
        return alias, Cron(values, fields[2] == "*", fields[4] == "*")
    texts, values = zip(*(random_field(rng, field) for field in range(5)))
    return " ".join(texts), Cron(list(values), texts[2].startswith("*"), texts[4].startswith("*"))


def system_zone_dir():
    for directory in zoneinfo.TZPATH:
        if os.path.isfile(os.path.join(directory, "UTC")):
            return directory
    sys.exit("crosscheck: no system tz database on zoneinfo.TZPATH (install tzdata)")


def load_zone(directory, name):
    with open(os.path.join(directory, name), "rb") as file:
        return zoneinfo.ZoneInfo.from_file(file, key=name)


def offset_changes(zone, start, end):
    """UTC hours in which the zone's offset changes (changes are months apart here)."""
    changes = []
    offset_at = lambda instant: dt.datetime.fromtimestamp(instant, zone).utcoffset()
    for day in range(start, end, 86400):
        if offset_at(day) != offset_at(day + 86400):
            changes.extend(hour for hour in range(day, day + 86400, 3600)
                           if offset_at(hour) != offset_at(hour + 3600))
    return changes


def brute_force(cron, zone, after, limit):
    """Every UTC minute after `after` whose local time matches, in UTC order, up to a week
    past the first one (or up to `limit` when none); returns them and where the scan ended."""
    found = []
    until = limit
    first = (after // 60 + 1) * 60
    one_day = dt.timedelta(days=1)
    hour = first - first % 3600
    while hour < until:
        start = dt.datetime.fromtimestamp(hour, zone)
        end = dt.datetime.fromtimestamp(hour + 3599, zone)
        if start.utcoffset().total_seconds() % 60:
            sys.exit(f"crosscheck: {zone.key} has a sub-minute offset at {hour}")
        # Skipping an hour only saves time: with one offset through the hour (offsets here
        # change months apart) its local minutes lie between the local times of its ends;
        # across an offset change they lie within a day of the dates of its ends.
        steady = start.utcoffset() == end.utcoffset()
        dates = (start.date(), end.date()) if steady else (
            start.date() - one_day, start.date(), end.date(), end.date() + one_day)
        skip = not any(cron.day_matches(d) for d in dates) or (
            steady and start.hour not in cron.hours and end.hour not in cron.hours)
        if not skip:
            for minute in range(max(hour, first), min(hour + 3600, until), 60):
                if cron.matches(dt.datetime.fromtimestamp(minute, zone)):
                    if not found:
                        until = min(until, minute + WEEK)
                    found.append(minute)
        hour += 3600
    return found, until


def make_cases(rng, count, zone_dir):
    zones = {name: load_zone(zone_dir, name) for name in ZONES}
    changes = {name: offset_changes(zone, FIRST_START, LAST_END - 400 * 86400)
               for name, zone in zones.items()}
    cases = []
    for _ in range(count):
        expression, cron = random_expression(rng)
        name = rng.choice(ZONES)
        if changes[name] and rng.random() < 0.7:
            # Start a few days before an offset change so the window crosses it.
            after = rng.choice(changes[name]) - rng.randint(0, 4 * 86400)
        else:
            after = rng.randint(FIRST_START, LAST_END - 400 * 86400)
        cases.append((expression, name, zones[name], cron, after))
    return cases


def local_text(instant, zone):
    return dt.datetime.fromtimestamp(instant, zone).strftime("%Y-%m-%d %H:%M %Z (UTC%z)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--helper", required=True, help="path of the next_occurrences program")
    parser.add_argument("--seed", type=int, default=random.SystemRandom().randrange(2**32))
    parser.add_argument("--cases", type=int, default=300)
    args = parser.parse_args()
    print(f"crosscheck: seed {args.seed}, {args.cases} cases", flush=True)

    rng = random.Random(args.seed)
    cases = make_cases(rng, args.cases, system_zone_dir())
    windows = []
    expectations = []
    for _, _, zone, cron, after in cases:
        # A week from the first trigger, which a sparse expression may reach years later.
        until, expected = after + WEEK, None
        if cron.ever_fires():
            expected, until = brute_force(cron, zone, after, min(after + 4 * 366 * 86400, LAST_END))
        windows.append(until)
        expectations.append(expected)

    batch = "".join(f"{e}\t{n}\t{a}\t{u}\n" for (e, n, _, _, a), u in zip(cases, windows))
    reply = subprocess.run([args.helper, "--batch"], input=batch, capture_output=True,
                           text=True, check=True).stdout.splitlines()
    if len(reply) != len(cases):
        sys.exit(f"crosscheck: helper answered {len(reply)} of {len(cases)} lines")

    failures = 0
    compared = 0
    for (expression, name, zone, cron, after), until, expected, line in zip(
            cases, windows, expectations, reply):
        where = f'"{expression}" in {name} after {after} ({local_text(after, zone)}) until {until}'
        if expected is None:
            if not line.startswith("error:") or "never fires" not in line:
                failures += 1
                print(f"MISMATCH {where}: never fires, but the helper said: {line}")
            continue
        if line.startswith("error:"):
            failures += 1
            print(f"MISMATCH {where}: helper refused a valid expression: {line}")
            continue
        ours = [int(t) for t in line.split()]
        compared += len(expected)
        if not expected:
            print(f"NOTE {where}: no trigger in the window")
        if ours != expected:
            failures += 1
            missing = sorted(set(expected) - set(ours))[:5]
            extra = sorted(set(ours) - set(expected))[:5]
            print(f"MISMATCH {where}: {len(ours)} triggers, brute force {len(expected)}")
            for t in missing:
                print(f"  missing {t} = {local_text(t, zone)}")
            for t in extra:
                print(f"  extra   {t} = {local_text(t, zone)}")
            if not missing and not extra:
                print("  same instants, different count (a duplicate) or order")

    print(f"crosscheck: {len(cases)} cases, {compared} triggers compared, {failures} failing")
    if failures:
        print(f"crosscheck: reproduce with --seed {args.seed} --cases {args.cases}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
