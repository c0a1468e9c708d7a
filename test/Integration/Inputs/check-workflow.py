#!/usr/bin/env python3
"""check-workflow.py WORKFLOW_YML HELP_TXT [--print-lint-command]

Checks the example GitHub Actions workflow: a well-formed workflow (on,
jobs, runs-on, steps with `uses` or `run`), code-scanning permission, every
roofline-lint option its steps use exists in `roofline-lint --help` (given
as HELP_TXT) with a valid value, roofline-lint runs once (text and SARIF
from one run), the SARIF the lint step writes (--output=...,sarif:FILE or
--format=sarif -o FILE) is the file the upload-sarif step uploads, the
upload runs even when the lint step fails, and a later step fails the job
on the lint step's outcome.
--print-lint-command prints the SARIF step's command, one line, for the
test to run.
"""
import os
import re
import shlex
import sys

import yaml


def fail(msg):
    print("check-workflow: " + msg)
    sys.exit(1)


def lint_commands(script):
    """The roofline-lint command lines in a step's `run` script (the tool
    named as such or by a path)."""
    out = []
    for line in script.replace("\\\n", " ").splitlines():
        tokens = shlex.split(line.strip()) if "roofline-lint" in line else []
        names = [os.path.basename(t) for t in tokens]
        if "roofline-lint" in names:
            out.append(tokens[names.index("roofline-lint"):])
    return out


def main():
    path, help_path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        wf = yaml.safe_load(f)
    with open(help_path) as f:
        help_text = f.read()
    # YAML 1.1 reads the key `on` as true.
    on = wf.get("on", wf.get(True))
    if not isinstance(wf, dict) or not wf.get("name") or on is None:
        fail("a workflow needs name and on")
    if wf.get("permissions", {}).get("security-events") != "write":
        fail("uploading SARIF needs permissions: security-events: write")
    jobs = wf.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        fail("no jobs")
    options = set(re.findall(r"^\s+(--?[a-z][a-z0-9-]*)", help_text, re.M))
    found_sarif = found_upload = found_fail = False
    lint_runs = 0
    for jname, job in jobs.items():
        if "runs-on" not in job or not isinstance(job.get("steps"), list):
            fail(f"job {jname}: needs runs-on and steps")
        lint_ids, sarif_out = {}, None
        for i, step in enumerate(job["steps"]):
            if ("uses" in step) == ("run" in step):
                fail(f"job {jname} step {i}: exactly one of uses/run")
            if "run" in step:
                lint_runs += len(lint_commands(step["run"]))
                for cmd in lint_commands(step["run"]):
                    k = 1
                    while k < len(cmd):
                        tok = cmd[k]
                        if tok.startswith("-"):
                            name, _, value = tok.partition("=")
                            if name not in options:
                                fail(f"step '{step.get('name')}': roofline-lint has no option {name}")
                            if name in ("-p", "-j", "-o") and not value:
                                value = cmd[k + 1]
                                k += 1
                            if name == "--format" and value not in ("text", "json", "sarif"):
                                fail(f"bad --format value {value}")
                            if name == "--fail-on":
                                for p in value.split(","):
                                    if p not in ("memory-bound", "unanalyzable", "capacity",
                                                 "strided-access", "none"):
                                        fail(f"bad --fail-on policy {p}")
                            outputs = []
                            if name == "--output":
                                for spec in value.split(","):
                                    fmt, _, path = spec.partition(":")
                                    if fmt not in ("text", "json", "sarif") or not path:
                                        fail(f"bad --output {spec}")
                                    outputs.append((fmt, path))
                            if name == "-o" and "--format=sarif" in cmd:
                                outputs.append(("sarif", value))
                            for fmt, path in outputs:
                                if fmt != "sarif":
                                    continue
                                sarif_out = path
                                found_sarif = True
                                if step.get("id"):
                                    lint_ids[step["id"]] = step
                                if not step.get("continue-on-error"):
                                    fail("the SARIF step must continue-on-error, or a policy "
                                         "hit skips the upload")
                                if "--print-lint-command" in sys.argv:
                                    # The runner's shell expands $(nproc).
                                    print(" ".join(shlex.quote(c.replace("$(nproc)", "2"))
                                                   for c in cmd))
                        k += 1
                if any(f"steps.{i}.outcome" in str(step.get("if", "")) for i in lint_ids):
                    found_fail = True
            if str(step.get("uses", "")).startswith("github/codeql-action/upload-sarif@"):
                found_upload = True
                if step.get("with", {}).get("sarif_file") != sarif_out:
                    fail(f"upload-sarif uploads {step.get('with', {}).get('sarif_file')}, "
                         f"the lint step writes {sarif_out}")
                if "always()" not in str(step.get("if", "")):
                    fail("upload-sarif must run if: always()")
    if not found_sarif:
        fail("no roofline-lint step writes SARIF (--output=text:-,sarif:FILE)")
    if lint_runs != 1:
        fail(f"roofline-lint runs {lint_runs} times; one run gives text and "
             "SARIF (--output=text:-,sarif:FILE)")
    if not found_upload:
        fail("no github/codeql-action/upload-sarif step")
    if not found_fail:
        fail("no step fails the job on the lint step's outcome")
    if "--print-lint-command" not in sys.argv:
        print("check-workflow: ok")


main()
