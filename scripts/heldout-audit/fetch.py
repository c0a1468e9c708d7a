#!/usr/bin/env python3
"""fetch.py: fetch the held-out corpus (sources.txt) into SRC/OWNER+NAME/PATH.

  fetch.py --src DIR                     # git clone from github.com
  fetch.py --src DIR --git-dir-root ROOT # from local clones ROOT/OWNER+NAME
                                         # (a git directory or a work tree)

Each file is taken at its recorded commit and checked against its recorded
git blob hash; nothing is written into this repository.
"""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_sources():
    rows = []
    for line in open(os.path.join(HERE, "sources.txt")):
        line = line.split("#", 1)[0].split()
        if line:
            rows.append(tuple(line))
    return rows


def git(*args):
    return subprocess.run(["git"] + list(args), check=True, capture_output=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True)
    ap.add_argument("--git-dir-root")
    args = ap.parse_args()
    clones = {}
    for repo, commit, path, blob in read_sources():
        local = repo.replace("/", "+")
        if local not in clones:
            if args.git_dir_root:
                d = os.path.join(args.git_dir_root, local)
                for sub in ("repo", "repo/.git", ".git", ""):
                    if os.path.exists(os.path.join(d, sub, "HEAD")):
                        d = os.path.join(d, sub)
                        break
            else:
                d = os.path.join(args.src, ".clones", local)
                if not os.path.isdir(d):
                    git("clone", "--bare", "https://github.com/%s" % repo, d)
            clones[local] = d
        data = git("--git-dir", clones[local], "show", "%s:%s" % (commit, path))
        out = os.path.join(args.src, local, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as f:
            f.write(data)
        got = git("hash-object", out).decode().strip()
        if got != blob:
            sys.exit("fetch.py: %s: blob %s, sources.txt says %s" % (out, got, blob))
        print("%s %s" % (out, blob))


if __name__ == "__main__":
    main()
