#!/usr/bin/env python3
"""A deliberately broken journey-protocol adapter (Docs/Protocol.md), for the harness's tests: it
routes nothing and answers `done` for every journey, except that on journeys whose index is 7
modulo 50 it misbehaves as its one argument says:

  crash    exit at once (stdout closes)
  hang     stop answering (sleep)
  garbage  write a line that is not JSON
  breach   answer a route for another journey
"""

import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "crash"


def main():
    out = sys.stdout
    for line in sys.stdin:
        if '"type":"hello"' in line:
            out.write('{"type":"hello","protocol":1,"name":"faulty ' + MODE + '","reasons":[]}\n')
            out.flush()
            continue
        if '"type":"end"' not in line:
            continue
        journey = int(line.split('"journey":')[1].split("}")[0].split(",")[0])
        if journey % 50 == 7:
            if MODE == "crash":
                sys.exit(3)
            if MODE == "hang":
                time.sleep(60)
            if MODE == "garbage":
                out.write("this is not json\n")
            if MODE == "breach":
                out.write('{"type":"route","journey":%d,"seq":0,"link":"/product/42"}\n' % (journey + 1))
        out.write('{"type":"done","journey":%d}\n' % journey)
        out.flush()


if __name__ == "__main__":
    main()
