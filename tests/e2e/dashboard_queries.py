#!/usr/bin/env python3
"""Checks Grafana dashboards the way Grafana would use them, against a real Prometheus.

    dashboard_queries.py --prometheus URL --scrape-interval SECONDS DASHBOARD.json...

The JSON: every dashboard has a uid no other one has, panel ids are unique within a dashboard
(rows and the panels inside collapsed rows included), every panel, target and query variable takes
its data source from the `datasource` variable of type prometheus rather than naming one, and
every panel that draws data has a query.

The queries: the template variables are resolved as Grafana resolves them (`label_values(...)`
through Prometheus, custom variables to their current value, `$__rate_interval` and friends from
the scrape interval and the time range), then every panel target and annotation is evaluated:
range queries over the last --range seconds through /api/v1/query_range, instant targets through
/api/v1/query. A target that errors or returns no data fails, naming dashboard, panel and query;
annotations only have to evaluate (having nothing to mark is normal). A `$variable` nobody defines
also fails. Prints one line per check and exits 1 if any failed.
"""
import argparse
import json
import math
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

DATASOURCE_REFS = ("${datasource}", "$datasource")
# $name, ${name} and ${name:format}: the forms Grafana substitutes.
VARIABLE = re.compile(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)")
LABEL_VALUES = re.compile(r"^\s*label_values\(\s*(.*?)\s*,\s*(\w+)\s*\)\s*$", re.S)


class Report:
    def __init__(self):
        self.failures = 0

    def ok(self, what):
        print(f"ok: {what}")

    def fail(self, what):
        print(f"FAIL: {what}")
        self.failures += 1


def all_panels(panels):
    """Every panel, including those nested inside (collapsed) rows."""
    for panel in panels:
        yield panel
        yield from all_panels(panel.get("panels", []))


def is_datasource_variable(ref):
    if isinstance(ref, str):
        return ref in DATASOURCE_REFS
    return isinstance(ref, dict) and ref.get("uid") in DATASOURCE_REFS


def check_json(name, dashboard, seen_uids, report):
    uid = dashboard.get("uid")
    if not uid:
        report.fail(f"{name}: no uid")
    elif uid in seen_uids:
        report.fail(f"{name}: uid {uid!r} is also the uid of {seen_uids[uid]}")
    else:
        seen_uids[uid] = name
        report.ok(f"{name}: uid {uid!r} is unique")

    variables = dashboard.get("templating", {}).get("list", [])
    datasource = [v for v in variables if v.get("name") == "datasource"]
    if datasource and datasource[0].get("type") == "datasource" and datasource[0].get("query") == "prometheus":
        report.ok(f"{name}: has a prometheus `datasource` variable")
    else:
        report.fail(f"{name}: no `datasource` template variable of type datasource, query prometheus")
    for variable in variables:
        if variable.get("type") == "query" and not is_datasource_variable(variable.get("datasource")):
            report.fail(f"{name}: variable {variable.get('name')!r} names data source "
                        f"{variable.get('datasource')!r} instead of ${{datasource}}")

    ids = {}
    for panel in all_panels(dashboard.get("panels", [])):
        title = panel.get("title", "?")
        if "id" not in panel:
            report.fail(f"{name}: panel {title!r} has no id")
        elif panel["id"] in ids:
            report.fail(f"{name}: panel id {panel['id']} of {title!r} is also the id of {ids[panel['id']]!r}")
        else:
            ids[panel["id"]] = title
        if panel.get("type") == "row":
            continue
        refs = [("panel", panel.get("datasource"))]
        refs += [(f"target {t.get('refId')}", t["datasource"]) for t in panel.get("targets", []) if "datasource" in t]
        for where, ref in refs:
            if not is_datasource_variable(ref):
                report.fail(f"{name}: panel {title!r}: {where} has hard-coded data source {ref!r}, "
                            "not ${datasource}")
        if not any(t.get("expr", "").strip() for t in panel.get("targets", [])):
            report.fail(f"{name}: panel {title!r} has no query")
    for annotation in dashboard.get("annotations", {}).get("list", []):
        if not is_datasource_variable(annotation.get("datasource")):
            report.fail(f"{name}: annotation {annotation.get('name')!r} has hard-coded data source "
                        f"{annotation.get('datasource')!r}")
    report.ok(f"{name}: {len(ids)} panel ids checked")


class Prometheus:
    def __init__(self, url):
        self.url = url.rstrip("/")

    def get(self, path, params):
        """Returns (result, None) or (None, error message)."""
        url = f"{self.url}{path}?{urllib.parse.urlencode(params)}"
        try:
            with urllib.request.urlopen(url, timeout=30) as response:
                body = json.load(response)
        except urllib.error.HTTPError as error:  # Prometheus answers bad queries with 400 + JSON
            try:
                body = json.load(error)
            except ValueError:
                return None, str(error)
        except (OSError, ValueError) as error:
            return None, str(error)
        if body.get("status") != "success":
            return None, f"{body.get('errorType')}: {body.get('error')}"
        return body["data"]["result"], None


def substitute(text, values):
    """Replaces every variable; returns (text, names of the variables nobody defines)."""
    unknown = []

    def replace(match):
        name = match.group(1) or match.group(2)
        if name in values:
            return values[name]
        unknown.append(name)
        return match.group(0)

    return VARIABLE.sub(replace, text), unknown


def seconds(duration):
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h|d)", duration)
    if not match:
        raise ValueError(f"not a Grafana interval: {duration!r}")
    return float(match.group(1)) * units[match.group(2)]


def resolve_variables(name, dashboard, prometheus, end, report):
    """The values of the dashboard's own variables, in order (later ones may use earlier ones)."""
    values = {}
    for variable in dashboard.get("templating", {}).get("list", []):
        var, kind = variable.get("name"), variable.get("type")
        if kind == "datasource":
            values[var] = variable.get("query", "")
        elif kind == "custom":
            current = variable.get("current", {}).get("value")
            values[var] = current if current else variable.get("query", "").split(",")[0].strip()
        elif kind == "query":
            query = variable.get("query")
            query = query.get("query", "") if isinstance(query, dict) else query or ""
            query, _ = substitute(query, values)
            match = LABEL_VALUES.match(query)
            if not match:
                report.fail(f"{name}: variable {var!r}: cannot evaluate {query!r} (only label_values(expr, label))")
                continue
            expr, label = match.groups()
            result, error = prometheus.get("/api/v1/query", {"query": f"group by ({label}) ({expr})", "time": end})
            options = sorted(r["metric"].get(label, "") for r in result or [])
            if error or not options:
                report.fail(f"{name}: variable {var!r}: {query!r} gave no values ({error or 'empty'})")
                continue
            values[var] = options[0]
            report.ok(f"{name}: variable {var!r} = {options[0]!r} (from {query})")
    return values


def check_queries(name, dashboard, prometheus, scrape_interval, range_seconds, report):
    end = time.time()
    values = resolve_variables(name, dashboard, prometheus, end, report)
    default_step = max(scrape_interval, range_seconds / 100)

    def evaluate(where, expr, instant, min_interval, must_have_data):
        # Grafana's step is $__interval: the range over the panel's width, never below the panel's
        # min interval; $__rate_interval is max($__interval + scrape, 4 * scrape).
        step = max(default_step, seconds(min_interval) if min_interval else 0)
        builtins = {
            "__interval": f"{step:g}s", "__interval_ms": f"{step * 1000:g}",
            "__rate_interval": f"{max(step + scrape_interval, 4 * scrape_interval):g}s",
            "__range": f"{range_seconds:g}s", "__range_s": f"{range_seconds:g}",
            "__range_ms": f"{range_seconds * 1000:g}",
        }
        query, unknown = substitute(expr, {**values, **builtins})
        if unknown:
            report.fail(f"{name}: {where}: undefined variable(s) {', '.join('$' + u for u in unknown)} in {expr}")
            return
        if instant:
            result, error = prometheus.get("/api/v1/query", {"query": query, "time": end})
        else:
            # The last point is `end` even when the step is longer than the range (a per-minute
            # bar over a 30 s test), as in Grafana's right-most point.
            start = end - math.floor(range_seconds / step) * step
            result, error = prometheus.get("/api/v1/query_range",
                                           {"query": query, "start": start, "end": end, "step": step})
        if error:
            report.fail(f"{name}: {where}: query failed: {error}: {query}")
        elif must_have_data and not result:
            report.fail(f"{name}: {where}: returned no data: {query}")
        else:
            report.ok(f"{name}: {where}: {len(result)} series")

    for panel in all_panels(dashboard.get("panels", [])):
        if panel.get("type") == "row":
            continue
        for target in panel.get("targets", []):
            if target.get("hide"):
                continue
            where = f"panel {panel.get('title')!r} target {target.get('refId')}"
            evaluate(where, target.get("expr", ""), bool(target.get("instant")) and not target.get("range"),
                     panel.get("interval"), must_have_data=True)
    for annotation in dashboard.get("annotations", {}).get("list", []):
        if annotation.get("expr"):
            evaluate(f"annotation {annotation.get('name')!r}", annotation["expr"], False,
                     annotation.get("step"), must_have_data=False)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prometheus", required=True, help="base URL of the Prometheus server")
    parser.add_argument("--scrape-interval", type=float, required=True, help="seconds")
    parser.add_argument("--range", type=float, default=30, help="seconds of history to query")
    parser.add_argument("dashboards", nargs="+")
    args = parser.parse_args()

    report = Report()
    prometheus = Prometheus(args.prometheus)
    seen_uids = {}
    for path in args.dashboards:
        try:
            with open(path, encoding="utf-8") as f:
                dashboard = json.load(f)
        except (OSError, ValueError) as error:
            report.fail(f"{path}: not readable JSON: {error}")
            continue
        check_json(path, dashboard, seen_uids, report)
        check_queries(path, dashboard, prometheus, args.scrape_interval, args.range, report)
    print(f"{report.failures} check(s) failed" if report.failures else "all dashboard checks passed")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
