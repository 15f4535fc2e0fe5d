#!/usr/bin/env python3
"""DeepLinkCore's public API, checked in its public symbol graph (`make symbol-graph`):

- at most --max-types top-level types (issue 36: 28), every one listed in the DocC catalog's
  topics (Sources/DeepLinkCore/DeepLinkCore.docc/DeepLinkCore.md), and every type the topics list
  public (no stale entry);
- no two public enums with the same cases (twins);
- the public calls that capture a link are exactly the ones ForgedLinkCaptureTests proves refuse a
  forged signed link (its `Door` descriptions): a new capture call fails here until that test
  covers it.

Usage: check_public_api.py SYMBOLGRAPH_DIR [--max-types N]   (exit 0: pass; 1: a check failed)
"""
import json
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DOCC = os.path.join(ROOT, "Sources/DeepLinkCore/DeepLinkCore.docc/DeepLinkCore.md")
FORGED_TEST = os.path.join(ROOT, "Tests/DeepLinkLinksTests/ForgedLinkCaptureTests.swift")
TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}
CALL_KINDS = {"swift.method", "swift.func", "swift.type.method", "swift.init"}


def top_level_types(graph):
    return sorted(s["pathComponents"][0] for s in graph["symbols"]
                  if s["kind"]["identifier"] in TYPE_KINDS and len(s["pathComponents"]) == 1)


def docc_topic_types(text):
    """The symbols the `## Topics` section links (``Name``), top-level names only."""
    topics = text.split("## Topics", 1)[1] if "## Topics" in text else ""
    return sorted(set(re.findall(r"^- ``([A-Za-z_][A-Za-z0-9_]*)``\s*$", topics, re.MULTILINE)))


def enum_twins(graph):
    """Pairs of public enums whose case names are the same set."""
    enums = {".".join(s["pathComponents"]) for s in graph["symbols"] if s["kind"]["identifier"] == "swift.enum"}
    cases = {}
    for s in graph["symbols"]:
        if s["kind"]["identifier"] == "swift.enum.case":
            owner = ".".join(s["pathComponents"][:-1])
            if owner in enums:
                cases.setdefault(owner, set()).add(s["names"]["title"].split("(")[0])
    twins = []
    owners = sorted(cases)
    for i, first in enumerate(owners):
        for second in owners[i + 1:]:
            if cases[first] == cases[second]:
                twins.append((first, second, sorted(cases[first])))
    return twins


def capture_calls(graph):
    """`Type.name(firstLabel:)` of every public call named capture…, a HandoffStore conformer's
    inherited one under `HandoffStore`."""
    by_id = {s["identifier"]["precise"]: s for s in graph["symbols"]}
    stores = {by_id[r["source"]]["pathComponents"][0] for r in graph["relationships"]
              if r["kind"] == "conformsTo" and r["source"] in by_id
              and by_id.get(r["target"], {}).get("pathComponents") == ["HandoffStore"]}
    calls = set()
    for s in graph["symbols"]:
        title = s["names"]["title"]
        if s["kind"]["identifier"] not in CALL_KINDS or not title.startswith("capture"):
            continue
        owner = s["pathComponents"][0]
        if owner in stores:
            owner = "HandoffStore"
        name, _, labels = title.partition("(")
        first = labels.split(":", 1)[0]
        calls.add(f"{owner}.{name}({first}:)")
    return sorted(calls)


def tested_capture_calls(text):
    return sorted(set(re.findall(r"(LinkResolver\.capture\w*\([A-Za-z_]*:\)|HandoffStore\.capture\w*\([A-Za-z_]*:\))",
                                 text)))


def check(graph, docc_text, forged_text, max_types):
    """The failures of the public graph `graph` against the DocC topics and the forged-link test."""
    failures = []
    types = top_level_types(graph)
    if len(types) > max_types:
        failures.append(f"{len(types)} public top-level types, more than {max_types}: {', '.join(types)}")
    topics = docc_topic_types(docc_text)
    missing = sorted(set(types) - set(topics))
    stale = sorted(set(topics) - set(types))
    if missing:
        failures.append(f"public types missing from the DocC topics: {', '.join(missing)}")
    if stale:
        failures.append(f"DocC topics that are not public types: {', '.join(stale)}")
    for first, second, cases in enum_twins(graph):
        failures.append(f"{first} and {second} have the same cases ({', '.join(cases)})")
    calls = capture_calls(graph)
    tested = tested_capture_calls(forged_text)
    if calls != tested:
        failures.append(f"public capture calls {calls} differ from those ForgedLinkCaptureTests covers {tested}")
    return failures


def self_test():
    """Each check, planted in a small graph, is reported; the clean graph passes."""
    def symbol(path, kind, title=None):
        return {"identifier": {"precise": "s:" + ".".join(path)}, "pathComponents": path,
                "kind": {"identifier": kind}, "names": {"title": title or path[-1]}}

    def graph(extra=()):
        symbols = [symbol(["Resolver"], "swift.class"), symbol(["Verdict"], "swift.enum"),
                   symbol(["Verdict", "link"], "swift.enum.case"),
                   symbol(["Resolver", "capture(payload:id:)"], "swift.method", "capture(payload:id:)")]
        return {"symbols": symbols + list(extra), "relationships": []}

    docc = "## Topics\n- ``Resolver``\n- ``Verdict``\n"
    forged = "LinkResolver.capture(payload:)"
    clean = graph()
    clean["symbols"][0]["pathComponents"] = ["LinkResolver"]
    clean["symbols"][3]["pathComponents"] = ["LinkResolver", "capture(payload:id:)"]
    docc_clean = docc.replace("``Resolver``", "``LinkResolver``")
    assert check(clean, docc_clean, forged, 2) == [], check(clean, docc_clean, forged, 2)
    planted = {
        "over the limit": (clean, docc_clean, forged, 1),
        "missing from the topics": (clean, "## Topics\n- ``LinkResolver``\n", forged, 2),
        "stale topic": (clean, docc_clean + "- ``Gone``\n", forged, 2),
        "twin enums": ({"symbols": clean["symbols"] + [symbol(["Outcome"], "swift.enum"),
                                                       symbol(["Outcome", "link"], "swift.enum.case")],
                        "relationships": []}, docc_clean + "- ``Outcome``\n", forged, 3),
        "untested capture call": ({"symbols": clean["symbols"] + [
            symbol(["LinkResolver", "capture(_:)"], "swift.method", "capture(_:)")], "relationships": []},
            docc_clean, forged, 2),
    }
    for name, (planted_graph, planted_docc, planted_forged, limit) in planted.items():
        assert len(check(planted_graph, planted_docc, planted_forged, limit)) == 1, name


def main():
    args = sys.argv[1:]
    max_types = 28
    if "--max-types" in args:
        index = args.index("--max-types")
        max_types = int(args[index + 1])
        del args[index:index + 2]
    if len(args) != 1:
        print(__doc__)
        return 2
    path = os.path.join(args[0], "DeepLinkCore.symbols.json")
    try:
        with open(path) as file:
            graph = json.load(file)
    except (OSError, ValueError) as error:
        print(f"cannot read {path}: {error}; run `make symbol-graph` first")
        return 2
    self_test()
    with open(DOCC) as file:
        docc_text = file.read()
    with open(FORGED_TEST) as file:
        forged_text = file.read()
    failures = check(graph, docc_text, forged_text, max_types)
    types = top_level_types(graph)
    calls = capture_calls(graph)
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        return 1
    print(f"DeepLinkCore public API: {len(types)} top-level types (at most {max_types}), all in the DocC topics; "
          f"no enum twins; capture calls {', '.join(calls)}, each covered by ForgedLinkCaptureTests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
