#!/usr/bin/env python3
"""The run ledger survives a power loss: while the daemon keeps finishing runs, the store
is copied as the disk would hold it at that instant — the database, then its WAL, with an
outside reader holding the WAL in place so no checkpoint restarts it between the two
copies — and each copy is opened as a fresh daemon would. Every copy must pass
`PRAGMA integrity_check`, and every run the daemon confirmed finished before the copy
began must be in the copy's ledger with its status: a confirmed reply means committed.
A write torn mid-copy is the case being simulated; SQLite drops the incomplete commit.
Runs inside scripts/desktop-session (COMPANYOS_BUILD_DIR set by CTest)."""

import os
import shutil
import sqlite3
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
import atspi_probe  # noqa: E402
from checks import Checker  # noqa: E402
from daemon_cli import Daemon, cli, data, error, run_record, wait_finished, write_json  # noqa: E402

COPIES = 30


def copy_store(db_path, into):
    """Copies the database, then its WAL, the way the disk holds them now."""
    reader = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM run_ledger").fetchone()  # holds the WAL in place
        os.makedirs(into)
        copy = os.path.join(into, "companyos.db")
        shutil.copyfile(db_path, copy)
        if os.path.exists(db_path + "-wal"):
            shutil.copyfile(db_path + "-wal", copy + "-wal")
        return copy
    finally:
        reader.close()


def ledger_of(copy):
    """(integrity_check answer, {run_id: status}) of an opened copy."""
    db = sqlite3.connect(copy)
    try:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        rows = dict(db.execute("SELECT run_id, status FROM run_ledger").fetchall())
        return integrity, rows
    except sqlite3.Error as e:  # a copy that does not open is the failure being looked for
        return f"cannot read the copy: {e}", {}
    finally:
        db.close()


def main():
    check = Checker("power_loss")
    with tempfile.TemporaryDirectory() as tmp:
        db_path = os.path.join(tmp, "store", "companyos.db")
        daemon = Daemon(args=["--db", db_path])
        try:
            daemon.start()
            definition = {"name": "quick", "actions": [{
                "type": "command", "executable": "true", "argv": [], "cwd": tmp,
                "description": "do nothing, quickly"}]}
            rc, env = cli("automation", "create", write_json(os.path.join(tmp, "quick.json"), definition))
            automation_id = str(data(env).get("id"))
            check.expect(rc == 0, f"the routine is created ({error(env)})")
            for _ in range(2):
                cli("automation", "raise", automation_id)

            confirmed = {}
            problems = []
            for n in range(COPIES):
                rc, env = cli("automation", "start", automation_id)
                run_id = data(env).get("id")
                if rc != 0 or not run_id:
                    problems.append(f"copy {n}: start refused ({error(env)})")
                    continue
                # The run is being written while the disk is copied.
                before = dict(confirmed)
                integrity, rows = ledger_of(copy_store(db_path, os.path.join(tmp, f"copy{n}")))
                lost = {r: s for r, s in before.items() if rows.get(r) != s}
                if integrity != "ok" or lost:
                    problems.append(f"copy {n}: integrity {integrity!r}, lost or changed {lost}")
                finished = wait_finished(run_id)
                confirmed[run_id] = finished.get("status")
            check.expect(len(confirmed) == COPIES and all(s == "succeeded" for s in confirmed.values()),
                         f"{len(confirmed)} runs confirmed succeeded while the store was copied")
            check.expect(not problems, f"every copy opens clean with every confirmed run in its ledger "
                                       f"({COPIES} copies; {problems[:3]})")
            integrity, rows = ledger_of(copy_store(db_path, os.path.join(tmp, "final")))
            check.expect(integrity == "ok" and all(rows.get(r) == s for r, s in confirmed.items()),
                         f"and a copy after the last run has all {len(confirmed)} ({len(rows)} rows)")
        except atspi_probe.ProbeError as e:
            check.expect(False, f"gave up waiting: {e}")
        finally:
            daemon.stop()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
