#!/usr/bin/env python3
"""Checks a `flightrec snapshot --format json` document against docs/SNAPSHOT.md.

Usage: check_snapshot_json.py FILE
Exits 1 naming the first field that is missing or has the wrong type. On success prints
"schema ok", then one line per process: pid, user and comm (comm as a JSON string).
"""
import json
import sys

INT = (int,)
NUM = (int, float)
STR = (str,)
BOOL = (bool,)

TOP = {
    "schema_version": INT, "time": STR, "time_unix_ns": INT, "hostname": STR,
    "kernel_release": STR, "boot_time": STR, "boot_time_unix_ns": INT, "system": (list,),
    "process_counts": (dict,), "processes": (list,), "errors": (list,),
}
SYSTEM = {"name": STR, "labels": (dict,), "value": NUM, "unit": STR, "kind": STR, "source": STR}
COUNTS = {"listed": INT, "read": INT, "vanished": INT}
PROCESS = {
    "pid": INT, "ppid": INT, "user": STR, "uid": INT + (type(None),),
    "euid": INT + (type(None),), "state": STR, "comm": STR, "cmdline": STR,
    "cmdline_truncated": BOOL, "kernel_thread": BOOL, "utime_seconds": NUM,
    "stime_seconds": NUM, "start_time": STR, "start_time_unix_ns": INT, "rss_bytes": INT,
    "vsz_bytes": INT, "threads": INT, "minflt": INT, "majflt": INT, "priority": INT, "nice": INT,
}


def check(obj, fields, where):
    for name, types in fields.items():
        if name not in obj:
            sys.exit(f"{where}: missing field {name}")
        value = obj[name]
        # bool is an int in Python; only fields declared bool may hold one
        if isinstance(value, bool) and bool not in types:
            sys.exit(f"{where}.{name}: bool where {types} expected")
        if not isinstance(value, types):
            sys.exit(f"{where}.{name}: {type(value).__name__} where {types} expected")


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    check(doc, TOP, "snapshot")
    if doc["schema_version"] != 1:
        sys.exit(f"schema_version is {doc['schema_version']}, expected 1")
    for i, value in enumerate(doc["system"]):
        check(value, SYSTEM, f"system[{i}]")
        if value["kind"] not in ("counter", "gauge"):
            sys.exit(f"system[{i}].kind is {value['kind']}")
    check(doc["process_counts"], COUNTS, "process_counts")
    if doc["process_counts"]["read"] != len(doc["processes"]):
        sys.exit("process_counts.read differs from the number of processes")
    for i, process in enumerate(doc["processes"]):
        check(process, PROCESS, f"processes[{i}]")
        if len(process["state"]) != 1:
            sys.exit(f"processes[{i}].state is not one character")
    print("schema ok")
    for process in doc["processes"]:
        print(process["pid"], process["user"], json.dumps(process["comm"]))


if __name__ == "__main__":
    main()
