"""Times the Python parsers people use on the same files as `summit bench activity`.

With --check, prints instead the subset of files every parser accepts, so
the comparison runs on files all sides can read. Run by `summit bench activity` inside a virtualenv under .build/ that has
fitdecode, fitparse and gpxpy from PyPI. Reads a JSON list of {"format", "path"}
from the file given by --files; every file is read into memory first, then each parser decodes all
files of its format repeatedly for at least --seconds; prints one JSON object
with bytes, rounds and seconds per parser. Never part of the product.
"""
import io
import json
import sys
import time

import fitdecode
import fitparse
import gpxpy


def run_fitdecode(data):
    with fitdecode.FitReader(io.BytesIO(data), check_crc=fitdecode.CrcCheck.RAISE) as reader:
        for _ in reader:
            pass


def run_fitparse(data):
    fitparse.FitFile(io.BytesIO(data)).parse()


def run_gpxpy(data):
    gpxpy.parse(data.decode("utf-8"))


PARSERS = {"fitdecode": ("fit", run_fitdecode), "fitparse": ("fit", run_fitparse), "gpxpy": ("gpx", run_gpxpy)}


def accepted_by_all(files):
    """The files every parser of their format decodes without an error."""
    kept = []
    for item in files:
        with open(item["path"], "rb") as handle:
            data = handle.read()
        try:
            for fmt, parse in PARSERS.values():
                if fmt == item["format"]:
                    parse(data)
        except Exception:  # noqa: BLE001 - any refusal leaves the file out of the comparison
            continue
        kept.append(item)
    return kept


def main():
    if "--check" in sys.argv:
        with open(sys.argv[sys.argv.index("--files") + 1], encoding="utf-8") as listing:
            json.dump(accepted_by_all(json.load(listing)), sys.stdout)
        return
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 1.0
    with open(sys.argv[sys.argv.index("--files") + 1], encoding="utf-8") as listing:
        files = json.load(listing)
    contents = {"fit": [], "gpx": []}
    for item in files:
        with open(item["path"], "rb") as handle:
            contents[item["format"]].append(handle.read())
    results = {}
    for name, (fmt, parse) in PARSERS.items():
        blobs = contents[fmt]
        if not blobs:
            continue
        total = sum(len(b) for b in blobs)
        rounds = 0
        start = time.perf_counter()
        while True:
            for blob in blobs:
                parse(blob)
            rounds += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds and rounds >= 2:
                break
        results[name] = {"format": fmt, "bytes": total * rounds, "seconds": elapsed, "rounds": rounds, "files": len(blobs)}
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
