#!/usr/bin/env python3
"""check-sarif.py SCHEMA FILE [--mutate=NAME]

Validates a SARIF log against the SARIF 2.1.0 JSON schema (the subset in
this directory) with python3-jsonschema, then checks what the schema cannot
express: every result's ruleId names a rule and its ruleIndex points at it,
every rule's helpUri is an absolute URI to docs/diagnostics/<rule>.md (and,
for file:// URIs, the page exists) or, without one, its help text names that
page, and relative artifact URIs name a uriBaseId that originalUriBaseIds
defines. Exit 0 when valid, 1 when not.

--mutate=NAME first breaks the log on purpose (the negative controls of the
lit test: the checker must reject each one).
"""
import json
import os
import sys
import urllib.parse

try:
    import jsonschema
except ImportError:
    sys.stderr.write("check-sarif: python3-jsonschema is not installed "
                     "(scripts/setup.sh installs it)\n")
    sys.exit(2)


def mutate(log, name):
    run = log["runs"][0]
    res = run["results"][0]
    if name == "level":
        res["level"] = "info"
    elif name == "no-message":
        del res["message"]
    elif name == "unknown-property":
        res["severity"] = "high"
    elif name == "rule-id":
        res["ruleId"] = "roofline-nonexistent"
    elif name == "rule-index":
        res["ruleIndex"] = res.get("ruleIndex", 0) + 1
    elif name == "start-line":
        res["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    elif name == "version":
        log["version"] = "2.0.0"
    elif name == "help-uri":
        run["tool"]["driver"]["rules"][0]["helpUri"] = "docs/x.md"
    elif name == "base-id":
        res["locations"][0]["physicalLocation"]["artifactLocation"][
            "uriBaseId"] = "%NOWHERE%"
    elif name == "suppression-kind":
        res["suppressions"] = [{"kind": "inline"}]
    elif name == "no-driver-name":
        del run["tool"]["driver"]["name"]
    else:
        raise SystemExit("check-sarif: unknown mutation " + name)


def semantic_errors(log):
    errors = []
    for r, run in enumerate(log.get("runs") or []):
        rules = run["tool"]["driver"].get("rules", [])
        ids = [rule["id"] for rule in rules]
        for i, rule in enumerate(rules):
            page = "docs/diagnostics/" + rule["id"] + ".md"
            if "helpUri" not in rule:
                # No docs URL: the help names the page in the repository.
                if page not in rule.get("help", {}).get("text", ""):
                    errors.append(f"rule {rule['id']}: neither helpUri nor help names {page}")
                continue
            uri = rule["helpUri"]
            parsed = urllib.parse.urlparse(uri)
            if not parsed.scheme:
                errors.append(f"rule {rule['id']}: helpUri '{uri}' is not absolute")
            elif not uri.endswith("docs/diagnostics/" + rule["id"] + ".md"):
                errors.append(f"rule {rule['id']}: helpUri '{uri}' is not its docs page")
            elif parsed.scheme == "file" and not os.path.isfile(
                    urllib.parse.unquote(parsed.path)):
                errors.append(f"rule {rule['id']}: no docs page at {parsed.path}")
        bases = run.get("originalUriBaseIds", {})
        for b, loc in bases.items():
            if not loc.get("uri", "").endswith("/"):
                errors.append(f"originalUriBaseIds[{b}] must end with '/'")
        for k, res in enumerate(run.get("results") or []):
            where = f"runs[{r}].results[{k}]"
            rid = res.get("ruleId")
            if rid not in ids:
                errors.append(f"{where}: ruleId '{rid}' is not a rule")
            elif "ruleIndex" in res and (res["ruleIndex"] >= len(ids) or
                                         ids[res["ruleIndex"]] != rid):
                errors.append(f"{where}: ruleIndex {res['ruleIndex']} is not '{rid}'")
            for loc in res.get("locations", []):
                art = loc.get("physicalLocation", {}).get("artifactLocation", {})
                base = art.get("uriBaseId")
                if base is not None and base not in bases:
                    errors.append(f"{where}: uriBaseId '{base}' is not defined")
                if base is not None and urllib.parse.urlparse(art["uri"]).scheme:
                    errors.append(f"{where}: uri with a uriBaseId must be relative")
    return errors


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--mutate=")]
    mutations = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--mutate=")]
    with open(args[0]) as f:
        schema = json.load(f)
    with open(args[1]) as f:
        log = json.load(f)
    for m in mutations:
        mutate(log, m)
    validator = jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = [f"schema: {'/'.join(str(p) for p in e.absolute_path)}: {e.message}"
              for e in sorted(validator.iter_errors(log), key=str)]
    errors += semantic_errors(log)
    if errors:
        for e in errors:
            print("check-sarif: " + e)
        sys.exit(1)
    runs = log["runs"]
    print(f"check-sarif: valid: {len(runs[0]['results'])} results, "
          f"{len(runs[0]['tool']['driver'].get('rules', []))} rules")


main()
