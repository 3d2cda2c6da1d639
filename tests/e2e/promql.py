#!/usr/bin/env python3
"""Evaluates one PromQL instant query against a Prometheus server and prints the values, one per
line (`label=value,...<TAB>value`). Exit 1 with the server's error when the query fails."""
import json
import sys
import urllib.parse
import urllib.request


def main() -> int:
    base, query = sys.argv[1], sys.argv[2]
    url = base.rstrip("/") + "/api/v1/query?" + urllib.parse.urlencode({"query": query})
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body = json.load(response)
    except Exception as error:  # the caller prints why the query failed
        print(f"query failed: {error}", file=sys.stderr)
        return 1
    if body.get("status") != "success":
        print(f"query failed: {body}", file=sys.stderr)
        return 1
    result = body["data"]["result"]
    if body["data"]["resultType"] == "scalar":
        print(result[1])
        return 0
    for sample in result:
        labels = ",".join(f"{k}={v}" for k, v in sorted(sample["metric"].items()))
        print(f"{labels}\t{sample['value'][1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
