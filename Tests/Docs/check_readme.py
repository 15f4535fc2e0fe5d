#!/usr/bin/env python3
"""The README keeps its promises: at most 150 lines, a folder map that names every folder the
tree has, and every ```sh block runs as written (exit 0), in order, from the repository root.

`make test` is the one command not run again here: CI's first step is exactly that command, and
this check verifies that `.ci/run` runs it (running the suite from inside CI twice proves nothing
more). Usage: check_readme.py [--map-only] [REPO]. Exit 0 when everything holds, 1 otherwise."""
import os
import re
import subprocess
import sys

MAX_LINES = 150


def sh_blocks(text):
    return [m.group(1) for m in re.finditer(r"^```sh\n(.*?)^```", text, re.S | re.M)]


def mapped_folders(text):
    match = re.search(r"<!-- folder-map:begin -->(.*?)<!-- folder-map:end -->", text, re.S)
    if not match:
        return None
    folders = set()
    for row in match.group(1).splitlines():
        if not row.startswith("| `"):
            continue
        first_cell = row.split("|")[1]
        names = re.findall(r"`([^`]+)`", first_cell)
        base = None
        for name in names:
            name = name.rstrip("/")
            if "/" in name:
                base = name.rsplit("/", 1)[0]
                folders.add(name)
            elif base is not None:
                folders.add(base + "/" + name)
            else:
                folders.add(name)
    return folders


def tree_folders(repo):
    """Top-level folders, each folder of Sources/, and each folder of a Sources/ module, as git
    tracks them."""
    files = subprocess.run(
        ["git", "ls-files"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.split("\n")
    folders = set()
    for path in files:
        parts = path.split("/")[:-1]
        if not parts or parts[0].startswith("."):
            continue
        folders.add(parts[0])
        if parts[0] == "Sources":
            for depth in (2, 3):
                if len(parts) >= depth:
                    folder = "/".join(parts[:depth])
                    # a module's include/ or a DocC catalog's resources are part of their parent
                    if not re.search(r"/(include|Resources)$", folder) and ".docc/" not in folder:
                        folders.add(folder)
    return folders


def covered(folder, mapped):
    """Listed itself; or a top-level folder whose subfolders are listed; or deeper than the map
    goes (a subfolder of a listed module folder)."""
    if folder in mapped:
        return True
    if "/" not in folder:
        return any(m.startswith(folder + "/") for m in mapped)
    return any(folder.startswith(m + "/") and m.count("/") >= 2 for m in mapped)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    map_only = "--map-only" in sys.argv
    repo = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "..", ".."))
    text = open(os.path.join(repo, "README.md"), encoding="utf-8").read()
    failures = []

    lines = text.count("\n")
    if lines > MAX_LINES:
        failures.append(f"README.md has {lines} lines; at most {MAX_LINES}")

    mapped = mapped_folders(text)
    if mapped is None:
        failures.append("README.md has no <!-- folder-map:begin --> … <!-- folder-map:end --> table")
    else:
        missing = sorted(f for f in tree_folders(repo) if not covered(f, mapped))
        if missing:
            failures.append("README's folder map leaves out: " + ", ".join(missing))
        gone = sorted(f for f in mapped if not os.path.isdir(os.path.join(repo, f)))
        if gone:
            failures.append("README's folder map names folders that do not exist: " + ", ".join(gone))

    blocks = sh_blocks(text)
    if not any("make test" in b for b in blocks) or not any("make bench" in b for b in blocks):
        failures.append("README.md must give `make bench` and `make test` in ```sh blocks")
    ci = open(os.path.join(repo, ".ci", "run"), encoding="utf-8").read()
    if not re.search(r"^make test$", ci, re.M):
        failures.append(".ci/run does not run the README's `make test`")

    if not map_only:
        for number, block in enumerate(blocks, 1):
            commands = "\n".join(
                line for line in block.splitlines() if not re.match(r"^make test\b", line.split("#")[0].strip())
            )
            print(f"== README block {number}:\n{commands}", flush=True)
            result = subprocess.run(["bash", "-euo", "pipefail", "-c", commands], cwd=repo)
            if result.returncode != 0:
                failures.append(f"README block {number} exited {result.returncode}:\n{block}")

    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    print(f"README check: {0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
