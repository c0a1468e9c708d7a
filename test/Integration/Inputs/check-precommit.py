#!/usr/bin/env python3
"""check-precommit.py HOOKS_YAML BIN_DIR FILE...

Checks .pre-commit-hooks.yaml the way pre-commit reads it (its manifest
schema: a list of hooks, required and known keys, languages, file types),
then runs each hook as pre-commit would: `entry` + `args` + the FILEs whose
identify tags match `types_or`, with BIN_DIR first on PATH. Prints one line
per hook: "<id>: <files passed> -> exit <code>".
"""
import os
import shlex
import subprocess
import sys

import yaml

REQUIRED = {"id", "name", "entry", "language"}
KNOWN = REQUIRED | {
    "alias", "files", "exclude", "types", "types_or", "exclude_types",
    "additional_dependencies", "args", "always_run", "fail_fast",
    "pass_filenames", "description", "language_version", "log_file",
    "minimum_pre_commit_version", "require_serial", "stages", "verbose"}
LANGUAGES = {"conda", "coursier", "dart", "docker", "docker_image", "dotnet",
             "fail", "golang", "haskell", "lua", "node", "perl", "python",
             "r", "ruby", "rust", "swift", "pygrep", "script", "system"}
# identify's tags for the extensions that matter here.
TAGS = {".c": {"c"}, ".h": {"c", "c++", "header"}, ".cc": {"c++"},
        ".cpp": {"c++"}, ".cxx": {"c++"}, ".hpp": {"c++", "header"},
        ".cu": {"cuda"}, ".py": {"python"}, ".md": {"markdown"}}
KNOWN_TAGS = set().union(*TAGS.values()) | {"text", "file", "binary"}


def fail(msg):
    print("check-precommit: " + msg)
    sys.exit(1)


def main():
    hooks_file, bin_dir, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(hooks_file) as f:
        hooks = yaml.safe_load(f)
    if not isinstance(hooks, list) or not hooks:
        fail("the file must be a non-empty list of hooks")
    ids = set()
    for h in hooks:
        if not isinstance(h, dict):
            fail(f"hook {h!r} is not a mapping")
        missing = REQUIRED - h.keys()
        if missing:
            fail(f"hook {h.get('id')}: missing {sorted(missing)}")
        unknown = h.keys() - KNOWN
        if unknown:
            fail(f"hook {h['id']}: unknown keys {sorted(unknown)}")
        if h["id"] in ids:
            fail(f"duplicate hook id {h['id']}")
        ids.add(h["id"])
        if h["language"] not in LANGUAGES:
            fail(f"hook {h['id']}: unknown language {h['language']}")
        for key in ("types", "types_or", "exclude_types"):
            bad = set(h.get(key, [])) - KNOWN_TAGS
            if bad:
                fail(f"hook {h['id']}: unknown {key} {sorted(bad)}")
        if not isinstance(h.get("args", []), list):
            fail(f"hook {h['id']}: args must be a list")

    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
    for h in hooks:
        wanted = set(h.get("types_or", [])) or None
        passed = [f for f in files
                  if wanted is None or TAGS.get(os.path.splitext(f)[1], set()) & wanted]
        cmd = shlex.split(h["entry"]) + h.get("args", []) + passed
        r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        sys.stdout.write(r.stdout)
        names = " ".join(os.path.basename(f) for f in passed)
        print(f"{h['id']}: {names} -> exit {r.returncode}")


main()
