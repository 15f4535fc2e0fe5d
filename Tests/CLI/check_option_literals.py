#!/usr/bin/env python3
"""Fails when an option name is written as a string literal more than once in Sources.

An option is declared once (`Option("--seed", ...)`, `Flag("--quiet", ...)`) and every other
mention goes through its declaration (`RunCommand.journeys.name`, `\\(Option.out.name)`), so a
misspelled name cannot compile. A literal counts when it starts with `--NAME` (`"--out"`,
`"--out="`, `"--shard \\(error)"`); a name inside a sentence (`"give --journeys"`) does not.

Usage: check_option_literals.py [ROOT]   (default: the repository's Sources/)
"""
import collections
import pathlib
import re
import sys

OPTION = re.compile(r"--[A-Za-z][A-Za-z0-9-]*")


def literals(text):
    """Yields (line, first characters) of every string literal in Swift source `text`."""
    index, line, length = 0, 1, len(text)

    def scan_code(index, line, closing):
        # Code up to the `)` that closes an interpolation (or the end of the file): strings inside
        # are literals too.
        depth = 0
        while index < length:
            char = text[index]
            if char == "\n":
                line += 1
            if text.startswith("//", index):
                end = text.find("\n", index)
                index = length if end < 0 else end
                continue
            if text.startswith("/*", index):
                end = text.find("*/", index)
                end = length if end < 0 else end + 2
                line += text.count("\n", index, end)
                index = end
                continue
            if char == '"' or (char == "#" and re.match(r'#+"', text[index:])):
                index, line = yield from scan_string(index, line)
                continue
            if closing and char == "(":
                depth += 1
            elif closing and char == ")":
                if depth == 0:
                    return index + 1, line
                depth -= 1
            index += 1
        return index, line

    def scan_string(index, line):
        hashes = 0
        while text[index] == "#":
            hashes += 1
            index += 1
        multiline = text.startswith('"""', index)
        quote = '"""' if multiline else '"'
        index += len(quote)
        terminator = quote + "#" * hashes
        escape = "\\" + "#" * hashes
        start_line = line
        if multiline:
            # The content starts on the next line; only its start counts, the other lines are prose.
            newline = text.find("\n", index)
            line += 1
            index = newline + 1
        yield start_line, text[index : index + 64]
        while index < length:
            if text.startswith(terminator, index):
                return index + len(terminator), line
            if text.startswith(escape + "(", index):
                index, line = yield from scan_code(index + len(escape) + 1, line, True)
                continue
            if text.startswith(escape, index):
                index += len(escape) + 1
                continue
            if text[index] == "\n":
                line += 1
            index += 1
        return index, line

    yield from scan_code(0, 1, False)


def main():
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2] / "Sources"
    seen = collections.defaultdict(list)
    for path in sorted(root.rglob("*.swift")):
        for line, start in literals(path.read_text(encoding="utf-8")):
            match = OPTION.match(start)
            if match:
                seen[match.group(0)].append(f"{path.relative_to(root.parent)}:{line}")
    repeated = {name: places for name, places in seen.items() if len(places) > 1}
    for name, places in sorted(repeated.items()):
        print(f"{name} is written {len(places)} times: " + ", ".join(places))
    if repeated:
        print(
            f"check_option_literals: {len(repeated)} option names written more than once; declare each once "
            "(Option/Flag) and refer to the declaration (.name)"
        )
        return 1
    print(f"check_option_literals: {len(seen)} option names, each written once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
